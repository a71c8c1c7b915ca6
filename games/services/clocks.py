"""The clocks of a game: the time a move used, the deadline of the next turn (skipping the
player's weekends and vacations), and deadlines kept fair when a player's pauses change."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model

from games.clock import Interval, Pauses, deadline_after, running_time
from games.models import Game
from games.selectors import clock_pauses
from games.services.common import User

#: Vacations (start, end) by user id, as ``accounts.selectors.vacation_intervals_by_user``.
VacationsByUser = dict[int, tuple[Interval, ...]]


def _clock_after_move(
    game: Game,
    *,
    seat: int,
    now: datetime,
    vacations: VacationsByUser | None = None,
) -> timedelta | None:
    """Store the mover's time for their next turn; answer the running time they had left
    when they moved (None without a time limit).

    The time used is the bank minus the running time still left before the deadline: the
    running time of the turn, measured against the same pauses that set the deadline.
    """
    row = game.seat_row(seat)
    bank = row.time_left
    running_left = None if bank is None else _running_time_left(game, now=now, vacations=vacations)
    used = None if bank is None or running_left is None else bank - running_left
    row.time_left = game.time_control.after_move(remaining=bank, used=used)
    return running_left


def _running_time_left(
    game: Game, *, now: datetime, vacations: VacationsByUser | None = None
) -> timedelta:
    """How much running time the player to move has left before the stored deadline.

    ``vacations``: the players' vacations by user id, when the caller has read them.
    """
    assert game.deadline is not None
    pauses = _pauses(game, now=now, vacations=vacations)
    return running_time(now, game.deadline, pauses.stream(since=now))


def _clock_start_turn(
    game: Game, *, now: datetime, vacations: VacationsByUser | None = None
) -> None:
    """Start the clock of the player to move: the deadline is when their bank has run,
    skipping their weekends and vacations."""
    game.turn_started_at = now
    bank = game.seat_time_left(game.seat_to_move)
    game.deadline = (
        None if bank is None else _deadline_from(game, now=now, budget=bank, vacations=vacations)
    )


def _deadline_from(
    game: Game,
    *,
    now: datetime,
    budget: timedelta,
    vacations: VacationsByUser | None = None,
) -> datetime:
    pauses = _pauses(game, now=now, vacations=vacations)
    return deadline_after(now, budget, pauses.stream(since=now))


def _pauses(game: Game, *, now: datetime, vacations: VacationsByUser | None) -> Pauses:
    """The pauses of the player to move (their vacations from ``vacations`` if given)."""
    mover = game.user_to_move()
    known = None if vacations is None else vacations.get(mover.pk, ())
    return clock_pauses(game=game, seat=game.seat_to_move, since=now, vacations=known)


@contextmanager
def clock_pauses_changing(*, user: User, now: datetime) -> Iterator[list[Game]]:
    """Wrap a change to ``user``'s pauses: a vacation starting or ending, a new time zone.

    Locks the active games where ``user`` is to move and their deadline is still ahead,
    notes the running time each has left, lets the block make the change, then moves each
    deadline so that the same running time is left under the new pauses. Use it inside the
    transaction that makes the change. Yields the games (their deadlines set on exit).
    """
    games = list(
        Game.objects.select_for_update().awaiting(user).filter(deadline__gt=now).order_by("pk")
    )
    left = {game.pk: _running_time_left(game, now=now) for game in games}
    yield games
    changed = get_user_model().objects.select_related("profile").get(pk=user.pk)  # not cached
    for game in games:
        game.seat_row(game.seat_to_move).user = changed
        game.deadline = _deadline_from(game, now=now, budget=left[game.pk])
        game.save(update_fields=["deadline"])
