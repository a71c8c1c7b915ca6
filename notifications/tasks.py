"""Celery tasks for notifications. Each takes ids, calls a service, and is safe to run twice.

The top of the app: the services queue these tasks by name (``services.SEND_TASK``), so no
module of notifications imports this one and no import cycle runs through it."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from notifications import push, services
from notifications.account_emails import password_reset_emails_queue
from notifications.events import deadline_reminders_queue
from notifications.mailbox import inbound_mailbox_poll
from notifications.push_queue import enqueue_push


@shared_task(bind=True, max_retries=None, acks_late=True)
def send_outbox_email(self, outbox_id: int) -> str:  # type: ignore[no-untyped-def]
    """Send one outbox row; on an SMTP error, try again later with a growing delay.

    The row counts the attempts (``services.MAX_ATTEMPTS`` at most), so the limit holds even
    when the retry message is lost and ``flush_outbox`` queues the row instead.
    """
    outcome = services.outbox_email_send(outbox_id=outbox_id)
    if outcome.retry_in is not None:
        raise self.retry(countdown=outcome.retry_in.total_seconds())
    return outcome.status


@shared_task
def send_outbox_emails(outbox_ids: list[int]) -> int:
    """Queue one ``send_outbox_email`` per row (a tournament round's emails, queued by the
    request in one message). Returns how many."""
    for outbox_id in outbox_ids:
        services.enqueue_send(outbox_id)
    return len(outbox_ids)


@shared_task
def flush_outbox() -> int:
    """Beat, every minute: queue again the rows whose message was lost. Returns how many."""
    return len(services.outbox_flush())


@shared_task
def send_daily_digests() -> int:
    """Beat, daily: one email per user with their held notifications. Returns how many."""
    return len(services.digests_send())


@shared_task
def send_deadline_reminders() -> int:
    """Beat, every 5 minutes: remind players at the times they chose. Returns how many."""
    return len(deadline_reminders_queue(now=timezone.now()))


@shared_task
def poll_inbound_mailbox() -> int:
    """Beat, when CELTIC_IMAP_HOST is set: handle unseen moves by email. Returns how many."""
    return len(inbound_mailbox_poll())


@shared_task(acks_late=True)
def queue_password_reset(email: str, request_id: str) -> int:
    """Find the accounts using ``email`` and queue their reset links. Returns how many."""
    return len(password_reset_emails_queue(email=email, request_id=request_id))


@shared_task(bind=True, max_retries=None, acks_late=True)
def send_outbox_push(self, push_id: int) -> str:  # type: ignore[no-untyped-def]
    """Send one Web Push; on a failure, try again later with a growing delay (the row counts
    the attempts, as for emails)."""
    outcome = push.outbox_push_send(push_id=push_id)
    if outcome.retry_in is not None:
        raise self.retry(countdown=outcome.retry_in.total_seconds())
    return outcome.status


@shared_task
def send_outbox_pushes(push_ids: list[int]) -> int:
    """Queue one ``send_outbox_push`` per row (queued by a request in one message)."""
    for push_id in push_ids:
        enqueue_push(push_id)
    return len(push_ids)


@shared_task
def flush_push_outbox() -> int:
    """Beat, every minute: queue again the pushes whose message was lost. Returns how many."""
    return len(push.push_outbox_flush())
