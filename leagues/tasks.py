"""Celery tasks of the leagues app: each calls a service and is safe to run twice."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.utils import timezone

from leagues import services


@shared_task
def advance_leagues() -> dict[int, Any]:
    """Beat, every minute: open seasons for registration, start them, and end those whose
    divisions have all finished (promotions, relegations, the next season)."""
    return services.leagues_advance(now=timezone.now())
