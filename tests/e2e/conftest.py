"""Browser tests' server: one request at a time when the database is SQLite.

Django's live server shares the test's in-memory SQLite connection with its threads; two
requests at once (a page polling for the opponent's move while the other page posts one)
then fail with "database table is locked". With SQLite the server answers one request at
a time (Django closes each connection, so a browser's keep-alive does not hold it); with
PostgreSQL, as in CI, it stays threaded.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.core.servers.basehttp import WSGIServer
from django.db import connection
from django.test.testcases import LiveServerThread


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """CI (``CELTIC_REQUIRE_SERVICES``) promises the browser: there a missing Chromium stops
    the run instead of letting the browser tests skip."""
    if not os.environ.get("CELTIC_REQUIRE_SERVICES") or Path("/usr/bin/chromium").exists():
        return
    if any("tests/e2e/" in item.nodeid for item in items):
        raise pytest.UsageError(
            "The browser tests need Debian's Chromium at /usr/bin/chromium: "
            "apt-get install -y chromium (.ci/run does it as root)."
        )


class _SerialWSGIServer(WSGIServer):
    """Django's one-request-at-a-time server; the live server thread itself holds the
    test's connections, so it need not be told them."""

    def __init__(self, *args, connections_override=None, **kwargs):
        super().__init__(*args, **kwargs)


@pytest.fixture(scope="session", autouse=True)
def _one_request_at_a_time_on_sqlite():
    if connection.vendor != "sqlite":
        yield
        return
    threaded = LiveServerThread.server_class
    LiveServerThread.server_class = _SerialWSGIServer
    yield
    LiveServerThread.server_class = threaded


@pytest.fixture(scope="session", autouse=True)
def _live_server_connections_closed(django_db_setup, django_db_blocker):
    """PostgreSQL: after the browser tests, end the connections the live server's request
    threads still hold (a browser's keep-alive keeps a thread, and its connection, after the
    page is gone), so the test database can be dropped. Runs before the database's teardown,
    which it depends on."""
    yield
    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
