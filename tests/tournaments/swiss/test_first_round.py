"""A first round is paired by its natural order (upper half against lower half, the bye to
the last) without solving matchings: the same pairing as the full engine, and fast enough
for the largest fields (docs/TOURNAMENTS.md, "Limits")."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from tournaments.pairing.base import Pair, PairingError
from tournaments.pairing.dutch import pair_dutch
from tournaments.pairing.dutch.simulation import quick_history
from tournaments.standings.records import Colour


def first_round(players: int, **options):
    records = quick_history(random.Random(players), players, 0)
    fast = pair_dutch(records, round_number=1, total_rounds=7, **options)
    slow = pair_dutch(records, round_number=1, total_rounds=7, exhaustive=True, **options)
    return fast, slow


@pytest.mark.parametrize("players", [1, 2, 3, 4, 7, 10, 13, 24, 31])
@pytest.mark.parametrize("colour", [Colour.ORANGE, Colour.BLUE])
def test_the_natural_order_is_what_the_full_engine_pairs(players, colour):
    fast, slow = first_round(players, initial_colour=colour)
    assert fast == slow


def test_a_round_with_nobody_to_pair_is_refused():
    with pytest.raises(PairingError, match="no player to pair"):
        first_round(0)


def test_players_absent_from_round_one_are_left_out_and_the_rest_keep_the_order():
    rng = random.Random(5)
    for _ in range(20):
        players = rng.randint(2, 30)
        absent = frozenset(rng.sample(range(1, players + 1), rng.randint(0, players // 3)))
        fast, slow = first_round(players, absent=absent)
        assert fast == slow
        assert not absent & {n for pair in fast.pairs for n in (pair.orange, pair.blue)}


def test_eleven_players_meet_across_the_halves_and_the_last_sits_out():
    fast, _ = first_round(11)
    assert fast.byes == (11,)
    assert fast.pairs == (Pair(1, 6), Pair(7, 2), Pair(3, 8), Pair(9, 4), Pair(5, 10))


def test_forbidden_pairs_and_acceleration_still_go_to_the_engine():
    # 1 may not meet 3 (its natural opponent): the engine finds another pairing
    fast, slow = first_round(4, forbidden_pairs=[frozenset({1, 3})])
    assert fast == slow and Pair(1, 3) not in fast.pairs and Pair(3, 1) not in fast.pairs
    # Baku acceleration: the upper half plays in a group of its own in round 1
    acceleration = {n: (Fraction(1),) for n in (1, 2, 3, 4)}
    fast, slow = first_round(8, acceleration=acceleration)
    assert fast == slow
    assert {frozenset((p.orange, p.blue)) for p in fast.pairs} >= {frozenset({1, 3})}
