"""Reading the next round's settings from TRF records (``next_round``)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.tournaments.swiss.events import event
from tournaments.pairing.dutch.from_trf import TrfPairingError, next_round
from tournaments.standings.records import Colour


def settings(players: list, *extra: str, header: dict[str, str] | None = None, rounds: int = 5):
    return next_round(tuple(players), header or {}, extra, rounds)


def test_the_round_after_the_last_one_paired():
    upcoming = settings(event("2w1 Z", "1b0 H", "U"))
    assert (upcoming.round_number, upcoming.total_rounds) == (2, 5)


def test_an_absence_entered_ahead_does_not_count_as_a_round_paired():
    assert settings(event("Z", "Z")).round_number == 1


def test_initial_colour_from_record_152_then_xxc_then_round_one():
    assert settings(event(""), header={"152": "B"}).initial_colour is Colour.BLUE
    assert settings(event(""), "XXC black1").initial_colour is Colour.BLUE
    assert settings(event("2b1", "1w0")).initial_colour is Colour.BLUE
    assert settings(event("U", "3w1", "2b0")).initial_colour is Colour.BLUE
    assert settings(event("")).initial_colour is Colour.ORANGE


def test_requested_byes_for_this_round_only():
    upcoming = settings(event("", "", ""), "240 H   1    2    3", "240 F   2    1")
    assert upcoming.absent == {2, 3}


def test_forbidden_pairs_from_xxp_and_from_260_in_their_rounds():
    upcoming = settings(
        event("", "", "", ""), "XXP 1 2 3", "260   1   2    4    1", "260   3   5    2    4"
    )
    assert set(upcoming.forbidden_pairs) == {frozenset(p) for p in ({1, 2}, {1, 3}, {2, 3}, {1, 4})}


def test_acceleration_from_xxa_and_250():
    upcoming = settings(
        event("", "", ""),
        "XXA    1  1.0  0.5",
        "250       1.0   1   2    2    3",
    )
    assert upcoming.acceleration == {
        1: (Fraction(1), Fraction(1, 2)),
        2: (Fraction(1), Fraction(1)),
        3: (Fraction(1), Fraction(1)),
    }


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("240 H x 1",), "record 240"),
        (("XXP 1 two",), "XXP: expected player numbers"),
        (("260 1 2",), "record 260"),
        (("XXA    1  one",), "acceleration record"),
    ],
)
def test_unreadable_records_are_named(extra, message):
    with pytest.raises(TrfPairingError, match=message):
        settings(event("", ""), *extra)
