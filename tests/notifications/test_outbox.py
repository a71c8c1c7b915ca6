"""The outbox: rows written in the caller's transaction, sent once, retried, flushed."""

from __future__ import annotations

import smtplib
from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
import time_machine
from django.core import mail
from django.db import transaction
from kombu.exceptions import OperationalError

from games import services as game_services
from notifications import account_emails, services, tasks
from notifications.email_events import Event
from notifications.events import on_turn
from notifications.models import OutboxEmail
from notifications.services import MAX_ATTEMPTS, notify, outbox_email_send, outbox_flush
from notifications.tasks import flush_outbox, send_outbox_email
from tests.notifications.conftest import set_profile

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
SMTP_DOWN = smtplib.SMTPServerDisconnected("Connection unexpectedly closed")


def queue_turn(user, game, key="your_turn:test"):
    return notify(
        user=user,
        event=Event.YOUR_TURN,
        context={
            "game": game,
            "ply": game.ply,
            "deadline": game.deadline,
            "side": "Orange",
            "opponent_name": "bob",
        },
        dedupe_key=key,
    )


def test_committed_notification_is_sent_after_commit(
    alice, game, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        with transaction.atomic():
            row = queue_turn(alice, game)
        assert mail.outbox == []  # nothing leaves before the commit
    assert len(callbacks) == 1
    callbacks[0]()

    row.refresh_from_db()
    assert (row.status, row.attempts, row.to_address) == ("sent", 1, "alice@example.org")
    assert row.sent_at is not None
    [email] = mail.outbox
    assert email.to == ["alice@example.org"]
    assert email.subject == f"Your move against bob (game #{game.pk})"
    assert email.extra_headers["X-Celtic-Outbox-Id"] == str(row.pk)
    assert email.body.startswith("Hello Alice A.,\n")
    assert f"Open the game: https://celtic.example/games/{game.pk}/" in email.body
    assert "https://celtic.example/accounts/profile/" in email.body
    [(html, mimetype)] = email.alternatives
    assert mimetype == "text/html"
    assert f'<a href="https://celtic.example/games/{game.pk}/"' in html


def test_deadline_is_shown_in_the_recipients_time_zone(alice, game):
    game.deadline = datetime(2026, 7, 1, 12, 0, tzinfo=UTC)
    row = queue_turn(alice, game)
    assert "Move before Wed 1 Jul 2026, 13:00 IST." in row.body_text  # Europe/Dublin, summer


def test_rolled_back_transaction_leaves_no_row_and_sends_nothing(
    alice, game, django_capture_on_commit_callbacks
):
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        queue_turn(alice, game)
        raise RuntimeError("the move failed after notifying")
    assert callbacks == []
    assert OutboxEmail.objects.count() == 0
    assert mail.outbox == []


def test_same_dedupe_key_is_queued_once(alice, game, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        first = queue_turn(alice, game, key="your_turn:1:0:1")
        second = queue_turn(alice, game, key="your_turn:1:0:1")
    assert first is not None
    assert second is None
    assert OutboxEmail.objects.count() == 1
    assert len(mail.outbox) == 1


def test_a_key_taken_between_the_check_and_the_insert_makes_no_second_row(alice, game, monkeypatch):
    """As when another request queues the same email at the same moment: the insert ignores
    the conflict, the caller's transaction goes on, and the row answered is the one stored."""
    insert = OutboxEmail.objects.bulk_create
    taken: list[OutboxEmail] = []

    def racing_insert(rows, **kwargs):
        taken.append(OutboxEmail.objects.create(**{**_columns(rows[0]), "subject": "first"}))
        return insert(rows, **kwargs)

    monkeypatch.setattr(OutboxEmail.objects, "bulk_create", racing_insert)
    with transaction.atomic():
        row = queue_turn(alice, game, key="your_turn:race")
        assert OutboxEmail.objects.count() == 1  # the transaction is still usable
    assert row is not None and row.pk == taken[0].pk
    assert OutboxEmail.objects.get().subject == "first"


def _columns(row: OutboxEmail) -> dict[str, object]:
    return {
        field.attname: getattr(row, field.attname)
        for field in OutboxEmail._meta.concrete_fields
        if not field.primary_key
    }


def test_preference_off_queues_nothing(alice, game, django_capture_on_commit_callbacks):
    set_profile(alice, notify_turn=False)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        assert queue_turn(alice, game) is None
    assert callbacks == []
    assert OutboxEmail.objects.count() == 0


def test_other_preferences_do_not_silence_an_event(alice, game):
    set_profile(alice, notify_challenge=False, notify_game_end=False, notify_message=False)
    assert queue_turn(alice, game) is not None


def test_no_address_queues_nothing(alice, game):
    alice.email = ""
    alice.save()
    assert queue_turn(alice, game) is None


def test_digest_reader_gets_turns_held_for_the_digest(
    alice, game, django_capture_on_commit_callbacks
):
    set_profile(alice, email_digest=True)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        row = queue_turn(alice, game)
    assert callbacks == []
    assert (row.digest, row.status) == (True, "pending")
    assert mail.outbox == []
    assert outbox_email_send(outbox_id=row.pk) == services.SendOutcome("skipped")
    assert mail.outbox == []


def test_unknown_event_is_refused(alice):
    with pytest.raises(ValueError, match="'telegram' is not registered"):
        notify(user=alice, event="telegram", context={}, dedupe_key="x")


def test_send_task_twice_sends_one_email(alice, game):
    row = queue_turn(alice, game)
    assert send_outbox_email.apply(args=[row.pk]).get() == "sent"
    assert send_outbox_email.apply(args=[row.pk]).get() == "skipped"
    assert len(mail.outbox) == 1
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("sent", 1)


def test_a_row_claimed_by_another_worker_is_not_sent_again(alice, game):
    row = queue_turn(alice, game)
    with time_machine.travel(T0, tick=False):
        OutboxEmail.objects.filter(pk=row.pk).update(
            status="sending", claimed_until=T0 + timedelta(minutes=5)
        )
        assert outbox_email_send(outbox_id=row.pk).status == "skipped"
    assert mail.outbox == []


def test_smtp_failure_is_recorded_and_a_later_run_sends_once(alice, game):
    row = queue_turn(alice, game)
    with (
        time_machine.travel(T0, tick=False),
        mock.patch("django.core.mail.EmailMultiAlternatives.send", side_effect=SMTP_DOWN),
    ):
        outcome = outbox_email_send(outbox_id=row.pk)
    assert outcome == services.SendOutcome("retry", retry_in=timedelta(minutes=1))
    row.refresh_from_db()
    assert (row.status, row.attempts, row.sent_at) == ("pending", 1, None)
    assert row.last_error == "SMTPServerDisconnected: Connection unexpectedly closed"
    assert row.next_attempt_at == T0 + timedelta(minutes=1)
    assert mail.outbox == []

    assert outbox_email_send(outbox_id=row.pk).status == "sent"
    assert outbox_email_send(outbox_id=row.pk).status == "skipped"
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("sent", 2)
    assert len(mail.outbox) == 1


def test_send_task_retries_through_celery_after_smtp_failure(alice, game):
    row = queue_turn(alice, game)
    real_send = mail.EmailMultiAlternatives.send
    calls = []

    def fail_once(message, *args, **kwargs):
        calls.append(message.subject)
        if len(calls) == 1:
            raise SMTP_DOWN
        return real_send(message, *args, **kwargs)

    with mock.patch.object(mail.EmailMultiAlternatives, "send", fail_once):
        send_outbox_email.apply(args=[row.pk])  # eager: the retry runs at once
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("sent", 2)
    assert len(calls) == 2
    assert len(mail.outbox) == 1


def test_retry_delays_grow_and_are_capped():
    minutes = [services.retry_delay(n).total_seconds() / 60 for n in range(1, MAX_ATTEMPTS + 1)]
    assert minutes == [1, 2, 4, 8, 16, 32, 60, 60]


def test_smtp_down_for_good_gives_up_after_max_attempts(alice, game):
    row = queue_turn(alice, game)
    with mock.patch("django.core.mail.EmailMultiAlternatives.send", side_effect=SMTP_DOWN):
        send_outbox_email.apply(args=[row.pk])
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("failed", MAX_ATTEMPTS)
    assert mail.outbox == []
    assert outbox_flush() == []  # a failed row stays failed


def test_broker_down_at_commit_loses_nothing(alice, game, django_capture_on_commit_callbacks):
    with time_machine.travel(T0, tick=False):
        with (
            mock.patch.object(
                send_outbox_email, "apply_async", side_effect=OperationalError("Connection refused")
            ),
            django_capture_on_commit_callbacks(execute=True),
            transaction.atomic(),
        ):
            row = queue_turn(alice, game)
        row.refresh_from_db()
        assert row.status == "pending"
        assert mail.outbox == []

    with time_machine.travel(T0 + timedelta(seconds=30), tick=False):
        assert flush_outbox.apply().get() == 0  # its message may still be on the way
    with (
        time_machine.travel(T0 + timedelta(minutes=2), tick=False),
        django_capture_on_commit_callbacks(execute=True),  # the beat task's own commit
    ):
        assert flush_outbox.apply().get() == 1
    row.refresh_from_db()
    assert row.status == "sent"
    assert len(mail.outbox) == 1


def test_flush_requeues_stale_claims_and_waits_out_retry_delays(
    alice, bob, game, django_capture_on_commit_callbacks
):
    with time_machine.travel(T0, tick=False):
        crashed = queue_turn(alice, game, key="a")
        OutboxEmail.objects.filter(pk=crashed.pk).update(
            status="sending", claimed_until=T0 + services.CLAIM_LEASE, attempts=1
        )
        waiting = queue_turn(bob, game, key="b")
        OutboxEmail.objects.filter(pk=waiting.pk).update(
            next_attempt_at=T0 + timedelta(minutes=30), attempts=3
        )
        done = queue_turn(alice, game, key="c")
        outbox_email_send(outbox_id=done.pk)
    with (
        time_machine.travel(T0 + services.CLAIM_LEASE + timedelta(seconds=1), tick=False),
        django_capture_on_commit_callbacks(execute=True),  # the beat task's own commit
    ):
        assert outbox_flush() == [crashed.pk]
    with (
        time_machine.travel(T0 + timedelta(minutes=32), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert outbox_flush() == [waiting.pk]
    assert sorted(m.to[0] for m in mail.outbox) == [
        "alice@example.org",
        "alice@example.org",
        "bob@example.org",
    ]
    assert set(OutboxEmail.objects.values_list("status", flat=True)) == {"sent"}


def test_on_turn_tells_the_player_to_move(alice, bob, game):
    on_turn(game)  # the game's start told alice already: still one email
    game = game_services.move_submit(
        game_id=game.pk, user=alice, expected_ply=0, notation="d5 ESW"
    ).game  # tells bob
    on_turn(game)  # the same turn again: still one email
    rows = list(OutboxEmail.objects.order_by("pk").values_list("recipient__username", "dedupe_key"))
    assert rows == [
        ("alice", f"your_turn:{game.pk}:0:{alice.pk}"),
        ("bob", f"your_turn:{game.pk}:1:{bob.pk}"),
    ]


def test_the_names_the_services_queue_by_are_the_tasks_names():
    """The services queue the send tasks by name (they do not import the task module): a
    renamed task must not leave them sending a name no worker knows."""
    assert tasks.send_outbox_email.name == services.SEND_TASK
    assert tasks.send_outbox_emails.name == services.SEND_MANY_TASK
    assert tasks.queue_password_reset.name == account_emails.PASSWORD_RESET_TASK
