"""``player_link``: every player name on the site links to their one page.

``{{ user|player_link }}`` gives the name as a link; ``{{ user|player_link_rated }}`` adds the
player's Celtic! Elo after it when they have one, ``{{ user|player_link_rated:game.kind }}`` their
rating in that game kind (Celtic Knot's Plackett-Luce rating beside a Knot game).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import prefetch_related_objects
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


def display_name(user: AbstractBaseUser) -> str:
    """The profile's display name, else the username."""
    try:
        return str(user.profile.name)  # type: ignore[attr-defined]
    except ObjectDoesNotExist:
        return user.get_username()


#: The kind whose rating follows a name when none is named: the site's first game.
LINK_RATING_KIND = "celtic"


def rating_of(user: AbstractBaseUser, kind: str = LINK_RATING_KIND) -> Any | None:
    """The user's rating in ``kind`` (a ``PlayerRating``), or None before any rated game of
    it (read through ``prefetch_ratings``' cache when there is one)."""
    try:
        ratings = user.ranking_player.ratings.all()  # type: ignore[attr-defined]
    except ObjectDoesNotExist:
        return None
    rating = next((r for r in ratings if r.kind == kind), None)
    return rating if rating is not None and rating.games else None


@register.filter
def player_link(user: AbstractBaseUser | None) -> SafeString:
    """The player's name linking to their page; empty for no player."""
    if user is None:
        return SafeString("")
    return format_html(
        '<a class="player-link" href="{}">{}</a>',
        reverse("players:detail", args=[user.get_username()]),
        display_name(user),
    )


@register.filter
def player_link_rated(user: AbstractBaseUser | None, kind: str = LINK_RATING_KIND) -> SafeString:
    """``player_link`` followed by the player's rating in ``kind``, like ``ann (1523)``."""
    if user is None:
        return SafeString("")
    rating = rating_of(user, kind)
    if rating is None:
        return player_link(user)
    title = "Elo rating" if rating.elo is not None else "Rating in this game"
    link, shown = player_link(user), round(rating.shown)
    return format_html('{} <span class="rating" title="{}">{}</span>', link, title, shown)


@register.simple_tag
def prefetch_ratings(games: object) -> str:
    """Read the ratings of every player of ``games`` at once (two queries), so that
    ``player_link_rated`` costs no query per row of a game table."""
    users = [user for game in games for user in game.seat_users() if user is not None]  # type: ignore[attr-defined]
    prefetch_related_objects(users, "ranking_player__ratings")
    return ""
