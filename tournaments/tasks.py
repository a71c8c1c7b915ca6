"""Celery tasks of the tournaments app. Each takes ids (or nothing), calls a service, and is
safe to run twice."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.utils import timezone

from celticsite.errors import DomainError
from tournaments import selectors, services, standings_memo
from tournaments.models import Tournament

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


@shared_task
def standings_warm(tournament_id: int) -> bool:
    """A result changed: rank the event and store its standings and possible places where
    every process reads them (``tournaments.standings_memo``), so that the first page or API
    answer after the result reads them instead of ranking. Safe to run twice (the second
    finds them stored). False for a knockout (not ranked that way) or an event not started."""
    standings_memo.warm_release(tournament_id)
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    ranked = (Tournament.Status.RUNNING, Tournament.Status.FINISHED)
    if tournament is None or tournament.is_knockout or tournament.status not in ranked:
        return False
    selectors.tournament_standings_with_places(tournament=tournament)
    return True
