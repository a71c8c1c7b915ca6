"""Deciding games whose player to move ran out of time.

A game past its deadline stays active until this runs (every minute, from
``games.tasks.decide_timeouts``); ``move_submit`` already refuses a move after the deadline,
so nothing can happen to such a game in between.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import Q

from games import events
from games.kinds.base import Departure
from games.models import Game
from games.services.endings import game_seat_leave

#: Overdue games read per step: memory stays bounded on any backlog.
TIMEOUT_CHUNK = 500


def game_timeouts_decide(*, now: datetime, chunk_size: int = TIMEOUT_CHUNK) -> list[int]:
    """Decide every active game whose deadline passed before ``now``; returns their ids.

    The player to move loses on time: their kind says what that does (in a two-player game
    the other wins; with more players the others may play on, and the next player's clock
    starts). A game in which no move was made at all is annulled
    instead (unless ``GAMES_TIMEOUT_ANNUL_UNSTARTED`` is False): it was never really played.
    Each game is decided in a transaction of its own with its row locked and the deadline
    checked again, so a second run, or a second worker, decides nothing twice. Overdue games
    are found through the (status, deadline) index, ``chunk_size`` ids at a time: a run with
    nothing overdue is one query, whatever the number of running games.
    """
    overdue = Game.objects.filter(status=Game.Status.ACTIVE, deadline__lt=now)
    decided: list[int] = []
    after: tuple[datetime, int] | None = None
    while True:
        page = overdue
        if after is not None:
            page = page.filter(Q(deadline__gt=after[0]) | Q(deadline=after[0], pk__gt=after[1]))
        rows = list(page.order_by("deadline", "pk").values_list("deadline", "pk")[:chunk_size])
        for _, game_id in rows:
            if _game_timeout_decide(game_id=game_id, now=now):
                decided.append(game_id)
        if len(rows) < chunk_size:
            return decided
        after = rows[-1]


@transaction.atomic
def _game_timeout_decide(*, game_id: int, now: datetime) -> bool:
    game = (
        Game.objects.select_for_update(skip_locked=True)
        .filter(pk=game_id, status=Game.Status.ACTIVE, deadline__lt=now)
        .first()
    )
    if game is None:  # decided, moved, or being handled by someone else meanwhile
        return False
    if game.ply == 0 and getattr(settings, "GAMES_TIMEOUT_ANNUL_UNSTARTED", True):
        game.end(
            status=Game.Status.ANNULLED,
            result="",
            termination=Game.Termination.ANNULLED,
            finished_at=now,
        )
        game.save()
        events.publish(events.game_finished, game=game)
    else:
        game_seat_leave(
            game=game,
            seat=game.seat_to_move,
            how=Departure.TIMEOUT,
            termination=Game.Termination.TIMEOUT,
            now=now,
        )
    return True
