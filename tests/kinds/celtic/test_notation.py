"""Move and turn notation: round trips, tolerance, and every error."""

from __future__ import annotations

import pytest

from games.kinds.celtic import (
    ALL_CELLS,
    Cell,
    Colour,
    Forfeit,
    Move,
    NotationError,
    Pass,
    parse_turn,
)

ALL_MOVES = [
    Move(cell, mask, neutral)
    for cell in ALL_CELLS
    for mask in range(1, 16)
    for neutral in (False, True)
]


def test_canonical_text_and_repr() -> None:
    bend = Move(Cell.parse("f5"), 0b0011)
    assert str(bend) == "f5 NE"
    assert repr(bend) == "Move.parse('f5 NE')"
    cross = Move(Cell.parse("d5"), 0b1111, neutral=True)
    assert str(cross) == "d5 NESW n"
    assert repr(cross) == "Move.parse('d5 NESW n')"


def test_every_move_round_trips() -> None:
    for move in ALL_MOVES:
        assert Move.parse(str(move)) == move
        assert eval(repr(move)) == move


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("f5 NE", "f5 NE"),
        ("F5 ne", "f5 NE"),
        ("f5 EN", "f5 NE"),
        ("  f5    en  ", "f5 NE"),
        ("d5 wsen N", "d5 NESW n"),
        ("d5 SWNE n", "d5 NESW n"),
        ("d5 NESW neutral", "d5 NESW n"),
        ("\tg3\nS ", "g3 S"),
        ("e4 n", "e4 N"),  # one word after the cell: the sides (a cap open to the north)
        ("e4 n n", "e4 N n"),
    ],
)
def test_tolerant_parsing(text: str, expected: str) -> None:
    assert str(Move.parse(text)) == expected


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "empty move"),
        ("   ", "empty move"),
        ("f5", "it has no open sides"),
        ("j5 NE", "'j5' is not a cell"),
        ("f0 NE", "'f0' is not a cell"),
        ("f10 NE", "'f10' is not a cell"),
        ("NE f5", "'NE' is not a cell"),
        ("f5 NN", "the side N appears twice"),
        ("f5 NESWN", "the side N appears twice"),
        ("f5 NX", "'X' in 'NX' is not a side"),
        ("f5 N E", "unexpected 'E' after the sides 'N'"),
        ("f5 NE x", "unexpected 'x'"),
        ("f5 NE n n", "unexpected 'n n'"),
        ("pass", "'pass' is not a cell"),
    ],
)
def test_errors_say_what_is_wrong_and_what_is_expected(text: str, problem: str) -> None:
    with pytest.raises(NotationError) as caught:
        Move.parse(text)
    message = str(caught.value)
    assert problem in message
    assert "expected a cell a1-i9, open sides from N E S W, and an optional n" in message
    assert isinstance(caught.value, ValueError)


def test_move_needs_a_real_side_mask() -> None:
    with pytest.raises(ValueError, match=r"1\.\.15"):
        Move(Cell.parse("f5"), 0)
    with pytest.raises(ValueError, match=r"1\.\.15"):
        Move(Cell.parse("f5"), 16)


def test_moves_order_canonically() -> None:
    texts = ["e4 N", "d5 E n", "d5 E", "d5 NE", "a1 N"]
    assert [str(m) for m in sorted(Move.parse(t) for t in texts)] == [
        "a1 N",
        "d5 E",
        "d5 E n",
        "d5 NE",
        "e4 N",
    ]


def test_shape_and_sides_follow_from_the_mask() -> None:
    move = Move.parse("c3 wn")
    assert move.sides_text == "NW"
    assert move.shape.letter == "L"
    assert move.orientation.mask == 0b1001


def test_turns() -> None:
    assert parse_turn("f5 NE", Colour.BLUE) == Move.parse("f5 NE")
    assert parse_turn(" PASS ", Colour.BLUE) == Pass(Colour.BLUE)
    forfeit = parse_turn("forfeit f4 n", Colour.ORANGE)
    assert forfeit == Forfeit(Colour.ORANGE, Move.parse("f4 N"))
    assert str(forfeit) == "forfeit f4 N"
    assert str(Pass(Colour.ORANGE)) == "pass"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "empty turn"),
        ("pass f5", "nothing may follow 'pass'"),
        ("forfeit", "'forfeit' needs the move"),
        ("forfeit f5", "it has no open sides"),
    ],
)
def test_turn_errors(text: str, problem: str) -> None:
    with pytest.raises(NotationError, match=problem):
        parse_turn(text, Colour.ORANGE)
