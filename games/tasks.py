"""Celery tasks of the games app. Each takes ids (or nothing), calls a service, and is safe
to run twice."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from games.timeouts import game_timeouts_decide


@shared_task
def decide_timeouts() -> list[int]:
    """Beat, every minute: decide the games whose player to move ran out of time."""
    return game_timeouts_decide(now=timezone.now())
