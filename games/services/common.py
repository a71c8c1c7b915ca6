"""What every write to a game shares: the game read with its row locked, and the checks
that refuse a write before it starts (the game still active, the user one of its players)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Exists, OuterRef, prefetch_related_objects

from accounts.models import Vacation
from games import errors, selectors
from games.models import SEATS_WITH_PLAYERS, ConditionalLine, Game, GameSeat

User = AbstractBaseUser


def _game_locked(game_id: int, *, flags_at: datetime | None = None) -> Game:
    """The game, its row locked, with its seats, players and profiles (not locked).

    The seats come in a second statement: joining their tables to the locked row took
    PostgreSQL longer to plan than the extra round trip.

    ``flags_at``: also answer, in the locking statement, whether the game has queued
    conditional lines (``has_lines``) and whether any player has a vacation that ends
    after that time (``has_vacations``), so a move reads those only when there are some.
    The flags hold while the lock does: lines are written only under it, and a vacation
    that starts after this read is one the move could not have seen anyway.
    """
    games = Game.objects.select_for_update()
    if flags_at is not None:
        seated = GameSeat.objects.filter(game=OuterRef(OuterRef("pk"))).values("user")
        players_away = Vacation.objects.filter(user__in=seated, ends_at__gt=flags_at)
        games = games.annotate(
            has_lines=Exists(ConditionalLine.objects.filter(game=OuterRef("pk"))),
            has_vacations=Exists(players_away),
        )
    try:
        game = games.get(pk=game_id)
    except Game.DoesNotExist:
        raise errors.GameNotFound(f"There is no game #{game_id}.") from None
    prefetch_related_objects([game], SEATS_WITH_PLAYERS)
    return game


def _require_active(game: Game) -> None:
    if not game.is_active:
        raise errors.GameNotActive(
            f"Game #{game.pk} is {game.get_status_display().lower()}; no more moves are taken."
        )


def _require_player(game: Game, user: User) -> int:
    """``user``'s seat; a private game looks absent to outsiders, as on its page (asked only
    of those who are not players: a move costs no query for it)."""
    seat = game.seat_of(user)
    if seat is not None:
        return seat
    if not selectors.game_list_visible(user=user).filter(pk=game.pk).exists():
        raise errors.GameNotFound(f"There is no game #{game.pk}.")
    raise errors.NotAPlayer(f"You are not a player in game #{game.pk}.")
