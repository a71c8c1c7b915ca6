"""Project-wide test set-up."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from celticsite.celery import app as celery_app


@pytest.fixture(autouse=True)
def _tasks_run_in_process(request: pytest.FixtureRequest) -> Iterator[None]:
    """Queued tasks run at once, in this process, instead of piling up in the broker.

    The real-worker tests (marked ``celery_worker``) need the broker, so they keep it.
    """
    if request.node.get_closest_marker("celery_worker"):
        yield
        return
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: pytest.FixtureRequest) -> None:
    """Password hashing is deliberately slow; tests don't need it to be."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
