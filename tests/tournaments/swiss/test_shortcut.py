"""The engine's shortcut (``docs/TOURNAMENTS.md``, "How the engine stays fast"): the quick
completion search, and the same pairings with and without the shortcut."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing.dutch import pair_dutch
from tournaments.pairing.dutch.completion import complete_pairing
from tournaments.pairing.dutch.simulation import EventShape, quick_history, random_event


def fits_except(*forbidden: tuple[int, int]):
    banned = {frozenset(pair) for pair in forbidden}
    return lambda a, b: frozenset((a, b)) not in banned


def assert_valid(mates, order, fits, apart=()):
    assert set(mates) == set(order)
    for v, partner in mates.items():
        if partner is None:
            continue
        assert mates[partner] == v
        assert fits(v, partner)
        assert not (v in apart and partner in apart)


class TestCompletePairing:
    def test_pairs_everyone_in_an_even_field(self):
        mates = complete_pairing(range(6), fits_except())
        assert_valid(mates, range(6), fits_except())
        assert None not in mates.values()

    def test_repairs_a_greedy_dead_end_by_swapping_partners(self):
        # Greedy pairs 0-1, then 2 and 3 may not meet: 2 takes 1 and 0 takes 3 instead.
        fits = fits_except((2, 3), (0, 2))
        mates = complete_pairing([0, 1, 2, 3], fits)
        assert mates == {0: 3, 3: 0, 1: 2, 2: 1}

    def test_leaves_out_a_sitter_in_an_odd_field(self):
        fits = fits_except()
        mates = complete_pairing(range(5), fits, sitters=[4])
        assert_valid(mates, range(5), fits)
        assert mates[4] is None

    def test_tries_the_next_sitter_when_the_first_cannot_sit_out(self):
        # Without 4, player 3 has nobody: 3 may only meet 4.
        fits = lambda a, b: (3 in (a, b)) <= (4 in (a, b))  # noqa: E731
        mates = complete_pairing(range(5), fits, sitters=[4, 2])
        assert mates[2] is None and mates[3] == 4

    def test_an_odd_field_without_sitters_has_no_completion(self):
        assert complete_pairing(range(5), fits_except()) is None

    def test_never_pairs_two_players_kept_apart(self):
        mates = complete_pairing(range(4), fits_except(), apart=[0, 1])
        assert_valid(mates, range(4), fits_except(), apart=[0, 1])

    def test_reports_no_completion_when_none_exists(self):
        # 0 may meet only 1, and 2 may meet only 1: one of them is left over.
        fits = lambda a, b: {a, b} not in ({0, 2}, {0, 3}, {2, 3})  # noqa: E731
        assert complete_pairing(range(4), fits) is None

    @settings(max_examples=200, deadline=None)
    @given(
        size=st.integers(0, 12).map(lambda n: n * 2),
        banned=st.sets(st.tuples(st.integers(0, 23), st.integers(0, 23)), max_size=30),
        apart=st.sets(st.integers(0, 23), max_size=4),
    )
    def test_whatever_it_returns_is_a_valid_pairing(self, size, banned, apart):
        fits = fits_except(*banned)
        mates = complete_pairing(range(size), fits, apart=apart)
        if mates is not None:
            assert_valid(mates, range(size), fits, apart)


SHAPES = [
    EventShape(players=31, rounds=7, late_entries=2, forbidden_pairs=2),
    EventShape(players=48, rounds=9, half_bye_rate=0.06, absence_rate=0.05),
    EventShape(players=27, rounds=6, accelerated=True, full_bye_rate=0.03),
]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s.players}p{s.rounds}r")
def test_the_shortcut_pairs_every_round_as_the_full_matching_does(shape: EventShape):
    def both(records, **options):
        fast = pair_dutch(records, **options)
        assert fast == pair_dutch(records, exhaustive=True, **options), options["round_number"]
        return fast

    assert sum(1 for _ in random_event(random.Random(3), shape, both)) == shape.rounds


def test_the_shortcut_pairs_a_large_field_late_in_the_event_as_the_full_matching_does():
    records = quick_history(random.Random(5), 90, 6)
    fast = pair_dutch(records, round_number=7, total_rounds=9)
    assert fast == pair_dutch(records, round_number=7, total_rounds=9, exhaustive=True)
