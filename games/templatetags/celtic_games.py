"""Small helpers for the game templates."""

from __future__ import annotations

from datetime import timedelta

from django import template

from games.models import Game
from games.selectors import termination_text

register = template.Library()


@register.filter
def opponent_of(game: Game, user: object) -> object:
    """The other player of ``game`` from ``user``'s point of view."""
    return game.blue if game.player_side(user) == "orange" else game.orange


@register.filter
def side_of(game: Game, user: object) -> str:
    """``"orange"``, ``"blue"`` or ``""`` for a spectator."""
    return game.player_side(user) or ""


@register.filter
def days_hours(value: timedelta | None) -> str:
    """A duration as correspondence players read it: ``2 d 5 h``, ``40 min``."""
    if value is None:
        return "no limit"
    seconds = max(0, int(value.total_seconds()))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {rest // 60} min"
    return f"{rest // 60} min"


@register.filter
def ending(game: Game) -> str:
    """How ``game`` stands or ended in one sentence (``games.selectors.termination_text``)."""
    return termination_text(game=game)
