"""The clocks of a game: the time a move used, the deadline of the next turn (skipping the
player's weekends and vacations), and deadlines kept fair when a player's pauses change."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db.models import Q

from games.clock import Interval, Pauses, deadline_after, running_time
from games.models import Game, Side
from games.selectors import clock_pauses
from games.services.common import User

#: Vacations (start, end) by user id, as ``accounts.selectors.vacation_intervals_by_user``.
VacationsByUser = dict[int, tuple[Interval, ...]]


def _clock_after_move(
    game: Game,
    *,
    side: str,
    now: datetime,
    vacations: VacationsByUser | None = None,
) -> timedelta | None:
    """Store the mover's time for their next turn; answer the running time they had left
    when they moved (None without a time limit).

    The time used is the bank minus the running time still left before the deadline: the
    running time of the turn, measured against the same pauses that set the deadline.
    """
    bank = game.time_left(side)
    running_left = None if bank is None else _running_time_left(game, now=now, vacations=vacations)
    used = None if bank is None or running_left is None else bank - running_left
    left = game.time_control.after_move(remaining=bank, used=used)
    if side == Side.ORANGE:
        game.orange_time_left = left
    else:
        game.blue_time_left = left
    return running_left


def _running_time_left(
    game: Game, *, now: datetime, vacations: VacationsByUser | None = None
) -> timedelta:
    """How much running time the player to move has left before the stored deadline.

    ``vacations``: both players' vacations by user id, when the caller has read them.
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
    bank = game.time_left(game.to_move)
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
    mover_id = game.orange_id if game.to_move == Side.ORANGE else game.blue_id
    known = None if vacations is None else vacations.get(mover_id, ())
    return clock_pauses(game=game, side=game.to_move, since=now, vacations=known)


@contextmanager
def clock_pauses_changing(*, user: User, now: datetime) -> Iterator[list[Game]]:
    """Wrap a change to ``user``'s pauses: a vacation starting or ending, a new time zone.

    Locks the active games where ``user`` is to move and their deadline is still ahead,
    notes the running time each has left, lets the block make the change, then moves each
    deadline so that the same running time is left under the new pauses. Use it inside the
    transaction that makes the change. Yields the games (their deadlines set on exit).
    """
    to_move = Q(orange=user, to_move=Side.ORANGE) | Q(blue=user, to_move=Side.BLUE)
    games = list(
        Game.objects.select_for_update()
        .filter(to_move, status=Game.Status.ACTIVE, deadline__gt=now)
        .order_by("pk")
    )
    left = {game.pk: _running_time_left(game, now=now) for game in games}
    yield games
    changed = get_user_model().objects.select_related("profile").get(pk=user.pk)  # not cached
    for game in games:
        if game.to_move == Side.ORANGE:
            game.orange = changed
        else:
            game.blue = changed
        game.deadline = _deadline_from(game, now=now, budget=left[game.pk])
        game.save(update_fields=["deadline"])
