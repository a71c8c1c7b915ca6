"""What the pages ask of a kind's board: the requests, and the generic drawing any kind gets
(its SVG, its legal choices as buttons), used when the kind has no pages of its own."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.kinds.base import State
from games.models import Game


@dataclass(frozen=True)
class BoardRequest:
    """The game page's board: ``state`` is the position shown (an earlier one when
    ``replaying``); ``can_move``: the viewer is to move in the current position."""

    game: Game
    state: State
    viewer_seat: int | None
    can_move: bool
    replaying: bool

    @property
    def legal(self) -> list[str]:
        """The viewer's legal choices now, none unless they may move."""
        return self.state.legal_choices() if self.can_move else []


@dataclass(frozen=True)
class AnalysisRequest:
    """The analysis board: ``state`` after the ``line`` of choices tried from the game's
    position; ``line_url`` gives the address of another line."""

    game: Game
    state: State
    line: list[str]
    line_url: Callable[[list[str]], str]

    @property
    def legal(self) -> list[str]:
        return [] if self.state.is_over() else self.state.legal_choices()


@dataclass(frozen=True)
class KindPages:
    """How the pages draw one kind: the templates of its board (the game page's board panel,
    the side panel's extra sections, the analysis board) and the builders of their context.

    A game page context may hold ``seat_scores`` (seat: text), ``score_title`` and
    ``no_moves_text``; the page shows them in the players' rows and the move list.
    ``move_list_template`` draws the move list (``move_rows``: the turns in rounds of one per
    seat, each with its number, seat, text and ply); the default numbers the rounds, as
    Celtic!'s record does. ``counts_turns``: a turn may take several steps, so the game
    tables count the turns from the moves rather than show the ply. ``rules_url``: the name
    of the URL of the kind's rules, the game page's "Rules" link. ``finished_email_template``:
    the partials (this name with ``.txt`` and ``.html``) with which the game-finished email
    shows the kind's ``final_summary`` (as ``final_summary``); None to show none."""

    board_template: str
    side_template: str | None
    analysis_board_template: str
    analysis_side_template: str
    game_board: Callable[[BoardRequest], dict[str, Any]]
    analysis_board: Callable[[AnalysisRequest], dict[str, Any]]
    move_list_template: str = "games/_move_list.html"
    counts_turns: bool = False
    rules_url: str = "learn:rules"
    finished_email_template: str | None = None


def generic_game_board(request: BoardRequest) -> dict[str, Any]:
    """The kind's own SVG and, for the player to move, each legal choice as a button."""
    game, state = request.game, request.state
    first = game.seat_name(1)
    return {
        "board": game.game_kind.svg(state, viewer_seat=request.viewer_seat),
        "choices": request.legal,
        "no_moves_text": f"No moves yet: {first} begins.",
    }


def generic_analysis_board(request: AnalysisRequest) -> dict[str, Any]:
    """The kind's SVG of the position tried, and each legal choice as a link that tries it."""
    game, state = request.game, request.state
    return {
        "board": game.game_kind.svg(state),
        "legal": [
            {"notation": choice, "url": request.line_url([*request.line, choice])}
            for choice in request.legal
        ],
        "to_move_name": None if state.to_act is None else game.seat_name(state.to_act),
    }


GENERIC = KindPages(
    board_template="games/kinds/generic/board.html",
    side_template=None,
    analysis_board_template="games/kinds/generic/analysis_board.html",
    analysis_side_template="games/kinds/generic/analysis_side.html",
    game_board=generic_game_board,
    analysis_board=generic_analysis_board,
)
"""The pages of a kind that has none of its own."""
