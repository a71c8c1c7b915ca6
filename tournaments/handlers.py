"""Receivers of games' events (subscribed after the commit in ``AppConfig.ready()``); each
hands over to a task by id."""

from __future__ import annotations

from typing import Any

from celticsite.celery import task_delay_on_commit
from tournaments.models import TournamentGame


def on_game_ended(*, game_id: int, **_: Any) -> None:
    """A game ended or its result changed (after commit): if it is a tournament game, record it
    in a task.

    A broker outage is logged, not raised: the beat task (``advance_tournaments``) finds
    games whose end was not recorded and records them.
    """
    if not TournamentGame.objects.filter(game_id=game_id).exists():
        return
    from tournaments.tasks import record_game_end

    task_delay_on_commit(
        record_game_end,
        game_id,
        on_outage=f"Could not queue the tournament result of game {game_id}",
    )
