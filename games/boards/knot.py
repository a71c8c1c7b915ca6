"""Celtic Knot's own board on the game page and the analysis board: the kind's SVG with a
button (or, on the analysis board, a link) over each square the player may choose now: the
squares holding their coins, or after the flips the destinations; the flips in words; each
seat's coins left, distance and finishing place; the fair-flips panel (commitment and seed).

The buttons are plain HTML laid over the drawing, so the page works without JavaScript."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.boards.base import AnalysisRequest, BoardRequest, KindPages
from games.kinds.base import State
from games.kinds.knot.board import NAMES, SIZE, marker_square, parse_space
from games.kinds.knot.core import Phase
from games.kinds.knot.notation import flips_sum
from games.kinds.knot.render import CELL, MARGIN
from games.kinds.knot.state import KnotState
from games.models import Game

SCORE_TITLE = "Coins left on the board · their total distance to the exit"
NO_MOVES = "No moves yet: every seat has a coin on each X and O, and Red begins."
SIDE = 2 * MARGIN + SIZE * CELL
"""The side of the kind's SVG, in its own units."""


@dataclass(frozen=True)
class Spot:
    """A square of the board a choice names: where it sits over the drawing (percentages of
    the board's side), the choice, and what it is ("square", "destination", "stack")."""

    choice: str
    role: str
    label: str
    left: float
    top: float

    @property
    def style(self) -> str:
        size = 100 * CELL / SIDE
        return f"left:{self.left:.3f}%;top:{self.top:.3f}%;width:{size:.3f}%;height:{size:.3f}%"


def spot(choice: str, *, role: str, label: str) -> Spot:
    """The spot of the space named ``choice`` (a lower space sits on its marker square)."""
    file, rank = marker_square(parse_space(choice))
    return Spot(
        choice=choice,
        role=role,
        label=label,
        left=100 * (MARGIN + file * CELL) / SIDE,
        top=100 * (MARGIN + (SIZE - 1 - rank) * CELL) / SIDE,
    )


def game_board(request: BoardRequest) -> dict[str, Any]:
    """The board with the viewer's choices as buttons, the flips, and each seat's standing."""
    game, state = request.game, knot_state(request.state)
    mover = state.to_act
    you = request.viewer_seat is not None and request.viewer_seat == mover
    who = "You" if you else (game.seat_name(mover) if mover else "")
    return {
        "board": game.game_kind.svg(state, viewer_seat=request.viewer_seat),
        "spots": board_spots(state, clickable=request.can_move),
        "choices": request.legal,
        "choice_role": choice_role(state),
        "flips_text": flips_words(state, who=who),
        "seat_scores": seat_standing(game, state),
        "score_title": SCORE_TITLE,
        "no_moves_text": NO_MOVES,
        **fair_flips(game),
    }


def analysis_board(request: AnalysisRequest) -> dict[str, Any]:
    """The position tried, its choices as links over the board and in the side panel."""
    game, state = request.game, knot_state(request.state)
    mover = state.to_act
    spots = board_spots(state, clickable=True)  # anyone may try either side's choices
    return {
        "board": game.game_kind.svg(state),
        "spots": [
            {
                "spot": one,
                "url": None
                if one.role == "stack"
                else request.line_url([*request.line, one.choice]),
            }
            for one in spots
        ],
        "legal": [
            {"notation": choice, "url": request.line_url([*request.line, choice])}
            for choice in request.legal
        ],
        "choice_role": choice_role(state),
        "flips_text": flips_words(state, who=game.seat_name(mover) if mover else ""),
        "to_move_name": None if mover is None else game.seat_name(mover),
        "standing": [
            {"name": game.seat_name(seat), "css": game.seat_name(seat).lower(), "text": text}
            for seat, text in seat_standing(game, state).items()
        ],
    }


def board_spots(state: KnotState, *, clickable: bool) -> list[Spot]:
    """The flipped stack (when there is one) and the squares to choose from now: those
    holding the mover's coins, or the destinations after the flips. Without ``clickable``
    only the flipped stack and its destinations are marked, for everyone to see."""
    core = state.core
    spots = []
    if core.phase == Phase.ROUTE:
        here = NAMES[core.space]
        spots.append(spot(here, role="stack", label=f"The flipped stack on {here}"))
        spots += [
            spot(dest, role="destination", label=f"Move the stack to {dest}")
            for dest in state.legal_choices()
        ]
    elif clickable and core.phase in (Phase.SQUARE, Phase.EXTRA):
        mine = core.own[core.seat]
        spots += [
            spot(
                name, role="square", label=f"Flip your {_coins(mine[parse_space(name)])} on {name}"
            )
            for name in state.legal_choices()
        ]
    return spots


def choice_role(state: KnotState) -> str:
    """What the choices are now, in a sentence above them."""
    if state.core.phase == Phase.ROUTE:
        return "Choose a highlighted destination."
    return "Choose a square holding your coins: every coin of yours there is flipped."


def flips_words(state: KnotState, *, who: str) -> str:
    """``You flipped H T: 3, the stack on a1.`` while a destination is to be chosen, else
    empty; in an extra move it says so."""
    core = state.core
    if core.phase != Phase.ROUTE:
        return ""
    flips = state.pending_flips
    extra = " (an extra move)" if len(core.visited) > 1 else ""
    where = NAMES[core.space]
    return f"{who} flipped {' '.join(flips)}: {flips_sum(flips)}, the stack on {where}{extra}."


def seat_standing(game: Game, state: KnotState) -> dict[int, str]:
    """Per seat: its finishing place once the game is over, its coins left and their total
    distance to the exit while it plays."""
    core = state.core
    places = {} if game.is_active else {seat.seat: seat.place for seat in game.seat_list}
    standing = {}
    for index in range(core.seat_count):
        seat = index + 1
        place = places.get(seat)
        parts = [ordinal(place)] if place else []
        if core.playing[index]:
            parts.append(f"{_coins(core.coins[index])} · {core.distance(index)} to go")
        standing[seat] = " · ".join(parts) or "—"
    return standing


def fair_flips(game: Game) -> dict[str, str | None]:
    """The seed's commitment, public from the start; the seed only once the game is over."""
    return {
        "flip_commit": game.chance_commitment,
        "flip_seed": None if game.is_active else game.chance_seed,
    }


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th, ... (places go up to six)."""
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place, 'th') }"


def knot_state(state: State) -> KnotState:
    if not isinstance(state, KnotState):
        raise TypeError(f"Not a Celtic Knot position: {state!r}.")
    return state


def _coins(count: int) -> str:
    return f"{count} coin{'' if count == 1 else 's'}"


PAGES = KindPages(
    board_template="games/kinds/knot/board.html",
    side_template="games/kinds/knot/side.html",
    analysis_board_template="games/kinds/knot/analysis_board.html",
    analysis_side_template="games/kinds/knot/analysis_side.html",
    game_board=game_board,
    analysis_board=analysis_board,
    move_list_template="games/kinds/knot/_move_list.html",
    counts_turns=True,
    rules_url="learn:knot_rules",
    finished_email_template="games/kinds/knot/finished_email",
)
"""Celtic Knot's pages."""
