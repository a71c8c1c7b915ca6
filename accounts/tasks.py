"""Celery tasks for accounts. Each calls a service and is safe to run twice."""

from __future__ import annotations

from celery import shared_task

from accounts import services


@shared_task
def purge_pending_signups() -> int:
    """Beat, daily: delete sign-ups never confirmed within a week. Returns how many."""
    return services.pending_signups_purge()
