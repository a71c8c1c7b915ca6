"""Small helpers for the game templates."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import template
from django.core.exceptions import ObjectDoesNotExist
from django.utils.text import slugify

from games.boards import kind_pages
from games.kinds import DEFAULT_KIND
from games.models import Challenge, Game, Move
from games.selectors import termination_text
from games.turns import count_turns

register = template.Library()


@register.filter
def seat_class(game: Game, user_id: int | None) -> str:
    """The CSS class of the seat ``user_id`` holds in ``game`` (its name: ``orange``), or
    ``""`` for someone who holds none."""
    for seat in game.seat_list:
        if seat.user_id == user_id:
            return slugify(game.seat_name(seat.seat))
    return ""


@register.filter
def other_players(game: Game, user: object) -> str:
    """The names of ``game``'s players other than ``user``, for "Write to ...": ``bob`` or
    ``bob, carol and dan``."""
    user_id = getattr(user, "pk", None)
    names = [_shown_name(seat.user) for seat in game.seat_list if seat.user_id != user_id]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _shown_name(user: Any) -> str:
    """The profile's name, or the username of a player who has no profile yet."""
    try:
        return str(user.profile.name)
    except ObjectDoesNotExist:
        return str(user.get_username())


@register.filter
def seats(game: Game) -> list[dict[str, object]]:
    """Each seat of ``game`` in order: its name (the kind's), CSS class and player."""
    rows = []
    for seat in game.seat_list:
        name = game.seat_name(seat.seat)
        rows.append({"name": name, "css": slugify(name), "player": seat.user})
    return rows


@register.simple_tag
def prefetch_turns(games: Any) -> str:
    """Count the turns of the games in ``games`` whose turns may take several steps (Celtic
    Knot's), in one query, for ``turns``; a table of games whose every step is a turn costs
    nothing."""
    counted = {game.pk: game for game in games if kind_pages(game.kind).counts_turns}
    if not counted:
        return ""
    steps: dict[int, list[tuple[int, str]]] = {pk: [] for pk in counted}
    rows = Move.objects.filter(game_id__in=counted).order_by("game_id", "ply")
    for game_id, seat, kind in rows.values_list("game_id", "seat", "kind"):
        steps[game_id].append((seat, kind))
    for pk, game in counted.items():
        game.turn_count = count_turns(steps[pk])
    return ""


@register.filter
def turns(game: Game) -> int:
    """How many turns ``game`` has had: its ply when every step is a turn, else the count
    ``prefetch_turns`` made (or one query for the game's moves)."""
    if not kind_pages(game.kind).counts_turns:
        return game.ply
    counted = getattr(game, "turn_count", None)
    if counted is None:
        counted = count_turns(game.moves.order_by("ply").values_list("seat", "kind"))
    return int(counted)


@register.simple_tag
def kinds_shown(games: Any) -> bool:
    """Whether a game table names each game's kind: when its games are not all the default
    kind's (Celtic!), so a table of Celtic! games alone looks as it always has."""
    return any(game.kind != DEFAULT_KIND for game in games)


@register.filter
def to_move_name(game: Game) -> str:
    """The name of the seat to move (``Orange``), ``""`` once the game is over."""
    return "" if game.seat_to_move is None else game.seat_name(game.seat_to_move)


@register.filter
def players_v(game: Game) -> str:
    """The players' usernames in seat order: ``alice v bob``."""
    return " v ".join(user.get_username() for user in game.seat_users())


@register.filter
def challenger_seat(challenge: Challenge) -> str:
    """The seat the challenger takes, as the challenge list says it: ``orange (moves
    first)``, ``blue``, ``random``."""
    if challenge.seat_choice is None:
        return "random"
    names = challenge.game_kind.seat_names(challenge.seat_count)
    name = names[challenge.seat_choice - 1].lower()
    return f"{name} (moves first)" if challenge.seat_choice == 1 else name


@register.filter
def invited_players(challenge: Challenge) -> list[dict[str, Any]]:
    """The players a challenge to several invites, in the order named, each with whether
    they accepted (took their seat); empty for any other challenge. Reads the challenge's
    ``invitations`` and ``entrants``: prefetch both for a list."""
    seated = {entry.user_id for entry in challenge.entrants.all()}
    return [
        {"user": invited.user, "accepted": invited.user_id in seated}
        for invited in challenge.invitations.all()
    ]


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
