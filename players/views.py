"""The player page (rating, games, events, a challenge button) and the player search."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from accounts.selectors import calendar_feed_owner
from celticsite.errors import DomainError
from games import selectors as game_selectors
from players import selectors
from players.calendar import calendar_entries, calendar_ics
from players.templatetags.players import display_name

FINISHED_PER_PAGE = 20


def player_page(request: HttpRequest, username: str) -> HttpResponse:
    """Everything about one player on one page; a 404 names the unknown player."""
    try:
        player = game_selectors.user_get_by_username(username=username)
    except DomainError as exc:
        raise Http404(exc.detail) from None
    viewer = request.user
    ended = selectors.player_games(player=player, viewer=viewer, active=False)
    return render(
        request,
        "players/player.html",
        {
            "player": player,
            "name": display_name(player),
            "ratings": selectors.player_rating_summaries(player=player),
            "active_games": selectors.player_games(player=player, viewer=viewer, active=True),
            "page": Paginator(ended, FINISHED_PER_PAGE).get_page(request.GET.get("page")),
            "tournaments": selectors.player_tournaments(player=player, viewer=viewer),
            "is_self": viewer.pk == player.pk,
        },
    )


def player_search(request: HttpRequest) -> HttpResponse:
    """Players whose name contains ``?q=``; every player (first ones) when it is empty."""
    query = request.GET.get("q", "").strip()
    return render(
        request,
        "players/search.html",
        {"query": query, "players": selectors.player_search(query=query)},
    )


def calendar_feed(request: HttpRequest, secret: str) -> HttpResponse:
    """A player's private calendar (iCalendar); 404 for a secret that is unknown, renewed or
    turned off, exactly as for a page that does not exist."""
    owner = calendar_feed_owner(secret=secret)
    if owner is None:
        raise Http404("There is no calendar at this address (it may have been renewed).")
    ics = calendar_ics(
        entries=calendar_entries(user=owner), owner_name=display_name(owner), now=timezone.now()
    )
    response = HttpResponse(ics, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="celtic.ics"'
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "no-referrer"
    return response
