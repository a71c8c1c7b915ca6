"""The first transposition without a weighted matching (``dutch/transposition.py``): the
bipartite search, the colour optimum it relies on, and the engine's pairings with and
without it on random score groups."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing.base import PairingError, RoundPairing
from tournaments.pairing.dutch import engine, pair_dutch, transposition
from tournaments.pairing.dutch.simulation import quick_history
from tournaments.pairing.dutch.state import PlayerState, build_state
from tournaments.pairing.dutch.transposition import (
    Kinds,
    colour_optimal,
    exchanges,
    first_transposition,
    transposition_with_exchanges,
)
from tournaments.standings.records import Colour, Outcome, PlayerRecord, PointSystem, RoundRecord

ORANGE, BLUE = Colour.ORANGE, Colour.BLUE


def brute_force_first(options: list[list[int]], size: int) -> list[int] | None:
    """The lexicographically first perfect pairing, by trying every one."""
    best = None
    for perm in itertools.permutations(range(size)):
        if all(perm[i] in options[i] for i in range(size)):
            key = [options[i].index(perm[i]) for i in range(size)]
            if best is None or key < best[0]:
                best = (key, list(perm))
    return None if best is None else best[1]


class TestFirstTransposition:
    def test_each_s1_player_takes_the_first_s2_player_left(self):
        assert first_transposition([[0, 1, 2], [0, 1, 2], [0, 1, 2]], 3) == [0, 1, 2]

    def test_an_earlier_choice_gives_way_only_when_the_rest_cannot_be_paired(self):
        # S1 player 1 may only meet S2 player 0: S1 player 0 must take 1 instead.
        assert first_transposition([[0, 1], [0]], 2) == [1, 0]

    def test_follows_each_players_order_of_preference(self):
        assert first_transposition([[2, 0, 1], [1, 2], [0]], 3) == [2, 1, 0]

    def test_no_perfect_pairing(self):
        assert first_transposition([[0], [0], [1, 2]], 3) is None

    def test_as_many_options_as_s2_players_are_needed(self):
        assert first_transposition([[0, 1]], 2) is None

    @settings(max_examples=300, deadline=None)
    @given(st.integers(1, 6), st.integers(0, 2**32), st.floats(0.2, 0.9))
    def test_is_the_lexicographically_first_perfect_pairing(self, size, seed, density):
        rng = random.Random(seed)
        options = []
        for _ in range(size):
            chosen = [o for o in range(size) if rng.random() < density]
            rng.shuffle(chosen)
            options.append(chosen)
        assert first_transposition(options, size) == brute_force_first(options, size)


ANY_KIND = Kinds(lambda v: 0, lambda v, u: True)


def with_exchanges(rest, may_meet, floaters=None, kinds=ANY_KIND):
    return transposition_with_exchanges(rest, may_meet, floaters, kinds)


def brute_force_exchanges(half: int, size: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every exchange, sorted by the criteria of 2.4.2 one after the other."""
    found = []
    for count in range(1, min(half, size - half) + 1):
        for out in itertools.combinations(range(half), count):
            for into in itertools.combinations(range(half, size), count):
                key = (count, sum(into) - sum(out), sorted(out, reverse=True), list(into))
                found.append((key, out, into))
    found.sort(key=lambda item: (item[0][0], item[0][1], [-x for x in item[0][2]], item[0][3]))
    return [(out, into) for _, out, into in found]


def brute_force_with_exchanges(rest, may_meet, floaters):
    """The first exchange in the order of the rules whose leaders meet the followers."""
    half = len(rest) // 2
    for out, into in [((), ()), *brute_force_exchanges(half, len(rest))]:
        leaders = sorted(set(rest[:half]) - {rest[i] for i in out} | {rest[i] for i in into})
        followers = sorted(set(rest) - set(leaders))
        found = transposition.leaders_meet_followers(leaders, followers, may_meet, floaters)
        if found is not None:
            return found
    return None


class TestExchanges:
    @pytest.mark.parametrize(("half", "size"), [(1, 2), (2, 5), (3, 6), (4, 9), (5, 10), (6, 12)])
    def test_in_the_order_of_the_rules(self, half, size):
        found = [(tuple(sorted(out)), tuple(sorted(into))) for out, into in exchanges(half, size)]
        assert found == brute_force_exchanges(half, size)

    def test_skips_the_numbers_of_players_ruled_out(self):
        found = list(exchanges(3, 6, lambda count: count != 1))
        assert found[0] == ((1, 2), (3, 4))
        assert all(len(out) > 1 for out, _ in found)


class TestWithExchanges:
    def test_no_exchange_when_s1_can_meet_s2(self):
        found = with_exchanges([0, 1, 2, 3], lambda a, b: True)
        assert found == ([(0, 2), (1, 3)], None)

    def test_swaps_the_lowest_s1_player_with_the_highest_s2_player(self):
        # Only 0-1 and 2-3 may meet: S1 {0, 1} cannot meet S2 {2, 3}; 1 and 2 swap.
        allowed = {(0, 1), (2, 3)}
        found = with_exchanges([0, 1, 2, 3], lambda a, b: (a, b) in allowed)
        assert found == ([(0, 1), (2, 3)], None)

    def test_two_exchanges_when_one_is_not_enough(self):
        # 0 may only meet 2 and 1 only 3: both 2 and 3 go to S2, 4 and 5 (the highest) to S1.
        allowed = {(0, 2), (1, 3), (4, 6), (5, 7)}
        found = with_exchanges(range(8), lambda a, b: (a, b) in allowed)
        assert found == ([(0, 2), (1, 3), (4, 6), (5, 7)], None)

    def test_kinds_rule_out_an_exchange_without_a_search(self, monkeypatch):
        # Players meet only the other colour, and only the two blue ones (1 and 3) may float:
        # there are too few blue players for every exchange, so none is searched.
        colour = {0: "w", 1: "b", 2: "w", 3: "b", 4: "w"}

        def may_meet(a: int, b: int) -> bool:
            return colour[a] != colour[b]

        searched = []
        original = transposition.leaders_meet_followers

        def counted(leaders, followers, *args):
            searched.append(tuple(leaders))
            return original(leaders, followers, *args)

        monkeypatch.setattr(transposition, "leaders_meet_followers", counted)
        kinds = Kinds(colour.get, may_meet)
        assert with_exchanges(range(5), may_meet, {1, 3}, kinds) is None
        assert searched == [(0, 1)]

    @settings(max_examples=200, deadline=None)
    @given(st.integers(2, 7), st.integers(0, 2**32), st.floats(0.3, 0.9), st.booleans())
    def test_is_the_first_exchange_in_order_that_pairs(self, size, seed, density, kinds):
        rng = random.Random(seed)
        colour = {v: rng.choice("wb") for v in range(size)}
        allowed = {
            (a, b) for a in range(size) for b in range(a + 1, size) if rng.random() < density
        }

        def may_meet(a: int, b: int) -> bool:
            return (a, b) in allowed and (not kinds or colour[a] != colour[b])

        def colours_meet(a: int, b: int) -> bool:
            return colour[a] != colour[b]

        floaters = {v for v in range(size) if rng.random() < 0.5} if size % 2 else None
        given_kinds = Kinds(colour.get, colours_meet) if kinds else ANY_KIND
        found = with_exchanges(list(range(size)), may_meet, floaters, given_kinds)
        assert found == brute_force_with_exchanges(list(range(size)), may_meet, floaters)

    def test_leaves_out_one_of_the_floaters(self):
        found = with_exchanges([0, 1, 2], lambda a, b: True, {1})
        assert found == ([(0, 2)], 1)

    def test_no_answer_when_nobody_may_meet(self):
        assert with_exchanges([0, 1, 2, 3], lambda a, b: False) is None


def state(number: int, colours: str) -> PlayerState:
    """A player whose games had these colours ("w"/"b"), each one a draw."""
    rounds = tuple(
        RoundRecord(i + 1, Outcome.DRAW, 900 + i, Colour(c)) for i, c in enumerate(colours)
    )
    record = PlayerRecord(number=number, name=f"P{number}", rounds=rounds)
    return build_state(record, rank=number, played_rounds=len(rounds), points=PointSystem())


class TestColourOptimal:
    def test_balanced_preferences_allow_only_pairs_of_different_preferences(self):
        players = [state(1, "w"), state(2, "b"), state(3, "w"), state(4, "b")]
        optimum = colour_optimal(players)
        assert optimum is not None
        assert optimum.allowed(players[0], players[1])
        assert not optimum.allowed(players[0], players[2])
        assert not optimum.allowed(players[1], players[3])

    def test_players_without_a_preference_even_out_a_surplus(self):
        players = [state(1, "w"), state(2, "w"), state(3, ""), state(4, "")]
        optimum = colour_optimal(players)
        assert optimum is not None
        assert optimum.allowed(players[0], players[2])
        assert optimum.allowed(players[2], players[3])
        assert not optimum.allowed(players[0], players[1])

    def test_a_surplus_of_strong_preferences_meets_itself_and_everyone_else(self):
        players = [state(n, "w") for n in range(1, 5)] + [state(5, "b"), state(6, "b")]
        optimum = colour_optimal(players)
        assert optimum is not None
        assert optimum.allowed(players[0], players[1])  # two of the surplus (blue wanted)
        assert optimum.allowed(players[0], players[4])
        assert not optimum.allowed(players[4], players[5])

    def test_a_surplus_with_a_mild_or_absolute_preference_is_not_plain(self):
        mild = [state(1, "wb"), state(2, "wb"), state(3, "wb"), state(4, "bw")]
        absolute = [state(1, "ww"), state(2, "w"), state(3, "w"), state(4, "b")]
        assert colour_optimal(mild) is None
        assert colour_optimal(absolute) is None

    def test_a_pair_of_the_surplus_may_leave_too_few_of_it_for_the_rest(self):
        # Blue is wanted by 3 of 5; an MDP wanting blue too must meet orange: two blues
        # together leave one blue for two oranges and the floater.
        players = [state(1, "w"), state(2, "w"), state(3, "w"), state(4, "b"), state(5, "b")]
        optimum = colour_optimal(players)
        assert optimum is not None and optimum.surplus is BLUE
        assert optimum.allowed(players[0], players[1])
        assert not optimum.leaves_room([players[2], players[3], players[4]])
        assert optimum.leaves_room([players[1], players[2], players[4]])

    def test_balanced_preferences_leave_room_while_free_players_even_them_out(self):
        players = [state(1, "w"), state(2, "b"), state(3, ""), state(4, "w")]
        optimum = colour_optimal(players)
        assert optimum is not None and optimum.surplus is None
        assert optimum.leaves_room([players[0], players[2]])
        assert not optimum.leaves_room([players[0], players[3]])

    def test_an_odd_group_floats_a_surplus_player_or_anyone_when_balanced(self):
        surplus = [state(1, "w"), state(2, "w"), state(3, "b")]
        optimum = colour_optimal(surplus)
        assert optimum is not None
        assert optimum.may_float(surplus[0]) and not optimum.may_float(surplus[2])
        balanced = [state(1, "w"), state(2, "b"), state(3, "")]
        optimum = colour_optimal(balanced)
        assert optimum is not None
        assert all(optimum.may_float(p) for p in balanced)


WIN_LOSS = [(Outcome.WIN, Outcome.LOSS), (Outcome.LOSS, Outcome.WIN)]
DRAW = (Outcome.DRAW, Outcome.DRAW)


def random_groups(
    rng: random.Random, players: int, rounds: int, draws: float
) -> list[PlayerRecord]:
    """Records after ``rounds`` random rounds (random opponents and colours, mostly draws, so
    the score groups are few and large); an odd player out gets the bye."""
    history: dict[int, list[RoundRecord]] = {n: [] for n in range(1, players + 1)}
    for round_number in range(1, rounds + 1):
        order = list(history)
        rng.shuffle(order)
        if len(order) % 2:
            history[order.pop()].append(RoundRecord(round_number, Outcome.PAIRING_BYE))
        for a, b in zip(order[::2], order[1::2], strict=True):
            white, black = (a, b) if rng.random() < 0.5 else (b, a)
            result = DRAW if rng.random() < draws else rng.choice(WIN_LOSS)
            history[white].append(RoundRecord(round_number, result[0], black, ORANGE))
            history[black].append(RoundRecord(round_number, result[1], white, BLUE))
    return [PlayerRecord(number=n, name=f"P{n}", rounds=tuple(r)) for n, r in history.items()]


def without_transposition(monkeypatch: pytest.MonkeyPatch, *args, **kwargs):
    with monkeypatch.context() as patched:
        patched.setattr(engine._Bracket, "_pair_by_transposition", lambda self: False)
        return pair_dutch(*args, **kwargs)


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(4, 40),
    rounds=st.integers(1, 3),
    draws=st.sampled_from([0.0, 0.5, 0.9, 1.0]),
    seed=st.integers(0, 2**32),
)
def test_random_score_groups_pair_as_the_weighted_matching_does(players, rounds, draws, seed):
    records = random_groups(random.Random(seed), players, rounds, draws)
    kwargs = {"round_number": rounds + 1, "total_rounds": rounds + 3}
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert outcome(pair_dutch, records, **kwargs) == outcome(
            lambda *a, **k: without_transposition(monkeypatch, *a, **k), records, **kwargs
        )


def outcome(pairer, *args, **kwargs) -> RoundPairing | str:
    """The pairing, or the error when none satisfies the absolute criteria."""
    try:
        return pairer(*args, **kwargs)
    except PairingError as error:
        return str(error)


def test_random_score_groups_go_both_ways(monkeypatch):
    """The groups of the test above take the fast path and its fallback alike."""
    taken: Counter[bool] = Counter()
    original = engine._Bracket._pair_by_transposition

    def counted(self) -> bool:
        answer = original(self)
        taken[answer] += 1
        return answer

    monkeypatch.setattr(engine._Bracket, "_pair_by_transposition", counted)
    rng = random.Random(5)
    for _ in range(30):
        rounds = rng.randint(1, 3)
        records = random_groups(rng, rng.randint(10, 40), rounds, rng.choice([0.5, 1.0]))
        pair_dutch(records, round_number=rounds + 1, total_rounds=rounds + 3)
    assert taken[True] >= 20 and taken[False] >= 5, taken


@pytest.mark.parametrize(
    ("players", "round_number", "seed"), [(120, 2, 2), (150, 2, 3), (90, 3, 1)]
)
def test_early_rounds_of_a_large_event_pair_as_the_weighted_matching_does(
    monkeypatch, players, round_number, seed
):
    records = quick_history(random.Random(seed), players, round_number - 1)
    kwargs = {"round_number": round_number, "total_rounds": 9}
    assert pair_dutch(records, **kwargs) == without_transposition(monkeypatch, records, **kwargs)


@pytest.mark.parametrize(("seed", "players"), [(402, 8), (443, 8), (485, 8), (562, 10)])
def test_groups_needing_two_exchanges_pair_as_the_weighted_matching_does(
    monkeypatch, seed, players
):
    """Random groups (found by a search over seeds) whose bracket the fast path pairs after
    two exchanges: the same pairing as the matching's exchange procedure."""
    exchanged = []
    original = engine.transposition_with_exchanges

    def counted(rest, *args):
        found = original(rest, *args)
        if found is not None:
            leaders = {leader for leader, _ in found[0]}
            exchanged.append(len(leaders - set(rest[: len(rest) // 2])))
        return found

    records = random_groups(random.Random(seed), players, 3, 1.0)
    kwargs = {"round_number": 4, "total_rounds": 6}
    with monkeypatch.context() as patched:
        patched.setattr(engine, "transposition_with_exchanges", counted)
        fast = pair_dutch(records, **kwargs)
    assert 2 in exchanged
    assert fast == without_transposition(monkeypatch, records, **kwargs)


@pytest.mark.parametrize(("players", "seed"), [(151, 1), (121, 2), (99, 3)])
def test_the_bye_bracket_pairs_as_the_weighted_matching_does(monkeypatch, players, seed):
    """An odd field: the last bracket's floater takes the bye, and when C9 (fewest unplayed
    games) ties all its residents, the fast path pairs it, as the matching would."""
    taken = []
    original = engine._Bracket._pair_by_transposition

    def counted(self) -> bool:
        answer = original(self)
        taken.append((self.p.bye.single_downfloater_is_assignee, answer))
        return answer

    records = quick_history(random.Random(seed), players, 1)
    kwargs = {"round_number": 2, "total_rounds": 9}
    with monkeypatch.context() as patched:
        patched.setattr(engine._Bracket, "_pair_by_transposition", counted)
        fast = pair_dutch(records, **kwargs)
    assert (True, True) in taken
    assert fast == without_transposition(monkeypatch, records, **kwargs)
