"""Project-wide test set-up."""

from __future__ import annotations

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


@pytest.fixture(autouse=True)
def _fresh_throttle_cache() -> Iterator[None]:
    """The API throttles count requests in the cache; start each test from zero."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()
