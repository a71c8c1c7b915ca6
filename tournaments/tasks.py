"""Celery tasks of the tournaments app. Each takes ids (or nothing), calls a service, and is
safe to run twice."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.utils import timezone

from celticsite.errors import DomainError
from tournaments import services

logger = logging.getLogger(__name__)


@shared_task
def record_game_end(game_id: int) -> bool:
    """A tournament game ended: record its result and move the event on."""
    return services.tournament_game_ended(game_id=game_id)


@shared_task
def pair_round(tournament_id: int, round_number: int) -> bool:
    """Pair a round marked "pairing" and start its games (queued after the commit that made
    it due). A round that cannot be paired is logged and stays "pairing": the beat queues
    it again, and the organiser may pair it by hand."""
    try:
        return services.tournament_round_pair(
            tournament_id=tournament_id, round_number=round_number
        )
    except DomainError as exc:
        logger.warning(
            "Round %s of tournament %s cannot be paired: %s",
            round_number,
            tournament_id,
            exc.detail,
        )
        return False


@shared_task
def advance_tournaments() -> dict[int, Any]:
    """Beat, every minute: start events and rounds whose date came, record results a lost
    message missed, queue again the pairing of a round whose task was lost, and hand games
    past a deadline to their organisers."""
    return services.tournaments_advance(now=timezone.now())
