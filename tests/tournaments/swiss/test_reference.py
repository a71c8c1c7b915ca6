"""Rounds worked out by hand from C.04.3, one per absolute criterion and for the bye rule.

Each docstring gives the reasoning; the expected boards read ``white black`` (Orange first)
in board order, the bye as ``N 0``, as bbpPairings prints them.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.tournaments.swiss.events import boards, event
from tournaments.pairing.base import PairingError
from tournaments.pairing.dutch import pair_dutch
from tournaments.pairing.dutch.simulation import baku_acceleration
from tournaments.standings.records import Colour


def test_round_one_splits_the_field_and_gives_the_bye_to_the_last():
    """Seven players: S1 = 1-3 against S2 = 4-6 (2.4.1); 7 takes the bye (lowest ranked,
    C5). Colours alternate from the drawn initial colour, Orange to 1 (4.3.5)."""
    pairing = pair_dutch(event(*[""] * 7), round_number=1, total_rounds=5)
    assert boards(pairing) == ["1 4", "5 2", "3 6", "7 0"]


def test_initial_colour_blue_turns_every_board():
    pairing = pair_dutch(
        event(*[""] * 4), round_number=1, total_rounds=3, initial_colour=Colour.BLUE
    )
    assert boards(pairing) == ["3 1", "2 4"]


def test_c1_no_rematch_takes_the_next_transposition():
    """All on ½. 1-3 met, so S2 is transposed to 4, 3: 1-4 and 2-3, where every colour
    preference is also granted (1, 2 want Blue; 3, 4 want Orange)."""
    players = event("3w=", "4w=", "1b=", "2b=")
    pairing = pair_dutch(players, round_number=2, total_rounds=5)
    assert boards(pairing) == ["4 1", "3 2"]


def test_c12_colour_preferences_outrank_the_order_of_transpositions():
    """All on ½; 1 and 4 want Blue, 2 and 3 want Orange. 1-4 / 2-3 would deny two
    preferences; the exchange 1-2 / 3-4 denies none, and C12 ranks above the order of
    transpositions and exchanges (2.4.2)."""
    players = event("3w=", "4b=", "1b=", "2w=")
    pairing = pair_dutch(players, round_number=2, total_rounds=5)
    assert boards(pairing) == ["2 1", "3 4"]


def test_c1_forbidden_pairs_never_meet():
    pairing = pair_dutch(
        event(*[""] * 4),
        round_number=1,
        total_rounds=3,
        forbidden_pairs=[frozenset({1, 3})],
    )
    assert boards(pairing) == ["1 4", "3 2"]


def test_c2_a_player_with_a_bye_already_does_not_get_another():
    """Round 3, present 1, 2 and 4, all on 1½. 4 had the PAB in round 1 (C2), 2 has met 4,
    so only 1-4 leaves an eligible player out: 2 gets the bye. 1 and 4 both had one Orange
    game; same preference, same history, so the higher ranked 1 gets Blue (4.3.4)."""
    players = event("H 5w1", "3w1 4b=", "2b0 U Z", "U 2w=", "H 1b0 Z")
    pairing = pair_dutch(players, round_number=3, total_rounds=5)
    assert boards(pairing) == ["4 1", "2 0"]


def test_c2_a_forfeit_win_counts_as_a_bye_already_received():
    """3 won round 1 by forfeit (scored a win without playing), so 2 takes the bye."""
    players = event("2w1", "1b0", "4w+", "3b-")
    pairing = pair_dutch(players[:3], round_number=2, total_rounds=3)
    assert pairing.byes == (2,)


def test_c3_absolute_colour_preferences_decide_the_pairing():
    """Round 3, all six on 1. 1 and 2 played Orange twice (must have Blue), 5 and 6 Blue
    twice (must have Orange); 3 wants Orange, 4 Blue. C1 and C3 (1-2 and 5-6 may not meet)
    leave {1-6, 2-3, 4-5} and {1-6, 2-4, 3-5}; the first grants every preference, the
    second denies 3 and 4 theirs (C12), so it wins though it needs an exchange."""
    players = event("4w= 5w=", "5w= 6w=", "6w= 4b=", "1b= 3w=", "2b= 1b=", "3b= 2b=")
    pairing = pair_dutch(players, round_number=3, total_rounds=5)
    assert boards(pairing) == ["6 1", "3 2", "5 4"]


def test_c3_same_absolute_preferences_make_the_round_impossible():
    """1 and 2 must have Blue, 3 and 4 Orange, and the only pairs not yet played are 1-2
    and 3-4."""
    players = event("3w= 4w=", "4w= 3w=", "1b= 2b=", "2b= 1b=")
    with pytest.raises(PairingError, match="absolute criteria"):
        pair_dutch(players, round_number=3, total_rounds=5)


def test_c3_topscorers_may_clash_only_in_the_last_round():
    """1 and 2 won twice with Orange; 3 and 4 are absent. Both must have Blue, so they may
    meet only as topscorers (above half the maximum score) in the last round; then the
    higher ranked 1 gets Blue (same history, 4.3.4)."""
    players = event("3w1 4w1", "4w1 3w1", "1b0 2b0 Z", "2b0 1b0 Z")
    pairing = pair_dutch(players, round_number=3, total_rounds=3)
    assert boards(pairing) == ["2 1"]
    with pytest.raises(PairingError):
        pair_dutch(players, round_number=3, total_rounds=4)


def test_c4_the_top_bracket_leaves_the_rest_pairable():
    """Round 4: 1, 2, 3, 5 on 2 could pair among themselves (1-5, 2-3), but 4 and 6 have
    met, so one top player must float down (C4). 6 can meet only 1 or 2; 6-1 / 4-5 / 2-3
    grants every colour preference where 6-2 / 4-3 / 1-5 does not (C12)."""
    players = event(
        "4w1 3b= 2w=", "5b= 4w1 1b=", "6w1 1w= 5b=", "1b0 2b0 6w1", "2w= 6b1 3w=", "3b0 5w0 4b0"
    )
    pairing = pair_dutch(players, round_number=4, total_rounds=5)
    assert boards(pairing) == ["2 3", "4 5", "6 1"]


def test_c5_the_bye_goes_to_the_lowest_score():
    """Three players: 1 and 3 on 1 point, 2 on 0: pairing 1-3 gives the bye to 2."""
    players = event("2w1", "1b0", "U")
    pairing = pair_dutch(players, round_number=2, total_rounds=3)
    assert boards(pairing) == ["3 1", "2 0"]


def test_absent_players_are_not_paired():
    """2 is absent and 5 asked for a half-point bye: 1, 3, 4 remain; 1 meets 3, 4 gets the
    pairing-allocated bye."""
    players = event("", "", "", "", "H")
    pairing = pair_dutch(players, round_number=1, total_rounds=3, absent=frozenset({2}))
    assert boards(pairing) == ["1 3", "4 0"]


@pytest.mark.parametrize(
    ("round_number", "total_rounds", "message"),
    [(0, 5, "outside"), (6, 5, "outside")],
)
def test_rounds_outside_the_event_are_refused(round_number, total_rounds, message):
    with pytest.raises(PairingError, match=message):
        pair_dutch(event("", ""), round_number=round_number, total_rounds=total_rounds)


def test_nobody_to_pair_is_an_error():
    with pytest.raises(PairingError, match="no player"):
        pair_dutch([], round_number=1, total_rounds=3)


def test_baku_acceleration_pairs_by_the_accelerated_score():
    """Eight players, round 1, 1-4 carry a virtual point: two brackets, {1-4} (1 meets 3,
    2 meets 4) and {5-8} (5 meets 7, 6 meets 8)."""
    acceleration = baku_acceleration(8, 7)
    assert acceleration[1] == (Fraction(1), Fraction(1), Fraction(1, 2), Fraction(1, 2))
    assert set(acceleration) == {1, 2, 3, 4}
    pairing = pair_dutch(
        event(*[""] * 8), round_number=1, total_rounds=7, acceleration=acceleration
    )
    assert boards(pairing) == ["1 3", "4 2", "5 7", "8 6"]


def test_player_numbers_must_be_unique():
    players = event("", "") + event("")
    with pytest.raises(PairingError, match=r"given twice: \[1\]"):
        pair_dutch(players, round_number=1, total_rounds=3)


def test_an_opponent_no_longer_listed_is_no_obstacle():
    """4 withdrew and the app left them out: their games still count for the others. 1 (on
    1) floats down to 2 and 3 (on ½); 1 and 2 both want Blue, 3 wants Orange, so 1 meets 3
    (C12 before the MDP's choice of the highest resident) and 2 takes the bye."""
    players = event("4w1", "3w=", "2b=", "1b0")[:3]
    pairing = pair_dutch(players, round_number=2, total_rounds=3)
    assert boards(pairing) == ["3 1", "2 0"]
