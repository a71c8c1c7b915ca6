"""Random events replayed through the engine, every round checked by the independent checker
(absolute criteria, bye rule, colour rules). A few small events here; ``python -m
bench.swiss soak`` runs many more."""

from __future__ import annotations

import random

import pytest

from tournaments.pairing.base import Pair, RoundPairing
from tournaments.pairing.dutch import pair_dutch
from tournaments.pairing.dutch.checker import pairing_violations
from tournaments.pairing.dutch.simulation import EventShape, random_event

from .events import event

SHAPES = [
    EventShape(players=9, rounds=5, late_entries=1),
    EventShape(players=14, rounds=7, half_bye_rate=0.08, absence_rate=0.08),
    EventShape(players=21, rounds=6, forfeit_rate=0.1, withdraw_rate=0.03, late_entries=2),
    EventShape(players=16, rounds=6, forbidden_pairs=4, accelerated=True),
]


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s.players}p{s.rounds}r")
def test_every_round_of_a_random_event_is_legal(shape: EventShape, seed: int):
    rounds = 0
    for round_input, pairing in random_event(random.Random(seed), shape, pair_dutch):
        problems = pairing_violations(
            round_input.players,
            pairing,
            round_number=round_input.round_number,
            total_rounds=round_input.total_rounds,
            absent=round_input.absent,
            forbidden_pairs=round_input.forbidden_pairs,
        )
        assert problems == [], f"round {round_input.round_number}"
        rounds += 1
    assert rounds == shape.rounds


def test_the_same_seed_replays_the_same_event():
    shape = SHAPES[1]
    first = [p for _, p in random_event(random.Random(7), shape, pair_dutch)]
    again = [p for _, p in random_event(random.Random(7), shape, pair_dutch)]
    assert first == again


class TestChecker:
    """The checker itself catches each kind of broken pairing."""

    players = event("3w= 4w=", "4w= 3w=", "1b= 2b=", "2b= 1b=", "Z Z")

    def check(self, *pairs: tuple[int, int], byes: tuple[int, ...] = ()) -> list[str]:
        pairing = RoundPairing(tuple(Pair(a, b) for a, b in pairs), byes)
        return pairing_violations(self.players, pairing, round_number=3, total_rounds=5, absent={5})

    def test_rematch(self):
        assert any(p.startswith("C1") for p in self.check((1, 3), (2, 4)))

    def test_absolute_colour_clash(self):
        problems = self.check((2, 1), (3, 4))
        assert any("three times" in p for p in problems)
        assert any("colour difference +3" in p for p in problems)

    def test_missing_and_extra_players(self):
        assert any("present are" in p for p in self.check((1, 2), (3, 5)))

    def test_second_bye(self):
        players = event("U 2w1", "Z 1b0", "Z Z")
        pairing = RoundPairing((), (1,))
        problems = pairing_violations(players[:1], pairing, round_number=3, total_rounds=5)
        assert any(p.startswith("C2") for p in problems)

    def test_forbidden_pair(self):
        pairing = RoundPairing((Pair(1, 2),))
        problems = pairing_violations(
            event("", ""),
            pairing,
            round_number=1,
            total_rounds=3,
            forbidden_pairs=[frozenset({1, 2})],
        )
        assert problems == ["C1: 1 and 2 may not meet"]

    def test_colour_preferences_ignored(self):
        players = event("2w1", "1b0", "4b1", "3w0")
        pairing = RoundPairing((Pair(1, 3), Pair(4, 2)))
        problems = pairing_violations(players, pairing, round_number=2, total_rounds=3)
        assert problems == [
            "colours: 1-3 ignore compatible preferences",
            "colours: 4-2 ignore compatible preferences",
        ]
