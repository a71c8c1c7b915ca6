"""Hand-built positions for each rule, with the rule reported and the words of the message."""

from __future__ import annotations

import pytest

from games.kinds.celtic import (
    Cell,
    Colour,
    Forfeit,
    GameState,
    IllegalMoveError,
    Move,
    Rule,
    Shape,
    Variant,
)


def rejected(state: GameState, move: str | Move) -> IllegalMoveError:
    """Apply an illegal move; check it raised and left the state exactly as it was."""
    before = state.clone()
    legal = state.legal_moves()
    with pytest.raises(IllegalMoveError) as caught:
        state.apply(move)
    assert state == before
    assert state.tiles == before.tiles
    assert state.legal_moves() == legal
    assert all(state.supply(c) == before.supply(c) for c in Colour)
    assert state.demand_cells() == before.demand_cells()
    assert isinstance(caught.value, ValueError)
    return caught.value


def test_occupied() -> None:
    error = rejected(GameState.new(), "e5 N")
    assert error.rule is Rule.OCCUPIED
    assert str(error) == "e5 N: e5 already holds a tile"


def test_off_board() -> None:
    error = rejected(GameState.new(), Move(Cell(9, 4), 0b1000))
    assert error.rule is Rule.OFF_BOARD
    assert "off the board" in str(error)


def test_not_a_demand_cell() -> None:
    error = rejected(GameState.new(), "c5 E")
    assert error.rule is Rule.NOT_DEMAND
    assert str(error) == "c5 E: c5 is not a demand cell (no open side of the design points at it)"
    # Diagonal to the design is not enough either.
    assert rejected(GameState.new(), "d6 ES").rule is Rule.NOT_DEMAND


def test_neutral_cross_is_not_in_the_supply() -> None:
    error = rejected(GameState.new(), "d5 NESW n")
    assert error.rule is Rule.NOT_IN_SUPPLY
    assert str(error) == "d5 NESW n: no neutral cross (X) is left in the supply"


def test_own_shape_exhausted() -> None:
    state = GameState.replay(["d5 E", "f5 W", "e4 N", "e6 NS"])  # Orange has played both caps
    assert state.supply(Colour.ORANGE)[Shape.CAP] == 0
    assert state.to_move is Colour.ORANGE
    error = rejected(state, "e7 S")
    assert error.rule is Rule.NOT_IN_SUPPLY
    assert "no orange cap (U) is left" in str(error)
    state.apply("e7 S n")  # the neutral cap is still there
    assert state.supply(Colour.NEUTRAL)[Shape.CAP] == 0


def test_open_neighbour_side_against_closed_side() -> None:
    error = rejected(GameState.new(), "d5 N")
    assert error.rule is Rule.MISMATCH
    assert str(error) == "d5 N: e5's west side is open but this tile's east side is closed"


def test_closed_neighbour_side_against_open_side() -> None:
    # d5 bends north and east, so d6 is a demand cell; e6 is a cap open only to the south.
    state = GameState.replay(["d5 NE", "e6 S"])
    error = rejected(state, "d6 ES")
    assert error.rule is Rule.MISMATCH
    assert "e6's west side is closed but this tile's east side is open" in str(error)
    state.apply("d6 S")


def test_window_rule() -> None:
    # d..h is five columns; a straight on h5 would open onto i5, a sixth column.
    state = GameState.replay(["f5 EW", "g5 EW"])
    assert (state.extent()[0].file, state.extent()[1].file) == (3, 7)
    error = rejected(state, "h5 EW")
    assert error.rule is Rule.WINDOW
    assert "would span 6 columns" in str(error)
    assert "5x5 window" in str(error)
    assert Move.parse("h5 EW") not in state.legal_moves()
    assert Move.parse("h5 W") in state.legal_moves()
    state.apply("h5 W")


def test_window_rule_in_both_directions() -> None:
    state = GameState.replay(["f5 EW", "g5 EW", "e6 NS", "e7 NS"])  # columns d..h and rows 4..8
    assert rejected(state, "h5 EW n").rule is Rule.WINDOW
    error = rejected(state, "e8 NS n")
    assert error.rule is Rule.WINDOW
    assert "would span 6 rows;" in str(error)
    error = rejected(state, "h5 NEW")
    assert "would span 6 columns;" in str(error)
    state.apply("e8 S")


def test_window_forfeit_variant_records_a_forfeit() -> None:
    state = GameState.replay(["f5 EW", "g5 EW"], Variant(window_forfeit=True))
    supply = state.supply(Colour.ORANGE)
    turns = state.apply("h5 EW")
    assert turns == (Forfeit(Colour.ORANGE, Move.parse("h5 EW")),)
    assert state.tile_at(Cell.parse("h5")) is None
    assert state.supply(Colour.ORANGE) == supply
    assert state.to_move is Colour.BLUE
    assert state.history[-1] == turns[0]
    assert state.ply == 3


def test_window_forfeit_variant_still_rejects_rules_1_to_3() -> None:
    state = GameState.replay(["f5 EW", "g5 EW"], Variant(window_forfeit=True))
    assert rejected(state, "h5 N").rule is Rule.MISMATCH
    assert rejected(state, "h6 S").rule is Rule.NOT_DEMAND
    assert rejected(state, "e5 N").rule is Rule.OCCUPIED


def test_game_over() -> None:
    state = GameState.replay(["d5 E", "f5 W", "e4 N", "e6 S"])
    assert state.is_over()
    assert state.to_move is None
    assert state.legal_moves() == []
    assert state.legal_moves(Colour.BLUE) == []
    error = rejected(state, "d4 N")
    assert error.rule is Rule.GAME_OVER
    assert "the game is over" in str(error)


def test_rule_order_supply_before_occupied() -> None:
    # Both wrong: rule 1 is reported first.
    assert rejected(GameState.new(), "e5 NESW n").rule is Rule.NOT_IN_SUPPLY


def test_apply_parses_text() -> None:
    state = GameState.new()
    assert state.apply(" F5  wn ") == (Move.parse("f5 NW"),)
