"""The claim on an outbox row: short, renewed while its worker renders and sends, so a
killed worker's email goes out again within two minutes and a slow live one keeps it."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
import time_machine
from django.core import mail

from notifications import services
from notifications.models import OutboxEmail
from notifications.services import outbox_email_send, outbox_flush
from tests.notifications.test_outbox import queue_turn

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_an_email_whose_worker_was_killed_is_sent_again_within_two_minutes(
    alice, game, django_capture_on_commit_callbacks
):
    """The worker claimed the row and died: no outcome, no renewal (660 s before)."""
    with time_machine.travel(T0, tick=False):
        row = queue_turn(alice, game)
        OutboxEmail.objects.filter(pk=row.pk).update(status="pending")
        assert services._claim(row.pk, T0) is not None  # ... and the worker is killed

    with time_machine.travel(T0 + timedelta(seconds=45), tick=False):
        assert outbox_flush() == []  # the claim may still be a live worker's
    with (
        time_machine.travel(T0 + timedelta(minutes=2), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert outbox_flush() == [row.pk]

    row.refresh_from_db()
    assert (row.status, row.attempts) == ("sent", 2)
    assert len(mail.outbox) == 1


def test_a_renewal_extends_only_the_claim_it_holds(alice, game):
    row = queue_turn(alice, game)
    OutboxEmail.objects.filter(pk=row.pk).update(status="pending")
    held = services._claim(row.pk, T0)

    renewed = services._claim_renew(row.pk, held, now=T0 + timedelta(seconds=15))
    stale = services._claim_renew(row.pk, held, now=T0 + timedelta(seconds=30))

    assert held == T0 + services.CLAIM_LEASE
    assert renewed == T0 + timedelta(seconds=15) + services.CLAIM_LEASE
    assert stale is None  # that claim is no longer the row's: another worker's is not touched
    row.refresh_from_db()
    assert (row.status, row.claimed_until) == ("sending", renewed)


def test_a_live_worker_keeps_renewing_its_claim_while_smtp_is_slow(alice, game, monkeypatch):
    """The renewals run beside the send, and stop once the outcome is known."""
    row = queue_turn(alice, game)
    OutboxEmail.objects.filter(pk=row.pk).update(status="pending")
    renewals: list[datetime] = []
    twice = threading.Event()

    def renew(outbox_id: int, held_until: datetime, *, now: datetime) -> datetime:
        renewals.append(held_until)
        if len(renewals) == 2:
            twice.set()
        return held_until + timedelta(seconds=1)

    def slow_smtp(message) -> int:
        assert twice.wait(timeout=10), "the claim was not renewed during the send"
        return 1

    monkeypatch.setattr(services, "CLAIM_RENEW_EVERY", timedelta(milliseconds=5))
    monkeypatch.setattr(services, "_claim_renew", renew)
    with mock.patch("django.core.mail.EmailMultiAlternatives.send", slow_smtp):
        assert outbox_email_send(outbox_id=row.pk).status == "sent"
        after_send = len(renewals)  # the renewer has stopped: the send joined it
        assert not [t for t in threading.enumerate() if t.name == f"outbox-claim-{row.pk}"]

    assert renewals[1] == renewals[0] + timedelta(seconds=1)  # each renewal holds the last
    assert len(renewals) == after_send
