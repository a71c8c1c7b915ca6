"""The Celery application. Tasks live in each app's ``tasks.py``."""

from __future__ import annotations

import logging
import os
from functools import partial
from typing import Any

from celery import Celery
from django.db import transaction

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "celticsite.settings")

app = Celery("celticsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


logger = logging.getLogger(__name__)


class NoHostnameNeeded(logging.Filter):
    """Drops kombu's "No hostname was supplied" warning, which its filesystem transport (the
    embedded broker, ``filesystem://``) sets off on every connection though it has no host."""

    def filter(self, record: logging.LogRecord) -> bool:
        filesystem = str(app.conf.broker_url).startswith("filesystem://")
        return not (filesystem and str(record.msg).startswith("No hostname was supplied"))


logging.getLogger("kombu.connection").addFilter(NoHostnameNeeded())


def task_delay_on_commit(task: Any, *args: Any, on_outage: str) -> None:
    """``task.delay(*args)`` once the current transaction commits (``transaction.on_commit``:
    at once outside a transaction, never if it rolls back), as Celery's
    ``Task.delay_on_commit``, except that a broker outage is logged as ``on_outage``, not
    raised: every caller keeps what the task needs in the database, where a beat task (or
    the person, by asking again) finds it, and the other work of the commit goes on."""
    transaction.on_commit(partial(_delay, task, args, on_outage))


def _delay(task: Any, args: tuple[Any, ...], on_outage: str) -> None:
    try:
        task.delay(*args)
    except Exception:
        logger.warning(on_outage, exc_info=True)
