"""The Celtic! rules engine: pure Python, no Django.

The public API the rest of the project codes against::

    state = GameState.new()
    state.legal_moves()                    # [Move.parse('d5 E'), ...]
    state.apply(Move.parse("f5 NW"))       # -> (Move.parse('f5 NW'),) plus any automatic Pass
    state.is_over(), state.result().text   # "1-0" / "0-1" / "1/2-1/2"
    GameState.replay(state.history)        # the history is the serialization
    GameRecord.from_state(state, headers={"Orange": "alice", "Blue": "bob"}).to_text()
"""

from games.kinds.celtic.board import ALL_CELLS, START_CELL, WINDOW_SIZE, Cell, Tile
from games.kinds.celtic.errors import IllegalMoveError, NotationError, Rule
from games.kinds.celtic.notation import Forfeit, Move, Pass, Turn, parse_turn
from games.kinds.celtic.record import GameRecord, RecordError
from games.kinds.celtic.scoring import Knot, OpenPath, Result, Score, Step, result_of, trace_paths
from games.kinds.celtic.state import GameState, Variant, random_playout
from games.kinds.celtic.tiles import (
    ORIENTATIONS,
    PLAYERS,
    SHAPE_TABLE,
    Colour,
    End,
    Orientation,
    Shape,
    Side,
    orientation,
)

__all__ = [
    "ALL_CELLS",
    "ORIENTATIONS",
    "PLAYERS",
    "SHAPE_TABLE",
    "START_CELL",
    "WINDOW_SIZE",
    "Cell",
    "Colour",
    "End",
    "Forfeit",
    "GameRecord",
    "GameState",
    "IllegalMoveError",
    "Knot",
    "Move",
    "NotationError",
    "OpenPath",
    "Orientation",
    "Pass",
    "RecordError",
    "Result",
    "Rule",
    "Score",
    "Shape",
    "Side",
    "Step",
    "Tile",
    "Turn",
    "Variant",
    "orientation",
    "parse_turn",
    "random_playout",
    "result_of",
    "trace_paths",
]
