"""Web Push, queued: each event a player may get by email is also pushed to each of their
devices (``accounts.PushDevice``) when its push switch is on (``push_turn`` for an event
that ``notify_turn`` allows, and so on), whatever they chose for the email.

``notify`` and ``notify_many`` call ``push_notices_queue`` in the caller's transaction: one
``OutboxPush`` row per device, deduplicated by the email's key and the device, and one
message after the commit that hands them to the workers (``notifications.push`` sends). A
move never waits for a push service."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from celery import signature
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from accounts.models import PUSH_FIELDS, PushDevice
from accounts.selectors import profile_get
from celticsite.celery import task_delay_on_commit
from notifications.email_context import context_dump
from notifications.email_events import EmailEvent, email_event_get
from notifications.models import OutboxPush

PUSH_SEND_TASK = "notifications.tasks.send_outbox_push"
PUSH_SEND_MANY_TASK = "notifications.tasks.send_outbox_pushes"


class PushNotice(Protocol):
    """What a push is made from: ``notifications.services.Notice``."""

    user: AbstractBaseUser
    event: str
    context: Mapping[str, Any]
    dedupe_key: str


def push_switch(event: EmailEvent) -> str | None:
    """The profile switch that allows pushing ``event``: the push twin of its email switch;
    None for an event sent whatever the player chose (a password reset, an answer to their
    email …), which is never pushed."""
    name = "push_" + event.preference.removeprefix("notify_") if event.preference else ""
    return name if name in PUSH_FIELDS else None


def push_notices_queue(notices: Sequence[PushNotice]) -> list[OutboxPush]:
    """Write the pushes of ``notices`` (one per device of each recipient who wants it) and
    queue their sending after the commit. Answers the rows written."""
    wanted = [notice for notice in notices if _wants_push(notice)]
    if not wanted:
        return []
    devices: dict[int, list[PushDevice]] = defaultdict(list)
    for device in PushDevice.objects.filter(user__in={n.user.pk for n in wanted}):
        devices[device.user_id].append(device)
    now = timezone.now()
    rows = [
        OutboxPush(
            device=device,
            recipient=notice.user,
            event=notice.event,
            game=notice.context.get("game"),
            context=context_dump(notice.context),
            dedupe_key=f"{notice.dedupe_key}:push:{device.pk}"[:220],
            next_attempt_at=now,
        )
        for notice in wanted
        for device in devices[notice.user.pk]
    ]
    if not rows:
        return []
    keys = [row.dedupe_key for row in rows]
    taken = set(OutboxPush.objects.filter(dedupe_key__in=keys).values_list("dedupe_key", flat=True))
    OutboxPush.objects.bulk_create(
        [row for row in rows if row.dedupe_key not in taken], ignore_conflicts=True
    )
    fresh = OutboxPush.objects.filter(dedupe_key__in=set(keys) - taken)
    written = list(fresh.order_by("pk"))
    if written:
        task_delay_on_commit(
            signature(PUSH_SEND_MANY_TASK),
            [row.pk for row in written],
            on_outage=f"Could not queue {len(written)} pushes; flush_push_outbox will retry",
        )
    return written


def _wants_push(notice: PushNotice) -> bool:
    switch = push_switch(email_event_get(notice.event))
    user = notice.user
    if switch is None or not user.is_active:
        return False
    profile = profile_get(user=user)
    return profile.has_push_devices and bool(getattr(profile, switch))


def enqueue_push(push_id: int) -> None:
    """Ask a worker to send one push after the commit (a broker outage is logged: the row
    waits for ``flush_push_outbox``)."""
    task_delay_on_commit(
        signature(PUSH_SEND_TASK),
        push_id,
        on_outage=f"Could not queue push {push_id}; flush_push_outbox will retry",
    )
