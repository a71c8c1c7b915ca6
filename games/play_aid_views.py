"""The game page's private aids: the analysis board (moves tried from the game's position,
never stored) and a player's notes."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_POST

from celticsite.errors import DomainError, NotFound
from games import selectors, services
from games.boards import AnalysisRequest, kind_pages
from games.kinds.base import State
from games.models import Game
from games.views import _visible_game


def _tried(request: HttpRequest) -> list[str]:
    """The moves tried so far (``line``, separated by commas) and the one just tried."""
    line = [move.strip() for move in request.GET.get("line", "").split(",") if move.strip()]
    tried = request.GET.get("notation", "").strip()
    return [*line, tried] if tried else line


def _line_url(game: Game, line: list[str]) -> str:
    base = reverse("games:game_analysis", args=[game.pk])
    return f"{base}?{urlencode({'line': ','.join(line)})}" if line else base


def game_analysis(request: HttpRequest, game_id: int) -> HttpResponse:
    """A private board from the game's current position: try the kind's legal choices, take
    them back one by one, reset. The moves live in the address only; the game never sees
    them. An illegal try is refused with the rule it breaks and the line kept before it."""
    game = _visible_game(request, game_id)
    line, status = _tried(request), 200
    try:
        state = selectors.analysis_position(game=game, moves=line)
    except DomainError as exc:
        messages.error(request, exc.detail)
        line, status = line[: exc.extra.get("index", 1) - 1], 400
        state = selectors.analysis_position(game=game, moves=line)
    context = _analysis_context(game, state, line)
    return render(request, "games/analysis.html", context, status=status)


def _analysis_context(game: Game, state: State, line: list[str]) -> dict[str, Any]:
    pages = kind_pages(game.kind)
    board = pages.analysis_board(
        AnalysisRequest(
            game=game, state=state, line=line, line_url=lambda tried: _line_url(game, tried)
        )
    )
    return {
        "game": game,
        "analysis_board_template": pages.analysis_board_template,
        "analysis_side_template": pages.analysis_side_template,
        **board,
        "line": line,
        "line_text": ",".join(line),
        "take_back_url": _line_url(game, line[:-1]) if line else None,
        "reset_url": _line_url(game, []),
    }


@require_POST
@login_required
def game_note_save(request: HttpRequest, game_id: int) -> HttpResponse:
    """Save the viewer's private notes on one of their games."""
    game = _visible_game(request, game_id)
    try:
        note = services.game_note_save(
            game_id=game.pk, user=request.user, body=request.POST.get("body", "")
        )
    except NotFound as exc:
        raise Http404(exc.detail) from None
    except DomainError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, "Notes saved." if note else "Notes cleared.")
    return redirect(f"{reverse('games:game', args=[game.pk])}#notes")


@require_POST
@login_required
def game_takeback(request: HttpRequest, game_id: int, answer: str = "") -> HttpResponse:
    """Ask to take back one's last move (``answer`` empty), or accept or decline the
    opponent's request."""
    game = _visible_game(request, game_id)
    try:
        if not answer:
            ply = int(request.POST.get("ply", ""))
            asked = services.takeback_request(game_id=game.pk, user=request.user, expected_ply=ply)
            messages.info(request, f"You asked to take back {asked.move}: your opponent decides.")
        else:
            accept = answer == "accept"
            done = services.takeback_answer(game_id=game.pk, user=request.user, accept=accept)
            what = "taken back: your opponent moves again" if accept else "declined"
            messages.success(request, f"{done.move} {what}.")
    except ValueError:
        messages.error(request, "The form lost the game's ply: reload the page and try again.")
    except DomainError as exc:
        messages.error(request, exc.detail)
    return redirect(f"{reverse('games:game', args=[game.pk])}#takeback")
