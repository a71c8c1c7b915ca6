"""Celery tasks of the ladders app: each takes ids (or nothing), calls a service, and is
safe to run twice."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from ladders import services


@shared_task
def record_game_end(game_id: int) -> bool:
    """A ladder challenge's game ended: apply its result to the ladder."""
    return services.ladder_game_ended(game_id=game_id)


@shared_task
def advance_ladders() -> dict[str, list[int]]:
    """Beat: record results a lost message missed, and remove inactive players."""
    return services.ladders_advance(now=timezone.now())
