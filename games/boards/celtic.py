"""Celtic!'s own board on the game page and the analysis board: playable demand cells, the
tile pickers of the click-to-play script, the supply of tiles and the closed knots."""

from __future__ import annotations

from typing import Any

from games.boards.base import AnalysisRequest, BoardRequest, KindPages
from games.kinds.base import State
from games.kinds.celtic import GameState
from games.kinds.celtic import Move as EngineMove
from games.kinds.celtic.kind import COLOUR_OF, CelticState, position_data
from games.kinds.celtic.render import last_placed
from games.kinds.celtic.svg import board_svg, knot_strand_colours, shape_icon_svg, tile_icon_svg

SCORE_TITLE = "Knot scores, highest first"
NO_MOVES = "No moves yet: the neutral cross lies on e5 and Orange begins."


def game_board(request: BoardRequest) -> dict[str, Any]:
    """The board with the viewer's playable cells, the knots, the supply and the scores."""
    engine = _engine(request.state)
    game = request.game
    data = position_data(engine)
    legal = engine.legal_moves() if request.can_move else []
    last = last_placed(engine)
    knots = engine.result().knots
    board = board_svg(
        tiles=data["tiles"],  # type: ignore[arg-type]
        # An ended game has no open cells to play: its final design is drawn without them.
        demand_cells=data["demand_cells"] if game.is_active or request.replaying else [],  # type: ignore[arg-type]
        playable_cells={str(move.cell) for move in legal},
        knot_colours=knot_strand_colours(knots),
        last_cell=str(last) if last else None,
        title=f"Game {game.pk}, the design after {engine.ply} turns",
    )
    own = COLOUR_OF[request.viewer_seat].value if request.viewer_seat else None
    scores: dict[str, list[int]] = data["scores"]  # type: ignore[assignment]
    return {
        "board": board,
        "position": data,
        "knots": data["knots"],
        "supply": supply_rows(data["supply"]),  # type: ignore[arg-type]
        "legal_json": legal_moves_json(legal, own=own) if legal else None,
        "seat_scores": {
            seat: " · ".join(str(score) for score in scores[COLOUR_OF[seat].value]) or "—"
            for seat in COLOUR_OF
        },
        "score_title": SCORE_TITLE,
        "no_moves_text": NO_MOVES,
    }


def analysis_board(request: AnalysisRequest) -> dict[str, Any]:
    """The position tried, with the tile pickers for the colour to move."""
    engine = _engine(request.state)
    data = position_data(engine)
    legal = [] if engine.is_over() else engine.legal_moves()
    to_move = engine.to_move.value if engine.to_move else None
    board = board_svg(
        tiles=data["tiles"],  # type: ignore[arg-type]
        demand_cells=data["demand_cells"],  # type: ignore[arg-type]
        playable_cells={str(move.cell) for move in legal},
        knot_colours=knot_strand_colours(engine.result().knots),
        last_cell=None,
        title=f"Analysis of game {request.game.pk}: the design after {engine.ply} turns",
    )
    return {
        "board": board,
        "position": data,
        "supply": supply_rows(data["supply"]),  # type: ignore[arg-type]
        "to_move": to_move,
        "legal": [
            {"notation": str(m), "url": request.line_url([*request.line, str(m)])} for m in legal
        ],
        "legal_json": legal_moves_json(legal, own=to_move) if legal else None,
    }


def supply_rows(supply: dict[str, dict[str, int]]) -> list[dict[str, Any]]:
    """Per colour, each shape with how many are left and a small picture of it."""
    return [
        {
            "colour": colour,
            "total": sum(counts.values()),
            "shapes": [
                {"letter": letter, "count": count, "icon": shape_icon_svg(letter, colour)}
                for letter, count in counts.items()
            ],
        }
        for colour, counts in supply.items()
    ]


def legal_moves_json(legal: list[EngineMove], *, own: str | None) -> dict[str, Any]:
    """The legal moves for the click-to-play script, with one tile picture per kind."""
    icons: dict[str, str] = {}
    moves = []
    for move in legal:
        colour = "neutral" if move.neutral else str(own)
        key = f"{move.mask}-{colour}"
        if key not in icons:
            icons[key] = tile_icon_svg(move.mask, colour, size=56)
        moves.append(
            {
                "cell": str(move.cell),
                "notation": str(move),
                "icon": key,
                "label": f"{move} ({'neutral ' if move.neutral else ''}{move.shape.name.lower()})",
            }
        )
    return {"moves": moves, "icons": icons}


def _engine(state: State) -> GameState:
    if not isinstance(state, CelticState):
        raise TypeError(f"Not a Celtic! position: {state!r}.")
    return state.engine


PAGES = KindPages(
    board_template="games/kinds/celtic/board.html",
    side_template="games/kinds/celtic/side.html",
    analysis_board_template="games/kinds/celtic/analysis_board.html",
    analysis_side_template="games/kinds/celtic/analysis_side.html",
    game_board=game_board,
    analysis_board=analysis_board,
    finished_email_template="games/kinds/celtic/finished_email",
)
"""Celtic!'s pages."""
