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
from tournaments.pairing.dutch import engine, pair_dutch
from tournaments.pairing.dutch.simulation import quick_history
from tournaments.pairing.dutch.state import PlayerState, build_state
from tournaments.pairing.dutch.transposition import (
    colour_optimal,
    first_transposition,
    transposition_with_one_exchange,
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


class TestOneExchange:
    def test_no_exchange_when_s1_can_meet_s2(self):
        found = transposition_with_one_exchange([0, 1, 2, 3], lambda a, b: True, None)
        assert found == ([(0, 2), (1, 3)], None)

    def test_swaps_the_lowest_s1_player_with_the_highest_s2_player(self):
        # Only 0-1 and 2-3 may meet: S1 {0, 1} cannot meet S2 {2, 3}; 1 and 2 swap.
        allowed = {(0, 1), (2, 3)}
        found = transposition_with_one_exchange([0, 1, 2, 3], lambda a, b: (a, b) in allowed, None)
        assert found == ([(0, 1), (2, 3)], None)

    def test_leaves_out_one_of_the_floaters(self):
        found = transposition_with_one_exchange([0, 1, 2], lambda a, b: True, {1})
        assert found == ([(0, 2)], 1)

    def test_no_answer_when_nobody_may_meet(self):
        assert transposition_with_one_exchange([0, 1, 2, 3], lambda a, b: False, None) is None


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
