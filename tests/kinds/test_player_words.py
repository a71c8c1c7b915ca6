"""What a kind says to players through the contract (emails and the API show it as is): the
chance a pending choice depends on, what to reply next, what a choice gave, a rule broken,
a result in full. A kind that says nothing more needs none of these methods."""

from __future__ import annotations

import random

from games.kinds import get_kind
from games.kinds.base import Departure, Holding, SeededChance, State
from games.kinds.celtic.errors import Rule
from tests.kinds.counting import COUNTING

CELTIC = get_kind("celtic")
KNOT = get_kind("knot")
#: With this seed, seat 1's stack on a1 flips H and can land on a2, earning an extra move.
EXTRA_MOVE_SEED = bytes(32)


def knot_after(*choices: str) -> State:
    """A three-seat Celtic Knot game of ``EXTRA_MOVE_SEED`` after ``choices``."""
    state = KNOT.new_state(3, chance=SeededChance(EXTRA_MOVE_SEED))
    for choice in choices:
        state.play(choice)
    return state


def test_a_kind_whose_reply_is_a_whole_move_says_nothing_more() -> None:
    state = COUNTING.new_state(3)
    before = COUNTING.replay(3, state.steps)
    state.play(state.legal_choices()[0])
    assert COUNTING.pending_chance(state) == ""
    assert COUNTING.pending_choice_line(state) == ""
    assert COUNTING.choice_prompt(state) == ""
    assert COUNTING.choice_report(before, state, 1) == []
    assert COUNTING.rule_explanation("anything") == ""
    assert COUNTING.result_words(state) == ""
    assert COUNTING.turn_number(state) is None
    assert COUNTING.holdings(state, viewer_seat=1, player_name=str) == ("", [])
    assert COUNTING.final_summary(state) == {}


def test_knot_asks_for_a_square_then_for_a_destination_after_the_flips() -> None:
    start = knot_after()
    assert KNOT.choice_prompt(start) == "reply with the square you move from, e.g. a1"
    assert (KNOT.pending_chance(start), KNOT.pending_choice_line(start)) == ("", "")
    flipped = knot_after("a1")
    assert KNOT.pending_chance(flipped) == "H"
    assert KNOT.choice_prompt(flipped) == "reply with your destination: a2, b1"
    line = "You flipped H: 1. Reply with your destination: a2, b1."
    assert KNOT.pending_choice_line(flipped) == line
    assert KNOT.choice_report(start, flipped, 1) == [line]


def test_knot_reports_a_landing_and_the_extra_move_it_earns_with_its_flips() -> None:
    flipped, landed = knot_after("a1"), knot_after("a1", "a2")
    assert KNOT.pending_chance(landed) == "HT"
    assert KNOT.choice_report(flipped, landed, 1) == [
        "Your stack on a1 moved to a2.",
        "The landing earns an extra move, the stack on a2 moves again.",
        "You flipped H T: 3. Reply with your destination: c1, c3.",
    ]
    moved = knot_after("a1", "a2", "c1")
    assert moved.to_act == 2
    assert KNOT.choice_report(landed, moved, 1) == ["Your stack on a2 moved to c1."]
    assert KNOT.choice_report(landed, moved, 2) == []  # seat 2 chose nothing yet
    assert KNOT.pending_choice_line(moved) == ""


def test_knot_explains_no_rule_and_says_no_more_than_its_result() -> None:
    assert KNOT.rule_explanation("Route") == ""
    assert KNOT.result_words(knot_after()) == ""


def test_celtic_explains_its_rules_by_their_names_only() -> None:
    assert CELTIC.rule_explanation("occupied") == Rule.OCCUPIED.explanation
    assert CELTIC.rule_explanation("window") == Rule.WINDOW.explanation
    assert CELTIC.rule_explanation("Route") == ""
    assert CELTIC.rule_explanation("") == ""


def test_celtic_says_a_board_result_with_its_knots_and_scores() -> None:
    state = CELTIC.new_state(2)
    assert CELTIC.result_words(state) == ""  # not over
    rng = random.Random(1)
    while not state.is_over():
        state.play(rng.choice(state.legal_choices()))
    order = state.finishing_order()
    assert order is not None
    words = CELTIC.result_words(state)
    assert words.startswith(f"{CELTIC.result_text(order)} (")
    assert "knots" in words and "Orange [" in words and "Blue [" in words


def test_celtic_lists_the_viewers_tiles_first_then_the_opponents_then_the_neutral() -> None:
    state = CELTIC.new_state(2)
    state.play("d5 E")  # Orange places a U tile
    assert CELTIC.holdings(state, viewer_seat=2, player_name=_no_names) == (
        "Tiles left",
        [
            Holding("You (Blue)", 10, "X2 T2 I2 L2 U2"),
            Holding("Opponent (Orange)", 9, "X2 T2 I2 L2 U1"),
            Holding("Neutral", 4, "T1 I1 L1 U1"),  # no neutral X: a shape none of is left out
        ],
    )
    _, watched = CELTIC.holdings(state, viewer_seat=None, player_name=_no_names)
    assert [line.name for line in watched] == ["Opponent (Orange)", "Opponent (Blue)", "Neutral"]
    assert CELTIC.turn_number(state) is None  # a Celtic! turn is one step


def test_knot_lists_every_seats_coins_in_seat_order_naming_the_players() -> None:
    state = knot_after("a1", "a2")
    state.leave(3, Departure.RESIGN)
    title, lines = KNOT.holdings(state, viewer_seat=2, player_name=lambda seat: f"player{seat}")
    assert title == "Coins left"
    assert [line.name for line in lines] == ["1 Red, player1", "2 Blue, you", "3 Green, player3"]
    assert [line.detail for line in lines] == ["", "", "left the game"]
    assert all(isinstance(line, Holding) and line.count >= 0 for line in lines)
    assert KNOT.turn_number(state) == 1  # seat 1's turn, its extra move included, goes on
    assert KNOT.turn_number(knot_after("a1", "a2", "c1")) == 2


def test_celtic_sums_up_a_final_board_by_its_knots_and_both_score_lists() -> None:
    state = CELTIC.new_state(2)
    assert CELTIC.final_summary(state) == {
        "knots": [],
        "orange_scores": "none",  # no knot, no score
        "blue_scores": "none",
    }
    rng = random.Random(1)
    while not state.is_over():
        state.play(rng.choice(state.legal_choices()))
    data = CELTIC.position_data(state)
    knots, scores = data["knots"], data["scores"]
    assert isinstance(knots, list) and knots, "pick a seed whose game closes a knot"
    assert isinstance(scores, dict)
    assert CELTIC.final_summary(state) == {
        "knots": [
            {"size": len(knot["cells"]), "orange": knot["orange"], "blue": knot["blue"]}
            for knot in knots
        ],
        "orange_scores": ", ".join(map(str, scores["orange"])),
        "blue_scores": ", ".join(map(str, scores["blue"])),
    }


def test_knot_sums_up_each_seats_coins_and_distance_and_who_left() -> None:
    assert KNOT.final_summary(knot_after()) == {}  # before any move: nothing to tell
    assert KNOT.final_summary(knot_after("a1")) == {
        "seats": [
            {"name": name, "coins": 6, "distance": 54, "left": False}  # a coin on each X and O
            for name in ("Red", "Blue", "Green")
        ]
    }
    state = knot_after("a1", "a2", "c1")  # Red's stack went on, closer to the exit
    state.leave(3, Departure.RESIGN)
    seats = KNOT.final_summary(state)["seats"]
    assert isinstance(seats, list)
    red, blue, green = seats
    assert red["distance"] < blue["distance"] == 54 and red["coins"] == blue["coins"] == 6
    assert (red["left"], blue["left"], green["left"]) == (False, False, True)
    assert green["coins"] == 0  # a seat that leaves takes its coins off the board


def _no_names(seat: int) -> str:
    raise AssertionError(f"Celtic! names no player, yet seat {seat}'s name was asked for.")
