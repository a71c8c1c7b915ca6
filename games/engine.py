"""The bridge between stored move rows and the rules engine.

A game's position is never stored: it is rebuilt by replaying its ``Move`` rows, which keeps
the move list the single source of truth.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.kinds.celtic import Colour, Forfeit, GameState, Pass, Turn, Variant
from games.kinds.celtic import Move as EngineMove
from games.models import Game, Move


def row_to_turn(row: Move) -> Turn:
    """The engine turn a stored row records."""
    player = Colour(row.side)
    if row.kind == Move.Kind.PASS:
        return Pass(player)
    move = EngineMove.parse(row.notation)
    if row.kind == Move.Kind.FORFEIT:
        return Forfeit(player, move)
    return move


def turn_to_row_fields(turn: Turn, side: str) -> dict[str, str]:
    """The columns of the row that records ``turn``; ``side`` is who played a move.

    Passes and forfeits carry their player; a played move does not (it is the mover's).
    """
    if isinstance(turn, Pass):
        return {"side": turn.player.value, "kind": Move.Kind.PASS, "notation": ""}
    if isinstance(turn, Forfeit):
        return {"side": turn.player.value, "kind": Move.Kind.FORFEIT, "notation": str(turn.move)}
    return {"side": side, "kind": Move.Kind.MOVE, "notation": str(turn)}


def variant_of(game: Game) -> Variant:
    return Variant(window_forfeit=game.window_forfeit)


def replay(rows: Iterable[Move], variant: Variant) -> GameState:
    return GameState.replay([row_to_turn(row) for row in rows], variant=variant)


def game_state(game: Game, *, ply: int | None = None) -> GameState:
    """The position of ``game`` after ``ply`` turns (default: now)."""
    rows = game.moves.order_by("ply")
    if ply is not None:
        rows = rows.filter(ply__lt=ply)
    return replay(rows, variant_of(game))


def position_data(state: GameState) -> dict[str, object]:
    """The position as plain data for the API and the board page."""
    result = state.result()
    return {
        "ply": state.ply,
        "to_move": state.to_move.value if state.to_move else None,
        "is_over": state.is_over(),
        "tiles": [
            {
                "cell": str(tile.cell),
                "sides": tile.orientation.sides_text,
                "shape": tile.shape.letter,
                "colour": tile.colour.value,
            }
            for tile in state.tiles
        ],
        "demand_cells": [str(cell) for cell in state.demand_cells()],
        "supply": {
            colour.value: {shape.letter: count for shape, count in state.supply(colour).items()}
            for colour in Colour
        },
        "knots": [
            {"cells": [str(c) for c in knot.cells], "orange": knot.orange, "blue": knot.blue}
            for knot in result.knots
        ],
        "scores": {"orange": list(result.score.orange), "blue": list(result.score.blue)},
        "board_result": result.text,
    }
