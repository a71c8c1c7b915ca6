"""A Redis outage does not take the service down: with the cache's Redis really stopped, the
throttles and login limits fail open (logged), a move is stored and answered, its email waits
in the outbox and goes out once Redis is back (docs/SECURITY.md, "A cache outage")."""

from __future__ import annotations

import json
import logging
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
import redis
import time_machine
from django.core import mail
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone
from kombu import Connection
from rest_framework.test import APIClient

from celticsite import celery as celery_module
from celticsite.celery import app as celery_app
from games import services
from games.models import Move
from notifications.models import OutboxEmail
from notifications.services import FLUSH_GRACE
from notifications.tasks import flush_outbox, send_outbox_email
from tests.accounts.factories import PASSWORD, make_user
from tests.games.conftest import submit, token_client

pytestmark = pytest.mark.skipif(
    shutil.which("redis-server") is None,
    reason="needs the redis-server binary to start and stop a Redis of its own (CI has it)",
)

ROOT = Path(__file__).resolve().parents[1]


class RedisServer:
    """A ``redis-server`` of this test's own on a free port of 127.0.0.1, without persistence."""

    def __init__(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url)
        for _ in range(100):
            try:
                client.ping()
                return
            except redis.exceptions.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    server = RedisServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def warnings(monkeypatch) -> list[str]:
    """The warnings logged by the cache and by the broker's callers. Not caplog: a Celery
    worker started by an earlier test may have disabled these loggers for the session."""
    logged: list[str] = []

    def log(text: str, *args: object, **_: object) -> None:
        logged.append(text % args)

    monkeypatch.setattr(logging.getLogger("celticsite.cache"), "warning", log)
    monkeypatch.setattr(celery_module.logger, "warning", log)
    return logged


def _cache_at(url: str) -> dict[str, dict[str, object]]:
    """The project's own cache setting for a Redis at ``url`` (``CELTIC_CACHE_URL``), with
    short timeouts: settings.py read in a process of its own, as a server would."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "REDIS_"))}
    env = {**clean, "CELTIC_CACHE_URL": url, "REDIS_CONNECT_TIMEOUT": "1"}
    code = "import json; from django.conf import settings; print(json.dumps(settings.CACHES))"
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env={**env, "REDIS_SOCKET_TIMEOUT": "1"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    caches: dict[str, dict[str, object]] = json.loads(result.stdout.strip().splitlines()[-1])
    assert caches["default"]["LOCATION"] == url
    return caches


@pytest.mark.django_db(transaction=True)  # the move's own commit queues its email, as in production
def test_with_redis_stopped_the_service_answers_and_the_email_waits(
    redis_server, warnings, monkeypatch
):
    alice, bob = make_user("alice"), make_user("bob")
    game = services.game_start(players=[alice, bob])
    other_game = services.game_start(players=[alice, bob])
    alice_api, anonymous = token_client(alice), APIClient()
    games_url = reverse("games-api:game-list")
    queue_email = send_outbox_email.apply_async

    def queue_on_this_redis(*args: object, **options: object) -> object:
        """The broker is the same Redis, as with REDIS_URL in production."""
        return queue_email(*args, connection=Connection(redis_server.url), **options)

    with override_settings(CACHES=_cache_at(redis_server.url)):
        assert anonymous.get(games_url).status_code == 200
        assert redis.Redis.from_url(redis_server.url).dbsize() > 0  # the throttle counted there

        redis_server.stop()
        mail.outbox.clear()
        with monkeypatch.context() as broker:
            broker.setitem(celery_app.conf, "task_always_eager", False)  # the tests' default
            broker.setattr(send_outbox_email, "apply_async", queue_on_this_redis)
            moved = submit(alice_api, game.pk, 0, "d5 ESW")
        assert (moved.status_code, Move.objects.filter(game=game).count()) == (201, 1)
        row = OutboxEmail.objects.get(recipient=bob, event="your_turn")
        assert (row.status, mail.outbox) == ("pending", [])
        assert f"Could not queue outbox email {row.pk}; flush_outbox will retry" in warnings

        resigned = alice_api.post(reverse("games-api:game-resign", args=[other_game.pk]))
        token_read = alice_api.get("/api/v1/accounts/tokens/")
        game_list = anonymous.get(games_url)
        web_login = Client().post(
            reverse("accounts:login"), {"username": "bob", "password": PASSWORD}
        )
        api_reset = anonymous.post("/api/v1/accounts/password-reset/", {"email": bob.email})
        web_reset = Client().post(reverse("accounts:password_reset"), {"email": bob.email})

        assert (resigned.status_code, resigned.json()["status"]) == (200, "finished")
        assert token_read.status_code == 200
        assert game_list.status_code == 200
        assert (web_login.status_code, web_login["Location"]) == (302, "/")
        assert api_reset.status_code == 202
        assert web_reset.status_code == 302
        assert any(
            text.startswith("The cache (Redis) is unreachable; get failed open")
            for text in warnings
        )

        redis_server.start()  # Redis is back: the cache counts again, the outbox is flushed
        cache.set("back", 1)
        assert cache.get("back") == 1
        mail.outbox.clear()  # the password resets' emails
        with time_machine.travel(timezone.now() + FLUSH_GRACE + timedelta(seconds=1)):
            assert flush_outbox.apply().get() == 1
    row.refresh_from_db()
    assert row.status == "sent"
    assert [message.to for message in mail.outbox] == [[bob.email]]
