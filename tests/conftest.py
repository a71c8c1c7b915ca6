"""Project-wide test set-up."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.test import override_settings
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
def _outbox_rendered_when_queued(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Most tests read an email's text from its outbox row before any worker ran: render
    it as the worker would (its context through JSON and back) as the row is queued. Tests
    of rendering on the worker, and query counts, are marked ``outbox_unrendered``."""
    if request.node.get_closest_marker("outbox_unrendered"):
        return
    from django.utils import timezone

    from notifications import services

    queue = services._outbox_row

    def queue_and_render(notice: services.Notice) -> Any:
        row = queue(notice)
        if row is not None:
            row.subject, row.body_text, row.body_html, row.board_svg = services.outbox_email_render(
                row
            )
            row.rendered_at = timezone.now()
        return row

    monkeypatch.setattr(services, "_outbox_row", queue_and_render)


@pytest.fixture(autouse=True)
def _ranking_updated_at_once(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A test's transaction never commits, so the task that brings the stored ranking in line
    with a new result would never run: apply it as the result is recorded, as the task would
    right after the commit. Tests of the deferred update are marked ``ranking_deferred``."""
    if request.node.get_closest_marker("ranking_deferred"):
        return
    from rankings import ranking, services

    later = services._ranking_update_later

    def later_and_applied(**kwargs: Any) -> None:
        later(**kwargs)
        ranking.ranking_updates_apply()

    monkeypatch.setattr(services, "_ranking_update_later", later_and_applied)


@pytest.fixture(autouse=True)
def _rounds_paired_at_once(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test's transaction never commits, so the task that pairs a round due would never
    run: pair it as it is queued, as the worker would right after the commit, at the time
    it was queued (``rounds_paired_in_process``). Tests of the deferred pairing are marked
    ``pairing_deferred``."""
    if request.node.get_closest_marker("pairing_deferred"):
        yield
        return
    from tournaments.services import rounds_paired_in_process

    with rounds_paired_in_process():
        yield


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """Password hashing is deliberately slow; tests don't need it to be."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session", autouse=True)
def _cache_of_this_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The embedded file cache goes to a directory of this run (of this xdist worker), so
    parallel runs never share counts and ``cache.clear()`` touches only this run's files."""
    backend = django_settings.CACHES["default"]["BACKEND"]
    if "redis" in backend.lower():
        yield
        return
    location = tmp_path_factory.mktemp("cache")
    with override_settings(
        CACHES={"default": {**django_settings.CACHES["default"], "LOCATION": str(location)}}
    ):
        yield


@pytest.fixture(autouse=True)
def _fresh_throttle_cache(settings: Any) -> Iterator[None]:
    """Throttles and login limits count in the shared cache; start each test from zero.

    The file cache is this run's own directory (``_cache_of_this_run``), so clearing it is
    safe. Redis is shared with other runs and the broker (``clear()`` would empty the whole
    Redis database): there each test gets a key prefix of its own instead.
    """
    if "redis" in settings.CACHES["default"]["BACKEND"].lower():
        settings.CACHES = {
            "default": {**settings.CACHES["default"], "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}
        }
        yield
        return
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()
