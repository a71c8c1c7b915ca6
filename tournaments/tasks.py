"""Celery tasks of the tournaments app. Each takes ids (or nothing), calls a service, and is
safe to run twice."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.utils import timezone

from tournaments import services


@shared_task
def record_game_end(game_id: int) -> bool:
    """A tournament game ended: record its result and move the event on."""
    return services.tournament_game_ended(game_id=game_id)


@shared_task
def advance_tournaments() -> dict[int, Any]:
    """Beat, every minute: start events and rounds whose date came, record results a lost
    message missed, and hand games past a deadline to their organisers."""
    return services.tournaments_advance(now=timezone.now())
