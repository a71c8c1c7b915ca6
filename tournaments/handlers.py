"""Receivers of games' events (subscribed after the commit in ``AppConfig.ready()``), each
handing over to a task by id, and of a Celery worker's start."""

from __future__ import annotations

import logging
from typing import Any

from celticsite.celery import task_delay_on_commit
from tournaments.models import TournamentGame

logger = logging.getLogger(__name__)


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


def on_worker_ready(**_: Any) -> None:
    """A Celery worker started: queue again the pairing of every round still "pairing", so a
    round whose task died with a killed worker starts as soon as a worker is back, without
    waiting for the beat. A copy of a task still queued finds the round paired and stops."""
    from tournaments.services import tournament_pairings_resume

    try:
        queued = tournament_pairings_resume()
    except Exception:  # the worker starts anyway; the beat is the safety net
        logger.warning("Could not queue the rounds waiting for their pairing", exc_info=True)
        return
    if queued:
        logger.info("Queued the pairing of %s round(s) again", queued)
