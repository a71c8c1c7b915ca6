"""The Celery application. Tasks live in each app's ``tasks.py``."""

from __future__ import annotations

import logging
import os
from typing import Any

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "celticsite.settings")

app = Celery("celticsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


logger = logging.getLogger(__name__)


def task_queue(task: Any, *args: Any, on_outage: str) -> None:
    """``task.delay(*args)``. A broker outage is logged as ``on_outage``, not raised: every
    caller keeps what the task needs in the database, where a beat task (or the person, by
    asking again) finds it."""
    try:
        task.delay(*args)
    except Exception:
        logger.warning(on_outage, exc_info=True)
