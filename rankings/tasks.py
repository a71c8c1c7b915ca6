"""Celery tasks of the ranking. Each calls a service and is safe to run twice."""

from __future__ import annotations

from celery import shared_task

from rankings.ranking import ranking_updates_apply, rankings_refresh_all


@shared_task
def refresh_ranking() -> bool:
    """Beat, daily just after 00:00 UTC: rebuild every stored ranking for the new date (who is
    active, rank changes, grown deviations), so no visitor waits for it. Returns whether it
    was rebuilt."""
    return rankings_refresh_all()


@shared_task
def apply_ranking_updates() -> bool:
    """Right after a rated game's commit, and every minute from beat (should the broker have
    been down): bring the stored ranking in line with the results it does not show yet.
    Returns whether there was anything to apply."""
    return ranking_updates_apply()
