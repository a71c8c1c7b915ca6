"""The game state: setup, turn order, automatic passes, end, clone, replay."""

from __future__ import annotations

import pytest

from games.kinds.celtic import (
    START_CELL,
    Cell,
    Colour,
    Forfeit,
    GameState,
    IllegalMoveError,
    Move,
    NotationError,
    Pass,
    Rule,
    Shape,
    Tile,
    Variant,
    orientation,
)


def test_setup() -> None:
    state = GameState.new()
    assert state.to_move is Colour.ORANGE
    assert state.ply == 0
    assert state.history == ()
    assert not state.is_over()
    assert state.tiles == (Tile(START_CELL, orientation(15), Colour.NEUTRAL),)
    assert state.supply(Colour.ORANGE) == dict.fromkeys(Shape, 2)
    assert state.supply(Colour.BLUE) == dict.fromkeys(Shape, 2)
    assert state.supply(Colour.NEUTRAL) == {
        Shape.CROSS: 0,
        Shape.TEE: 1,
        Shape.STRAIGHT: 1,
        Shape.BEND: 1,
        Shape.CAP: 1,
    }
    assert [str(c) for c in state.demand_cells()] == ["d5", "e4", "e6", "f5"]
    assert state.variant == Variant()


def test_start_moves() -> None:
    moves = GameState.new().legal_moves()
    # Four demand cells; each takes the 8 masks opening towards e5, own or neutral, but
    # the neutral cross is on the board already: 4 * (8 + 7).
    assert len(moves) == 60
    assert moves == sorted(moves)
    assert [str(m) for m in moves[:4]] == ["d5 E", "d5 E n", "d5 NE", "d5 NE n"]
    assert len(set(moves)) == 60


def test_turns_alternate_and_tiles_take_the_movers_colour() -> None:
    state = GameState.replay(["f5 NW", "e6 S n"])
    assert state.to_move is Colour.ORANGE
    assert state.tile_at(Cell.parse("f5")) == Tile(Cell.parse("f5"), orientation(9), Colour.ORANGE)
    e6 = state.tile_at(Cell.parse("e6"))
    assert e6 is not None
    assert e6.colour is Colour.NEUTRAL
    assert state.supply(Colour.ORANGE)[Shape.BEND] == 1
    assert state.supply(Colour.NEUTRAL)[Shape.CAP] == 0
    assert state.tile_at(Cell.parse("a1")) is None
    assert state.tile_at(Cell(-1, 0)) is None
    state.apply("d5 E")
    assert state.tile_at(Cell.parse("d5")).colour is Colour.ORANGE  # type: ignore[union-attr]


def test_legal_moves_for_the_other_player() -> None:
    state = GameState.replay(["d5 E", "f5 W", "e4 N"])  # Orange has used both caps
    assert Move.parse("e6 S") in state.legal_moves(Colour.BLUE)
    assert Move.parse("e6 S") not in state.legal_moves(Colour.ORANGE)
    assert Move.parse("e6 S n") in state.legal_moves(Colour.ORANGE)
    assert state.legal_moves(Colour.BLUE) == state.legal_moves()


PASS_GAME = ["e4 NE", "f5 NSW n", "d5 NE", "f4 NSW", "f3 NS", "d6 ES n", "f6 S", "f2 N n"]
"""After these, the only demand cell is e6: it must open S and W, keep E closed (f6 is a cap)
and keep N closed (rows 2..6 are five already), so only a bend fits, and Orange has none."""


def test_a_player_without_moves_passes_automatically() -> None:
    state = GameState.replay(PASS_GAME[:-1])
    assert state.to_move is Colour.BLUE
    turns = state.apply(PASS_GAME[-1])
    assert turns == (Move.parse("f2 N n"), Pass(Colour.ORANGE))
    assert state.history[-2:] == turns
    assert state.ply == 9
    assert state.to_move is Colour.BLUE
    assert [str(c) for c in state.demand_cells()] == ["e6"]
    assert state.legal_moves(Colour.ORANGE) == []
    assert [str(m) for m in state.legal_moves()] == ["e6 SW"]
    assert not state.is_over()


def test_the_game_ends_when_neither_player_can_move() -> None:
    state = GameState.replay(PASS_GAME)
    turns = state.apply("e6 SW")
    assert turns == (Move.parse("e6 SW"),)  # no pass is recorded once the game is over
    assert state.is_over()
    assert state.to_move is None
    assert state.demand_cells() == ()
    assert state.ply == 10
    assert GameState.replay(state.history) == state


def test_replay_insists_on_the_recorded_passes() -> None:
    # A history may stop right before an automatic pass; the replay records it.
    prefix = GameState.replay(PASS_GAME)
    assert prefix.ply == len(PASS_GAME) + 1
    assert prefix.history[-1] == Pass(Colour.ORANGE)
    with pytest.raises(IllegalMoveError) as caught:
        GameState.replay([*PASS_GAME, "e6 SW"])
    assert caught.value.rule is Rule.PASS_MISSING
    assert "Orange has no legal move here" in str(caught.value)
    assert GameState.replay([*PASS_GAME, "pass", "e6 SW"]).is_over()


def test_replay_rebuilds_the_same_state() -> None:
    state = GameState.replay(["f5 EW", "g5 EW", "d5 E", "e6 S"])
    again = GameState.replay(state.history)
    assert again == state
    assert again.tiles == state.tiles
    assert again.legal_moves() == state.legal_moves()
    assert GameState.replay([str(t) for t in state.history]) == state


def test_replay_names_the_first_bad_move() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        GameState.replay(["f5 EW", "g5 EW", "d5 E", "c5 E"])
    assert caught.value.rule is Rule.NOT_DEMAND
    assert str(caught.value).startswith("move 2 (Blue) c5 E: c5 is not a demand cell")
    with pytest.raises(NotationError, match=r"move 1 \(Blue\) f5 XX: 'f5 XX' is not a move"):
        GameState.replay(["e4 N", "f5 XX"])


def test_replay_rejects_a_pass_that_was_not_forced() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        GameState.replay(["f5 EW", "pass"])
    assert caught.value.rule is Rule.PASS_NOT_FORCED
    assert "move 1 (Blue) pass: Blue has" in str(caught.value)


def test_replay_rejects_a_pass_for_the_wrong_player() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        GameState.replay([Move.parse("f5 EW"), Pass(Colour.ORANGE)])
    assert caught.value.rule is Rule.WRONG_PLAYER


def test_replay_checks_forfeits() -> None:
    window = Variant(window_forfeit=True)
    history = ["f5 EW", "g5 EW", "forfeit h5 EW", "h5 W"]
    state = GameState.replay(history, window)
    assert state.history[2] == Forfeit(Colour.ORANGE, Move.parse("h5 EW"))
    assert state.to_move is Colour.ORANGE
    with pytest.raises(IllegalMoveError) as caught:
        GameState.replay(["f5 EW", "g5 EW", "forfeit h5 W"], window)
    assert caught.value.rule is Rule.NOT_A_FORFEIT
    with pytest.raises(IllegalMoveError) as caught:
        GameState.replay(["f5 EW", "g5 EW", "h5 EW"], window)
    assert caught.value.rule is Rule.WINDOW
    assert "recorded as 'forfeit h5 EW'" in str(caught.value)
    with pytest.raises(IllegalMoveError) as caught:
        GameState.replay(history)  # the standard variant has no forfeits
    assert caught.value.rule is Rule.WINDOW
    with pytest.raises(IllegalMoveError) as caught:
        GameState.replay(["f5 EW", "g5 EW", "forfeit h5 N"], window)
    assert caught.value.rule is Rule.MISMATCH


def test_replay_after_the_end() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        GameState.replay(["d5 E", "f5 W", "e4 N", "e6 S", "pass"])
    assert caught.value.rule is Rule.GAME_OVER


def test_clone_is_independent() -> None:
    state = GameState.replay(["f5 EW"])
    copy = state.clone()
    copy.apply("g5 EW")
    assert state.ply == 1
    assert state.tile_at(Cell.parse("g5")) is None
    assert copy.tile_at(Cell.parse("g5")) is not None
    assert state.legal_moves() != copy.legal_moves()
    assert state == GameState.replay(state.history)


def test_variant_names() -> None:
    assert Variant().name == "standard"
    assert Variant(window_forfeit=True).name == "window-forfeit"
    assert Variant.from_name("Window_Forfeit") == Variant(window_forfeit=True)
    with pytest.raises(NotationError, match="expected 'standard' or 'window-forfeit'"):
        Variant.from_name("blitz")


def test_repr() -> None:
    assert repr(GameState.new()) == "<GameState standard ply=0 orange to move>"
