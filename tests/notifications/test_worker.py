"""Tasks through a real Celery worker and broker, not run in-process.

The worker runs in a thread of this process (``celery.contrib.testing.worker``), consuming
from the configured broker: Redis when ``REDIS_URL`` is set (as in CI, ``.ci/run``), else
kombu's filesystem transport in a temporary folder of this test's own. Its database work is
committed for real, hence ``transaction=True``. (Threads, not processes: the test database
may be SQLite in memory, which only this process can see.)
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from celery import Celery
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.core import mail
from django.db import OperationalError, transaction
from django.utils import timezone
from kombu import pools
from kombu.asynchronous import set_event_loop

from celticsite.celery import app
from games import services as game_services
from games.engine import game_state
from games.models import Game
from games.tasks import decide_timeouts
from notifications import mailbox
from notifications.email_events import Event
from notifications.models import OutboxEmail
from notifications.reply_tokens import reply_token_make
from notifications.services import notify
from notifications.tasks import poll_inbound_mailbox, send_outbox_email
from tests.notifications.conftest import game_start_quietly
from tests.notifications.test_inbound import email
from tests.notifications.test_inbound_delivery import FakeImap

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

WAIT_SECONDS = 20.0
QUEUES = ["mail", "clock"]
MAIL_BACKLOG = 25


def wait_for(condition: Callable[[], bool], what: str, seconds: float = WAIT_SECONDS) -> None:
    """Poll ``condition`` until it holds, for at most ``seconds``."""
    give_up = time.monotonic() + seconds
    while time.monotonic() < give_up:
        try:
            if condition():
                return
        except OperationalError:  # SQLite: the worker holds a lock on the table; ask again
            pass
        time.sleep(0.1)
    raise AssertionError(f"gave up after {seconds:.0f} s waiting for {what}")


def _use_broker(broker_url: str, transport_options: dict[str, object]) -> None:
    app.conf.broker_url = broker_url
    app.conf.broker_transport_options = transport_options
    # Forget connections to the previous broker, so producer and worker both use this one
    # (kombu keeps its pools by URL, and a filesystem URL does not name the folder).
    pools.reset()
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[None]:
    """The app on the configured broker, its queues empty; a filesystem one in ``tmp_path``."""
    saved = {
        key: app.conf[key]
        for key in ("broker_url", "broker_transport_options", "task_always_eager")
    }
    if settings.REDIS_URL:  # with the settings' socket timeouts, as deployed
        _use_broker(settings.REDIS_URL, dict(settings.CELERY_BROKER_TRANSPORT_OPTIONS))
    else:
        folders = {name: tmp_path / name for name in ("queue", "processed", "control")}
        for folder in folders.values():
            folder.mkdir()
        _use_broker(
            "filesystem://",
            {
                "data_folder_in": str(folders["queue"]),
                "data_folder_out": str(folders["queue"]),
                "processed_folder": str(folders["processed"]),
                "control_folder": str(folders["control"]),
                "store_processed": False,
                "polling_interval": 0.1,
            },
        )
    app.conf.task_always_eager = False
    app.amqp.queues.select(QUEUES)  # a worker's -Q narrows this; purge and consume every queue
    app.control.purge()  # messages a previous run left in this Redis database
    try:
        yield
    finally:
        for key, value in saved.items():
            app.conf[key] = value
        _use_broker(saved["broker_url"], saved["broker_transport_options"])
        app.amqp.queues.select(QUEUES)


@pytest.fixture
def worker(broker: None) -> Iterator[None]:
    """One worker thread consuming both queues, as ``celery worker`` without -Q does."""
    with start_worker(
        app, pool="solo", perform_ping_check=False, shutdown_timeout=30, queues=QUEUES
    ):
        yield


def test_worker_sends_an_outbox_email_once(worker, django_user_model):
    alice = django_user_model.objects.create_user("alice", "alice@example.org", "x")
    bob = django_user_model.objects.create_user("bob", "bob@example.org", "x")
    game = game_start_quietly(players=[alice, bob])
    with transaction.atomic():
        row = notify(
            user=alice,
            event=Event.YOUR_TURN,
            context={"game": game, "side": "Orange", "opponent_name": "bob"},
            dedupe_key=f"your_turn:{game.pk}:0:{alice.pk}",
        )
    # notify queued it on commit; queue it twice more, as flush_outbox and a retry might.
    send_outbox_email.delay(row.pk)
    send_outbox_email.delay(row.pk)

    wait_for(lambda: OutboxEmail.objects.get(pk=row.pk).status == "sent", "the row to be sent")
    time.sleep(0.5)  # time for the duplicate messages to be consumed as well
    row.refresh_from_db()
    assert row.attempts == 1
    [email] = mail.outbox
    assert email.to == ["alice@example.org"]
    assert email.subject == f"Your move against bob (game #{game.pk})"
    assert f"/games/{game.pk}/" in email.body


def test_worker_decides_a_timeout_and_mails_both_players(worker, django_user_model):
    alice = django_user_model.objects.create_user("alice", "alice@example.org", "x")
    bob = django_user_model.objects.create_user("bob", "bob@example.org", "x")
    game = game_services.game_start(players=[alice, bob], rated=False)
    move = str(sorted(game_state(game).legal_choices(), key=str)[0])
    game_services.move_submit(game_id=game.pk, user=alice, expected_ply=0, notation=move)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(minutes=1))

    decide_timeouts.delay()

    def results() -> list[tuple[str, str]]:
        prefix = f"Game #{game.pk} against"
        return sorted((m.to[0], m.subject) for m in mail.outbox if m.subject.startswith(prefix))

    wait_for(lambda: len(results()) == 2, "both result emails")
    game.refresh_from_db()
    assert (game.status, game.result, game.termination) == ("finished", "1-0", "timeout")
    assert results() == [
        ("alice@example.org", f"Game #{game.pk} against bob: you won"),
        ("bob@example.org", f"Game #{game.pk} against alice: you lost"),
    ]


def test_worker_polls_a_move_by_email_and_sends_the_answers(
    worker, django_user_model, settings, monkeypatch
):
    settings.CELTIC_IMAP_HOST, settings.CELTIC_IMAP_DELETE = "imap.celtic.example", False
    settings.CELTIC_MOVES_ADDRESS = "moves@celtic.example"
    alice = django_user_model.objects.create_user("alice", "alice@example.org", "x")
    bob = django_user_model.objects.create_user("bob", "bob@example.org", "x")
    game = game_start_quietly(players=[alice, bob])
    token = reply_token_make(game_id=game.pk, ply=0, user_id=alice.pk)
    fake = FakeImap([email(token=token, body="d5 ESW")])
    monkeypatch.setattr(mailbox, "imap_connect", lambda: fake)

    poll_inbound_mailbox.delay()

    def sent() -> list[tuple[str, str]]:
        return sorted((m.to[0], m.subject.partition(" [")[0]) for m in mail.outbox)

    wait_for(lambda: len(sent()) == 2, "the answer and bob's turn")
    assert sent() == [
        ("alice@example.org", f"Played d5 ESW in game #{game.pk} against bob"),
        ("bob@example.org", f"Your move against alice (game #{game.pk}): Orange played d5 ESW"),
    ]
    assert fake.flags[b"11"] == {"\\Seen"}


@pytest.fixture
def silent_smtp_server() -> Iterator[int]:
    """A port whose server accepts connections (the kernel completes them) and never answers."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(16)
        yield server.getsockname()[1]


@pytest.fixture
def clock_and_mail_workers(broker: None) -> Iterator[None]:
    """Two worker threads, as deployed: one consuming only ``clock``, one only ``mail``.

    The clock worker runs on an app of its own, configured from the same settings: a Celery
    app holds one set of queues to consume, which a worker's ``queues`` narrows. On Redis each
    worker needs an event loop (kombu hub) of its own too: a worker takes the process's
    current one if there is one, and two threads must not run the same loop.
    """
    clock_app = Celery("celticsite")
    clock_app.config_from_object("django.conf:settings", namespace="CELERY")
    clock_app.conf.broker_url = app.conf.broker_url
    clock_app.conf.broker_transport_options = app.conf.broker_transport_options
    clock_app.conf.task_always_eager = False
    set_event_loop(None)
    try:
        with start_worker(
            clock_app,
            pool="solo",
            perform_ping_check=False,
            shutdown_timeout=30,
            queues=["clock"],
            hostname="clock@test",
        ):
            set_event_loop(None)
            with start_worker(  # started last, so the main app is the current one again
                app,
                pool="solo",
                perform_ping_check=False,
                shutdown_timeout=30,
                queues=["mail"],
                hostname="mail@test",
            ):
                yield
    finally:
        set_event_loop(None)


def test_a_silent_mail_server_does_not_stop_a_timeout_being_decided(
    clock_and_mail_workers, silent_smtp_server, settings, django_user_model
):
    """The mail worker is stuck on an SMTP server that never answers (each attempt ends
    after EMAIL_TIMEOUT); the clock worker still decides the timeout within a minute."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", silent_smtp_server
    settings.EMAIL_TIMEOUT, settings.EMAIL_USE_TLS = 3.0, False
    alice = django_user_model.objects.create_user("alice", "alice@example.org", "x")
    bob = django_user_model.objects.create_user("bob", "bob@example.org", "x")
    game = game_services.game_start(players=[alice, bob], rated=False)  # queues alice's turn
    move = str(sorted(game_state(game).legal_choices(), key=str)[0])
    game_services.move_submit(game_id=game.pk, user=alice, expected_ply=0, notation=move)
    with transaction.atomic():  # a backlog of mail longer than a minute at 3 s an attempt
        for n in range(MAIL_BACKLOG):
            notify(
                user=bob,
                event=Event.YOUR_TURN,
                context={"game": game, "side": "Blue", "opponent_name": "alice"},
                dedupe_key=f"backlog:{n}",
            )
    wait_for(
        lambda: OutboxEmail.objects.filter(status="sending").exists(),
        "the mail worker to be stuck on the silent SMTP server",
    )
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(minutes=1))

    decide_timeouts.delay()  # as beat sends it: routed to the clock queue

    def decided() -> bool:
        game.refresh_from_db()
        return game.status == "finished"

    wait_for(decided, "the timeout to be decided", seconds=60.0)
    assert (game.result, game.termination) == ("1-0", "timeout")
    assert set(
        OutboxEmail.objects.filter(event="game_finished").values_list("to_address", "status")
    ) <= {
        (address, status)
        for address in ("alice@example.org", "bob@example.org")
        for status in ("pending", "sending")
    }  # queued behind the stuck mail
    wait_for(
        lambda: OutboxEmail.objects.filter(last_error__contains="timed out").exists(),
        "an attempt to end with the SMTP timeout",
    )
