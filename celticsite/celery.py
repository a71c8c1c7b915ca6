"""The Celery application. Tasks live in each app's ``tasks.py``."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "celticsite.settings")

app = Celery("celticsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


logger = logging.getLogger(__name__)

# Inside a request (``celticsite.middleware.TasksAfterResponseMiddleware``): the messages it
# queues, sent once its response has gone out. None outside a request: sent at once.
_after_response: ContextVar[list[Callable[[], None]] | None] = ContextVar(
    "after_response", default=None
)


def task_queue(task: Any, *args: Any, on_outage: str) -> None:
    """``task.delay(*args)``; in a request, once its response is sent (the person waits for
    the answer, not for the broker). A broker outage is logged as ``on_outage``, not raised:
    every caller keeps what the task needs in the database, where a beat task (or the
    person, by asking again) finds it."""

    def send() -> None:
        try:
            task.delay(*args)
        except Exception:
            logger.warning(on_outage, exc_info=True)

    pending = _after_response.get()
    if pending is None:
        send()
    else:
        pending.append(send)


def tasks_held_for_response() -> tuple[list[Callable[[], None]], Callable[[], None]]:
    """Hold the tasks queued from now on; answers the list that collects them and what
    stops holding (for the middleware, which sends them when the response is closed)."""
    pending: list[Callable[[], None]] = []
    token = _after_response.set(pending)
    return pending, lambda: _after_response.reset(token)


def tasks_send(pending: list[Callable[[], None]]) -> None:
    """Send the held tasks, each once."""
    while pending:
        pending.pop(0)()
