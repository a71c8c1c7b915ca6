"""Reads for the player pages: one player's games, ratings and events, and the search."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import F, Q, QuerySet

from games import selectors as game_selectors
from games.models import Game
from rankings import selectors as ranking_selectors
from rankings.chart import Chart, rating_chart
from rankings.models import Player
from tournaments.models import Tournament
from tournaments.selectors import player_tournament_list

SEARCH_LIMIT = 30


def player_games(
    *, player: AbstractBaseUser, viewer: game_selectors.AnyUser, active: bool
) -> QuerySet[Game]:
    """``player``'s games that ``viewer`` may see: those in progress (newest first), or those
    that ended (finished or annulled, the latest ending first)."""
    games = game_selectors.game_list_visible(user=viewer).played_by(player)
    if active:
        return games.filter(status=Game.Status.ACTIVE).order_by("-pk")
    ended = games.exclude(status=Game.Status.ACTIVE)
    return ended.order_by(F("finished_at").desc(nulls_last=True), "-pk")


def player_tournaments(
    *, player: AbstractBaseUser, viewer: game_selectors.AnyUser
) -> QuerySet[Tournament]:
    """The events ``player`` entered: all for themselves, the public ones for anyone else."""
    events = player_tournament_list(user=player)
    if viewer.pk != player.pk:
        events = events.filter(public=True)
    return events


@dataclass(frozen=True, slots=True)
class RatingSummary:
    """What the player page shows of one kind's ranking: the ranking row, its chart and the
    ranking's own page of the player."""

    kind: str
    kind_name: str
    entry: ranking_selectors.RankingEntry | None
    chart: Chart | None
    ranking_player_id: int


def player_rating_summaries(*, player: AbstractBaseUser) -> list[RatingSummary]:
    """The player's ranking row and rating chart in each kind they have played rated games
    of (Celtic! first); empty if they are not in any ranking."""
    ranked = Player.objects.filter(user=player).first()
    if ranked is None:
        return []
    summaries = []
    for kind in ranking_selectors.player_kinds(player=ranked):
        history = ranking_selectors.player_history(player=ranked, kind=kind)
        points = [row.rating_after for row in history]
        summaries.append(
            RatingSummary(
                kind=kind,
                kind_name=ranking_selectors.kind_name(kind),
                entry=ranking_selectors.player_entry(player=ranked, kind=kind),
                # One point draws no line: the chart starts with the second rated game.
                chart=rating_chart(points) if len(points) > 1 else None,
                ranking_player_id=ranked.pk,
            )
        )
    return summaries


def player_search(*, query: str) -> QuerySet[AbstractBaseUser]:
    """Active users whose username or display name contains ``query`` (any case), by name."""
    users = get_user_model().objects.filter(is_active=True)
    query = query.strip()
    if query:
        users = users.filter(
            Q(username__icontains=query) | Q(profile__display_name__icontains=query)
        )
    return users.select_related("profile").order_by("username")[:SEARCH_LIMIT]
