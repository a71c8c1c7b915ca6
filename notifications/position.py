"""The position a turn email shows: drawn by the worker when it renders the email.

A "your turn" email is queued with the ply it was queued at (``POSITION_PLY`` in its
context); the worker replays the game to that ply and adds what the templates show of the
position, and the board picture the HTML part shows inline. Turns already played never
change, so the email shows the position as it was when queued, however late it is rendered.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.kinds.base import State
from games.kinds.celtic import GameState
from games.kinds.celtic.kind import position_data
from games.kinds.celtic.notation import Forfeit, Move
from games.kinds.celtic.render import last_placed, render_state
from games.kinds.celtic.svg import board_svg, knot_strand_colours
from games.kinds.celtic.tiles import PLAYERS, Colour
from games.models import Game
from games.selectors import game_position

# The Content-ID of the board picture in a turn email's HTML part.
BOARD_CID = "board@celtic"
# The context key that asks the worker to show the game's position after this many turns.
POSITION_PLY = "position_ply"


def position_for_email(
    context: Mapping[str, Any], *, user: Any, board: bool = True
) -> tuple[dict[str, Any], str]:
    """What the templates show of the position ``context`` asks for (``POSITION_PLY`` turns
    into its ``game``), seen by ``user``, and the board's SVG (empty without ``board``: for
    an email that is never sent on its own); nothing when it asks for none."""
    ply = context.get(POSITION_PLY)
    if ply is None:
        return {}, ""
    game = context["game"]
    state = game_position(game=game, ply=ply)
    celtic = getattr(state, "engine", None)  # Celtic!'s own engine state, for its rich email
    if not isinstance(celtic, GameState):
        svg = game.game_kind.svg(state) if board else ""
        return _kind_position_context(game, state=state), svg
    svg = position_svg(game, state=celtic) if board else ""
    return position_context(game, state=celtic, user=user), svg


def _kind_position_context(game: Game, *, state: State) -> dict[str, Any]:
    """What a turn email shows of any kind's position: the kind's text drawing and board."""
    return {"opponent_turns": [], "position": game.game_kind.text(state), "tiles_left": [],
            "board_cid": BOARD_CID}  # fmt: skip


def position_context(game: Game, *, state: GameState, user: Any) -> dict[str, Any]:
    """What a turn email shows of the position: what the opponent just played, the terminal
    board (for the plain text), the tiles each side has left, and ``board_cid`` (the inline
    PNG the HTML part shows, see ``position_svg``)."""
    seat = game.seat_of(user)
    return {
        "opponent_turns": _opponent_turns(state, seat=seat),
        "position": render_state(state),
        "tiles_left": _tiles_left(state, seat=seat),
        "board_cid": BOARD_CID,
    }


def position_svg(game: Game, *, state: GameState) -> str:
    """The board as the game page draws it (without its clickable cells)."""
    data = position_data(state)
    last = last_placed(state)
    return board_svg(
        tiles=data["tiles"],  # type: ignore[arg-type]
        demand_cells=data["demand_cells"],  # type: ignore[arg-type]
        knot_colours=knot_strand_colours(state.result().knots),
        last_cell=str(last) if last else None,
        title=f"Game {game.pk}, the design after {state.ply} turns",
    )


def _seat_of(colour: Colour) -> int:
    """The seat that plays ``colour`` (Orange: 1, Blue: 2)."""
    return PLAYERS.index(colour) + 1


def _opponent_turns(state: GameState, *, seat: int | None) -> list[str]:
    """The turns since ``seat`` last placed a tile, oldest first, e.g. ["Blue played f5 NE"]:
    the opponent's move and any turn passed in between. Empty at the start of the game."""
    turns: list[str] = []
    for index in range(len(state.history) - 1, -1, -1):
        turn = state.history[index]
        colour = PLAYERS[index % 2]
        if _seat_of(colour) == seat and isinstance(turn, Move):
            break
        who = colour.name.title()
        if isinstance(turn, Move):
            turns.append(f"{who} played {turn}")
        elif isinstance(turn, Forfeit):
            turns.append(f"{who} forfeited {turn.move} (it broke the 5x5 window)")
        else:
            turns.append(f"{who} passed (no legal move)")
    return turns[::-1]


def _tiles_left(state: GameState, *, seat: int | None) -> list[dict[str, Any]]:
    """Each supply (the player's first, then the opponent's, then the neutral tiles): its
    name, how many tiles and which shapes, e.g. {"name": "You (Orange)", "count": 12,
    "shapes": "C2 T3 S3 B2 K2"}."""
    order = [*sorted(PLAYERS, key=lambda colour: _seat_of(colour) != seat), Colour.NEUTRAL]
    rows = []
    for colour in order:
        supply = state.supply(colour)
        if colour is Colour.NEUTRAL:
            name = "Neutral"
        else:
            name = f"{'You' if _seat_of(colour) == seat else 'Opponent'} ({colour.name.title()})"
        rows.append(
            {
                "name": name,
                "count": sum(supply.values()),
                "shapes": " ".join(f"{shape.letter}{n}" for shape, n in supply.items() if n),
            }
        )
    return rows
