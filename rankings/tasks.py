"""Celery tasks of the ranking. Each calls a service and is safe to run twice."""

from __future__ import annotations

from celery import shared_task

from rankings.services import ranking_refresh


@shared_task
def refresh_ranking() -> bool:
    """Beat, daily just after 00:00 UTC: rebuild the stored ranking for the new date (who is
    active, rank changes, grown deviations), so no visitor waits for it. Returns whether it
    was rebuilt."""
    return ranking_refresh()
