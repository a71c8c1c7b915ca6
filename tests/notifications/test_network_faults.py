"""Network faults: a mail server that never answers, one that refuses mail for a while, and
the timeouts and queues that keep them from stopping the clocks.

The real-worker fault test (a silent SMTP server while a timeout falls due) is in
``test_worker.py``; the IMAP poison message in ``test_inbound_delivery.py``.
"""

from __future__ import annotations

import re
import runpy
import signal
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from django.db import transaction

from celticsite.celery import app
from notifications.email_events import Event
from notifications.models import OutboxEmail
from notifications.services import notify, outbox_email_send, outbox_flush
from notifications.tasks import send_outbox_email

pytestmark = pytest.mark.django_db

SETTINGS_FILE = Path(__file__).resolve().parents[2] / "celticsite" / "settings.py"


@pytest.fixture
def silent_smtp_server() -> Iterator[int]:
    """A port on 127.0.0.1 whose server accepts connections (the kernel completes them) and
    never says a word: no greeting, no answer."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(16)
        yield server.getsockname()[1]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RefusingThenAccepting:
    """An SMTP server's DATA handler: 451 (try again later) the first ``refusals`` times,
    then 250, keeping what it accepted."""

    def __init__(self, refusals: int) -> None:
        self.refusals = refusals
        self.accepted: list[tuple[list[str], bytes]] = []

    async def handle_DATA(self, server, session, envelope) -> str:
        if self.refusals:
            self.refusals -= 1
            return "451 4.3.0 Mailbox busy, try again later"
        self.accepted.append((list(envelope.rcpt_tos), envelope.content))
        return "250 2.0.0 OK"


def use_smtp(settings, port: int, timeout: float) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", port, timeout
    settings.EMAIL_USE_TLS = False


def your_turn_row(user, game) -> OutboxEmail:
    row = notify(
        user=user,
        event=Event.YOUR_TURN,
        context={"game": game, "side": "Orange", "opponent_name": "bob"},
        dedupe_key=f"your_turn:{game.pk}:0:{user.pk}",
    )
    assert row is not None
    return row


class Hung(Exception):
    pass


def test_a_silent_smtp_server_fails_the_attempt_after_email_timeout(
    settings, silent_smtp_server, alice, game
):
    use_smtp(settings, silent_smtp_server, timeout=1.0)
    row = your_turn_row(alice, game)

    def hung(signum, frame):
        raise Hung("the send was still waiting for the SMTP server after 20 s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(20)  # a bound for this test only: without a timeout the send waits forever
    try:
        outcome = outbox_email_send(outbox_id=row.pk)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    row.refresh_from_db()
    assert outcome.status == "retry"
    assert (row.status, row.attempts) == ("pending", 1)
    assert "timed out" in row.last_error


def test_mail_refused_with_451_is_retried_then_delivered_exactly_once(
    settings, django_capture_on_commit_callbacks, alice, game
):
    handler = RefusingThenAccepting(refusals=2)
    controller = Controller(handler, hostname="127.0.0.1", port=_free_port())
    controller.start()
    try:
        use_smtp(settings, controller.port, timeout=10.0)
        with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
            row = your_turn_row(alice, game)  # queued on commit; retried in-process (eager)
        # the outbox flush and a duplicate message find nothing left to send
        send_outbox_email.delay(row.pk)
        outbox_flush()
    finally:
        controller.stop()
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("sent", 3)
    assert "451" in row.last_error and "try again later" in row.last_error
    [(recipients, content)] = handler.accepted
    assert recipients == ["alice@example.org"]
    assert f"Subject: Your move against bob (game #{game.pk})".encode() in content
    assert f"X-Celtic-Outbox-Id: {row.pk}".encode() in content


# --- configuration: every network call has a timeout; the clocks have their own queue -------


def test_settings_give_every_network_call_a_timeout(monkeypatch):
    for name, value in {
        "REDIS_URL": "redis://127.0.0.1:6379/3",
        "EMAIL_TIMEOUT": "12",
        "CELTIC_IMAP_TIMEOUT": "7",
        "REDIS_CONNECT_TIMEOUT": "2",
        "REDIS_SOCKET_TIMEOUT": "4",
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("CELTIC_CACHE_URL", raising=False)
    loaded = runpy.run_path(str(SETTINGS_FILE))
    assert loaded["EMAIL_TIMEOUT"] == 12.0
    assert loaded["CELTIC_IMAP_TIMEOUT"] == 7.0
    redis_timeouts = {"socket_connect_timeout": 2.0, "socket_timeout": 4.0}
    assert loaded["CELERY_BROKER_TRANSPORT_OPTIONS"] == redis_timeouts
    assert loaded["CELERY_REDIS_SOCKET_CONNECT_TIMEOUT"] == 2.0
    assert loaded["CELERY_REDIS_SOCKET_TIMEOUT"] == 4.0
    assert loaded["CACHES"]["default"]["OPTIONS"] == redis_timeouts


def test_the_defaults_have_timeouts_too(monkeypatch):
    for name in ("EMAIL_TIMEOUT", "CELTIC_IMAP_TIMEOUT", "REDIS_SOCKET_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)
    loaded = runpy.run_path(str(SETTINGS_FILE))
    assert (loaded["EMAIL_TIMEOUT"], loaded["CELTIC_IMAP_TIMEOUT"]) == (30.0, 30.0)
    assert loaded["REDIS_SOCKET_TIMEOUT"] == 10.0


def test_postgresql_connections_time_out(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgres://celtic@db.invalid:5432/celtic")
    monkeypatch.delenv("DATABASE_CONNECT_TIMEOUT", raising=False)
    loaded = runpy.run_path(str(SETTINGS_FILE))
    assert loaded["DATABASES"]["default"]["OPTIONS"]["connect_timeout"] == 5
    monkeypatch.setenv("DATABASE_CONNECT_TIMEOUT", "3")
    loaded = runpy.run_path(str(SETTINGS_FILE))
    assert loaded["DATABASES"]["default"]["OPTIONS"]["connect_timeout"] == 3
    monkeypatch.setenv("DATABASE_URL", "postgres://celtic@db.invalid:5432/celtic?connect_timeout=9")
    loaded = runpy.run_path(str(SETTINGS_FILE))
    assert loaded["DATABASES"]["default"]["OPTIONS"]["connect_timeout"] == 9  # the URL's own


@pytest.mark.parametrize(
    ("task", "queue"),
    [
        ("games.tasks.decide_timeouts", "clock"),
        ("notifications.tasks.send_deadline_reminders", "clock"),
        ("notifications.tasks.send_outbox_email", "mail"),
        ("notifications.tasks.flush_outbox", "mail"),
        ("notifications.tasks.send_daily_digests", "mail"),
        ("notifications.tasks.poll_inbound_mailbox", "mail"),
    ],
)
def test_the_clocks_have_a_queue_apart_from_the_mail(task, queue):
    assert app.amqp.router.route({}, task)["queue"].name == queue


ROOT = SETTINGS_FILE.parents[1]


def _recipe(target: str) -> str:
    """The commands of a Makefile target, continuation lines joined."""
    makefile = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    recipe = makefile.split(f"\n{target}:", 1)[1].split("\n\n", 1)[0]
    return " ".join(recipe.split())


@pytest.mark.parametrize("target", ["run", "worker"])
def test_make_starts_a_clock_worker_with_beat_and_a_mail_worker(target):
    recipe = _recipe(target)
    worker = r"celery -A celticsite (--quiet )?worker"  # make run: no start-up banner
    assert re.search(rf"{worker} -Q clock -n clock@%h --beat", recipe)
    assert re.search(rf"{worker} -Q mail -n mail@%h", recipe)


def test_docker_compose_runs_the_clock_queue_on_a_worker_of_its_own():
    import yaml

    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    assert " -Q mail " in services["worker"]["command"]
    assert " -Q clock " in services["clock"]["command"]
    assert services["clock"]["environment"]["REDIS_URL"].startswith("redis://")
