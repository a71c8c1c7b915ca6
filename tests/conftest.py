"""Project-wide test set-up."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

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
def _fast_password_hashing(settings: Any) -> None:
    """Password hashing is deliberately slow; tests don't need it to be."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


DATABASE_FIXTURES = {"db", "transactional_db", "live_server", "django_db_reset_sequences"}


@pytest.fixture(autouse=True)
def _fresh_throttle_cache(
    request: pytest.FixtureRequest, settings: Any, django_db_blocker: Any
) -> Iterator[None]:
    """Throttles and login limits count in the shared cache; start each test from zero.

    The database cache lives in this run's test database, so clearing it touches no one else
    (tests that use no database use no cache either). Redis is shared with other runs and the
    broker (``clear()`` would empty the whole Redis database): there each test gets a key
    prefix of its own instead.
    """
    if "redis" in settings.CACHES["default"]["BACKEND"].lower():
        settings.CACHES = {
            "default": {**settings.CACHES["default"], "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}
        }
        yield
        return
    if not (DATABASE_FIXTURES & set(request.fixturenames)
            or request.node.get_closest_marker("django_db")):
        yield
        return
    request.getfixturevalue("django_db_setup")
    with django_db_blocker.unblock():
        cache.clear()
    yield
    with django_db_blocker.unblock():
        cache.clear()


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()
