"""Web Push, sent: a worker sends one ``OutboxPush`` row to its device's push service
(VAPID, RFC 8292; the payload encrypted for the browser, RFC 8291, by ``pywebpush``), with
the retries, claims and flush of the email outbox. A push service answering 404 or 410 says
the subscription is gone: the device is removed and the row marked ``gone``.

The payload is what the service worker (``celticsite/static/celtic/sw.js``) shows: a title
(the email's subject, rendered in the recipient's time zone), a line naming the event, and
the page to open (the game's, else the home page).
"""

from __future__ import annotations

import json
import logging
from datetime import datetime

import requests
from django.conf import settings
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from pywebpush import WebPushException, webpush

from accounts.selectors import profile_get
from accounts.services import push_device_forget
from notifications.email_context import context_load
from notifications.email_events import email_event_get
from notifications.models import OutboxPush
from notifications.push_queue import enqueue_push
from notifications.services import (
    CLAIM_LEASE,
    FLUSH_GRACE,
    SendOutcome,
    game_url,
    outbox_failure_record,
)

logger = logging.getLogger(__name__)

#: What the push service says of a subscription that no longer exists.
GONE_STATUSES = frozenset({404, 410})


def push_payload(row: OutboxPush) -> dict[str, str]:
    """The title, body and address the service worker shows for ``row``."""
    user = row.recipient
    profile = profile_get(user=user)
    context = context_load(row.context or {})
    url = game_url(row.game_id) if row.game_id else settings.SITE_URL + "/"
    context.update(
        event=row.event,
        recipient=user,
        recipient_name=profile.name,
        site_url=settings.SITE_URL,
        game_url=url if row.game_id else "",
        preferences_url=settings.SITE_URL + reverse("accounts:profile"),
        reply_token="",  # a push cannot be answered by email
    )
    with timezone.override(profile.time_zone):
        subject = render_to_string(f"notifications/{row.event}_subject.txt", context)
    title = " ".join(subject.split())[:200]
    return {"title": title, "body": email_event_get(row.event).label, "url": url}


def _claim(push_id: int, now: datetime) -> bool:
    claimable = Q(status=OutboxPush.Status.PENDING) | Q(
        status=OutboxPush.Status.SENDING, claimed_until__lt=now
    )
    claimed = OutboxPush.objects.filter(claimable, pk=push_id).update(
        status=OutboxPush.Status.SENDING,
        claimed_until=now + CLAIM_LEASE,
        attempts=F("attempts") + 1,
    )
    return claimed == 1


def outbox_push_send(*, push_id: int, now: datetime | None = None) -> SendOutcome:
    """Send one push if no one else has; safe to run twice (the second run skips)."""
    now = now or timezone.now()
    if not _claim(push_id, now):
        return SendOutcome("skipped")
    row = OutboxPush.objects.select_related("device", "recipient__profile").get(pk=push_id)
    device = row.device
    if device is None or not row.recipient.is_active:
        return _finish(row, OutboxPush.Status.GONE, now=now)
    try:
        payload = push_payload(row)
        webpush(
            subscription_info={
                "endpoint": device.endpoint,
                "keys": {"p256dh": device.p256dh, "auth": device.auth},
            },
            data=json.dumps(payload),
            vapid_private_key=settings.WEBPUSH_VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.WEBPUSH_VAPID_SUBJECT},
            ttl=settings.WEBPUSH_TTL,
            timeout=settings.WEBPUSH_TIMEOUT,
        )
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        if status in GONE_STATUSES:
            push_device_forget(endpoint=device.endpoint)
            return _finish(row, OutboxPush.Status.GONE, now=now, error=f"{status}: {exc}")
        return outbox_failure_record(row, exc, now=now, label="Push")
    except (requests.RequestException, ValueError) as exc:  # network, or a key it cannot use
        return outbox_failure_record(row, exc, now=now, label="Push")
    except Exception as exc:  # a template can raise anything; the row records it
        return outbox_failure_record(row, exc, now=now, label="Push")
    type(device).objects.filter(pk=device.pk).update(last_push_at=now)
    OutboxPush.objects.filter(pk=row.pk).update(title=payload["title"])
    return _finish(row, OutboxPush.Status.SENT, now=now)


def _finish(row: OutboxPush, status: str, *, now: datetime, error: str = "") -> SendOutcome:
    OutboxPush.objects.filter(pk=row.pk).update(
        status=status,
        claimed_until=None,
        sent_at=now if status == OutboxPush.Status.SENT else None,
        last_error=error[:2000],
    )
    return SendOutcome(str(status))


def push_outbox_flush(*, now: datetime | None = None) -> list[int]:
    """Queue again every push that should have been sent by now (a lost message, a dead
    worker's claim); returns their ids."""
    now = now or timezone.now()
    due = OutboxPush.objects.filter(
        Q(status=OutboxPush.Status.PENDING, next_attempt_at__lte=now - FLUSH_GRACE)
        | Q(status=OutboxPush.Status.SENDING, claimed_until__lt=now)
    ).order_by("next_attempt_at", "pk")
    ids = list(due.values_list("pk", flat=True)[:1000])
    for push_id in ids:
        enqueue_push(push_id)
    return ids
