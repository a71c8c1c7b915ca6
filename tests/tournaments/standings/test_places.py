"""Best and worst possible places: hand-checked cases and a brute-force cross-check."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.standings import PlaceRange, possible_places
from tournaments.standings.records import Outcome, PlayerRecord, PointSystem, RoundRecord

HALF_BYE = Outcome.HALF_BYE
FULL_BYE = Outcome.FULL_BYE


def scored(halves: dict[int, int], withdrawn: frozenset[int] = frozenset()) -> list[PlayerRecord]:
    """Players whose score is the given number of half points (made of byes: only the score
    matters for places)."""
    players = []
    for number, count in halves.items():
        rounds = [RoundRecord(i + 1, FULL_BYE) for i in range(count // 2)]
        if count % 2:
            rounds.append(RoundRecord(len(rounds) + 1, HALF_BYE))
        after = len(rounds) if number in withdrawn else None
        players.append(PlayerRecord(number, f"P{number}", None, tuple(rounds), after))
    return players


def places(result: dict[int, PlaceRange]) -> dict[int, tuple[int, int]]:
    return {n: (r.best, r.worst) for n, r in result.items()}


def test_a_round_robin_with_two_games_left() -> None:
    """1: 2, 2: 1.5, 3: 1, 4: ½; left: 1-2 and 3-4.
    1 best: wins -> 3, nobody above. 1 worst: loses -> 2, 2 gets 2.5, 3 can reach 2 (a tie
    counts below): 3rd.
    2 best: beats 1 -> 2.5, 1 stays 2, 3 at most 2: 1st. 2 worst: loses -> 1.5, 1 on 3; 3 needs
    a draw and 4 a win to reach 1.5, not both: 3rd.
    3 best: beats 4 -> 2; of 1 and 2 one ends above 2 whatever happens (1-0: 1 on 3;
    ½-½: 1 on 2.5; 0-1: 2 on 2.5): 2nd, eliminated. 3 worst: loses -> 1, everybody at 1.5
    or more: 4th.
    4 best: beats 3 -> 1.5; 1-0 puts only 1 above (2 ties on 1.5): 2nd. 4 worst: 4th."""
    result = possible_places(scored({1: 4, 2: 3, 3: 2, 4: 1}), remaining_games=[(1, 2), (3, 4)])
    assert places(result) == {1: (1, 3), 2: (1, 3), 3: (2, 4), 4: (2, 4)}
    assert [result[n].eliminated for n in (1, 2, 3, 4)] == [False, False, True, True]
    assert not any(r.clinched for r in result.values())
    assert all(r.exact for r in result.values())


def test_a_leader_out_of_reach_has_clinched() -> None:
    """1: 3, the others 1 with one game 2-3 left: 2 or 3 reaches 2 at most. 4 has no game:
    the winner of 2-3 passes it (a draw lifts both), so 4 is 3rd at best."""
    result = possible_places(scored({1: 6, 2: 2, 3: 2, 4: 2}), remaining_games=[(2, 3)])
    assert result[1] == PlaceRange(1, 1, 1, clinched=True, eliminated=False, exact=True)
    assert places(result) == {1: (1, 1), 2: (2, 4), 3: (2, 4), 4: (3, 4)}
    assert all(result[n].eliminated for n in (2, 3, 4))


def test_a_tie_on_points_counts_as_the_better_place_for_best_and_the_worse_for_worst() -> None:
    result = possible_places(scored({1: 2, 2: 2}), remaining_games=[])
    assert places(result) == {1: (1, 2), 2: (1, 2)}
    assert not result[1].clinched and not result[1].eliminated


def test_draws_matter_two_rivals_can_both_reach_a_score_through_a_draw() -> None:
    """1: 1 with no game left; 2 and 3 on ½ play each other: a draw lifts both to 1, so 1's
    worst place is 3rd; a decisive game lifts only one."""
    result = possible_places(scored({1: 2, 2: 1, 3: 1}), remaining_games=[(2, 3)])
    assert result[1].worst == 3
    assert result[1].best == 1


def test_unknown_pairings_give_bounds_and_withdrawn_players_stay_put() -> None:
    """Swiss, one round left. 1: 3, 2: 2.5, 3: 2, 4: 2.5 but withdrawn.
    1: best 1 (nobody above 4), worst 2 (2 can reach 3.5; 3 only 3, level: counted below ->
    3rd). 4 can no longer gain: best 2 (1 is on 3), and it is eliminated."""
    result = possible_places(
        scored({1: 6, 2: 5, 3: 4, 4: 5}, withdrawn=frozenset({4})), rounds_left=1
    )
    assert places(result) == {1: (1, 3), 2: (1, 4), 3: (1, 4), 4: (2, 4)}
    assert not any(r.exact for r in result.values())
    assert result[4].eliminated and not result[1].clinched


def test_no_round_left_gives_the_places_of_the_scores() -> None:
    result = possible_places(scored({1: 4, 2: 2, 3: 2}), rounds_left=0)
    assert places(result) == {1: (1, 1), 2: (2, 3), 3: (2, 3)}
    assert result[1].clinched


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"remaining_games": [(1, 9)]}, "remaining game 1-9 is not between two players"),
        ({"remaining_games": [(1, 1)]}, "remaining game 1-1"),
        ({"rounds_left": -1}, "rounds_left must be 0 or more"),
        (
            {"remaining_games": [], "points": PointSystem(win=Fraction(3), draw=Fraction(1))},
            "halfway between a win and a loss",
        ),
    ],
)
def test_bad_input_is_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        possible_places(scored({1: 0, 2: 0}), **kwargs)  # type: ignore[arg-type]


def brute_force(halves: dict[int, int], games: list[tuple[int, int]]) -> dict[int, tuple[int, int]]:
    """Every outcome of every remaining game (in half points 2-0, 1-1, 0-2)."""
    best = {n: len(halves) for n in halves}
    worst = {n: 1 for n in halves}
    for results in itertools.product((0, 1, 2), repeat=len(games)):
        final = dict(halves)
        for (first, second), share in zip(games, results, strict=True):
            final[first] += share
            final[second] += 2 - share
        for n in halves:
            above = sum(1 for m in halves if m != n and final[m] > final[n])
            level = sum(1 for m in halves if m != n and final[m] == final[n])
            best[n] = min(best[n], 1 + above)
            worst[n] = max(worst[n], 1 + above + level)
    return {n: (best[n], worst[n]) for n in halves}


@st.composite
def small_events(draw: st.DrawFn) -> tuple[dict[int, int], list[tuple[int, int]]]:
    count = draw(st.integers(min_value=2, max_value=6))
    halves = {n: draw(st.integers(min_value=0, max_value=8)) for n in range(1, count + 1)}
    pairs = list(itertools.combinations(range(1, count + 1), 2))
    games = draw(st.lists(st.sampled_from(pairs), max_size=7))
    return halves, games


@settings(max_examples=300, deadline=None)
@given(small_events())
def test_exact_places_match_a_brute_force_enumeration(
    event: tuple[dict[int, int], list[tuple[int, int]]],
) -> None:
    halves, games = event
    result = possible_places(scored(halves), remaining_games=games)
    assert places(result) == brute_force(halves, games)
    for place in result.values():
        assert place.clinched == (place.worst == 1)
        assert place.eliminated == (place.best > 1)


@settings(max_examples=100, deadline=None)
@given(small_events(), st.integers(min_value=0, max_value=3))
def test_swiss_bounds_contain_every_reachable_place(
    event: tuple[dict[int, int], list[tuple[int, int]]], rounds_left: int
) -> None:
    """Whatever games the pairings bring (here: any games, each player in at most
    ``rounds_left`` of them), the places stay within the bounds."""
    halves, games = event
    load: dict[int, int] = {}
    kept = []
    for first, second in games:
        if load.get(first, 0) < rounds_left and load.get(second, 0) < rounds_left:
            kept.append((first, second))
            load[first] = load.get(first, 0) + 1
            load[second] = load.get(second, 0) + 1
    bounds = possible_places(scored(halves), rounds_left=rounds_left)
    for number, (best, worst) in brute_force(halves, kept).items():
        assert bounds[number].best <= best and worst <= bounds[number].worst


@settings(max_examples=200, deadline=None)
@given(small_events(), st.integers(min_value=0, max_value=3000))
def test_a_search_out_of_budget_gives_sound_bounds(
    event: tuple[dict[int, int], list[tuple[int, int]]], work: int
) -> None:
    """With too little work allowed the search stops early: the places it gives still hold
    every reachable place, and say so (``exact`` False) unless they are the exact ones."""
    halves, games = event
    result = possible_places(scored(halves), remaining_games=games, work=work)
    for number, (best, worst) in brute_force(halves, games).items():
        place = result[number]
        assert place.best <= best and worst <= place.worst
        if place.exact:
            assert (place.best, place.worst) == (best, worst)
        assert place.clinched == (place.worst == 1)
        assert place.eliminated == (place.best > 1)


def test_a_large_round_robin_with_every_game_open_gets_bounds() -> None:
    """60 players level, all 1,770 games to play: the search that used to run for minutes
    is over budget from its first flow, so every player gets the bounds 1-60."""
    numbers = range(1, 61)
    games = list(itertools.combinations(numbers, 2))
    result = possible_places(scored(dict.fromkeys(numbers, 0)), remaining_games=games)
    assert {(r.best, r.worst, r.exact) for r in result.values()} == {(1, 60, False)}


def test_the_budget_is_shared_so_the_first_players_stay_exact() -> None:
    """A 16-player event with 3 rounds left: exact within the default budget; with a budget
    for a few flows only the first players are exact and the rest bounded."""
    players = scored({n: 24 - n for n in range(1, 17)})
    games = [(a, b) for a in range(1, 17) for b in range(a + 1, 17) if b - a in (1, 2, 3)]
    exact = possible_places(players, remaining_games=games)
    assert all(r.exact for r in exact.values())
    tight = possible_places(players, remaining_games=games, work=20_000)
    assert tight[1].exact and not tight[16].exact
    for number, place in tight.items():
        assert place.best <= exact[number].best and exact[number].worst <= place.worst


def test_a_finished_swiss_has_exact_places() -> None:
    result = possible_places(scored({1: 4, 2: 2, 3: 2}), rounds_left=0)
    assert all(r.exact for r in result.values())
