"""Writes for notifications: queue an email in the outbox, send one, flush, digests.

``notify`` only writes a row, in the caller's transaction, and asks for it to be sent once
that transaction commits. The row holds the event and its template context as JSON
(``notifications.email_context``); nothing is rendered in the caller's request. Sending is
``outbox_email_send``, run by the Celery task of the same name: it claims the row with a
conditional UPDATE (so two workers never both send it), renders the email in the recipient's
time zone and keeps the text on the row, sends it outside any transaction, and records the
outcome. A rendering failure is recorded and retried like a failed send.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.mime.image import MIMEImage
from typing import Any, NamedTuple

from celery import signature
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.mail import EmailMultiAlternatives
from django.db import DatabaseError, IntegrityError, connections, transaction
from django.db.models import F, Q, prefetch_related_objects
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts.selectors import profile_get
from celticsite.celery import task_delay_on_commit
from notifications.email_context import context_dump, context_load
from notifications.email_events import Event, email_event_get
from notifications.models import OutboxEmail, OutboxPush
from notifications.position import BOARD_CID, position_for_email
from notifications.push_queue import push_notices_queue
from notifications.reply_tokens import SUBJECT_TAG

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
# A worker's claim on a row lasts this long, and the worker renews it every
# ``CLAIM_RENEW_EVERY`` while it renders and sends: a live worker keeps the row however slow
# SMTP is, and a worker killed mid-send loses it within a minute (``flush_outbox`` then queues
# the row again), instead of holding it for a fixed 10 minutes.
CLAIM_LEASE = timedelta(minutes=1)
CLAIM_RENEW_EVERY = timedelta(seconds=15)
# ``flush_outbox`` leaves a fresh row alone for this long: its on-commit message is on its way.
FLUSH_GRACE = timedelta(minutes=1)
#: The Celery tasks that send outbox rows (``notifications.tasks``), queued by name: the tasks
#: call these services, so the services do not import the task module.
SEND_TASK = "notifications.tasks.send_outbox_email"
SEND_MANY_TASK = "notifications.tasks.send_outbox_emails"

# Set inside ``outbox_muted()``: notify writes nothing and queues nothing.
_MUTED: ContextVar[bool] = ContextVar("outbox_muted", default=False)


@contextmanager
def outbox_muted() -> Iterator[None]:
    """Queue no email for what happens inside the block: for demo data made by a script
    (``seed_demo``, ``seed_demo_tournaments``), which is news for no one. No row is written and
    no message goes to the broker, so starting the server sends (and logs) nothing."""
    token = _MUTED.set(True)
    try:
        yield
    finally:
        _MUTED.reset(token)


def retry_delay(attempts: int) -> timedelta:
    """How long to wait after the ``attempts``-th failure: 1, 2, 4 … minutes, at most an hour."""
    return timedelta(minutes=min(2 ** max(attempts - 1, 0), 60))


def game_url(game_id: int) -> str:
    return f"{settings.SITE_URL}/games/{game_id}/"


def _render(event: str, context: Mapping[str, Any]) -> tuple[str, str, str]:
    """Subject, text body and HTML body of ``event``'s templates."""
    name = f"notifications/{event}"
    subject = " ".join(render_to_string(f"{name}_subject.txt", context).split())
    text = render_to_string(f"{name}.txt", context)
    return subject, text, render_to_string(f"{name}.html", context)


def notify(
    *,
    user: AbstractBaseUser,
    event: str,
    context: Mapping[str, Any],
    dedupe_key: str,
    reply_to: str = "",
    board_svg: str = "",
) -> OutboxEmail | None:
    """Queue ``event``'s email for ``user``; sent after the caller's transaction commits.

    Returns the row, or None when nothing is queued: the user turned this kind of email off,
    has no address, or an email with this ``dedupe_key`` was already queued. ``context`` is
    stored as JSON (``email_context.context_dump``; TypeError for a value it cannot store)
    and passed to the templates when the worker renders them; model instances in it are
    read again then, so pass what changes (a game's ply, deadline) as plain values. A
    ``game`` in it links the email to that game. ``reply_to``, if
    given, becomes the email's Reply-To header. ``board_svg``, if given, is sent as the PNG
    the HTML shows as ``cid:board@celtic`` (converted by the worker, not in the request).
    """
    _require_event(event)
    if _MUTED.get():
        return None
    notice = Notice(
        user=user,
        event=event,
        context=context,
        dedupe_key=dedupe_key,
        reply_to=reply_to,
        board_svg=board_svg,
    )
    push_notices_queue([notice])  # the same event to the player's devices, if they want it
    row = _outbox_row(notice)
    if row is None or not _outbox_insert(row):
        return None
    if not row.digest:
        enqueue_send(row.pk)
    return row


def _outbox_insert(row: OutboxEmail) -> bool:
    """Insert ``row`` unless an email with its ``dedupe_key`` is queued already; answers
    whether it was inserted (its ``pk`` set).

    A request racing this one with the same key between the check and the insert makes
    no second row and no error that would break the caller's transaction: the insert
    ignores the conflict (no savepoint needed) and ``row`` takes the other's id, whose
    email is still sent once (the send claims its row).
    """
    found = OutboxEmail.objects.filter(dedupe_key=row.dedupe_key)
    if found.exists():
        return False
    OutboxEmail.objects.bulk_create([row], ignore_conflicts=True)  # sets no pk: read it
    row.pk = found.values_list("pk", flat=True).get()
    return True


@dataclass(frozen=True)
class Notice:
    """One email to queue: what ``notify`` takes, for ``notify_many``."""

    user: AbstractBaseUser
    event: str
    context: Mapping[str, Any]
    dedupe_key: str
    reply_to: str = ""
    board_svg: str = ""


def _require_event(event: str) -> None:
    """UnknownEmailEvent (a ValueError) for an event no app registered."""
    email_event_get(event)


def _outbox_row(notice: Notice) -> OutboxEmail | None:
    """The unsaved row for ``notice``: the event and its context as JSON, rendered later by
    the worker; None when the recipient has no address, is suspended, or turned this kind
    of email off."""
    user, event = notice.user, email_event_get(notice.event)
    address = getattr(user, "email", "")
    if not address or not user.is_active:
        return None
    profile = profile_get(user=user)
    if event.preference and not getattr(profile, event.preference):
        return None
    return OutboxEmail(
        recipient=user,
        to_address=address,
        reply_to=notice.reply_to,
        event=event.key,
        game=notice.context.get("game"),
        context=context_dump(notice.context),
        board_svg=notice.board_svg,
        dedupe_key=notice.dedupe_key,
        digest=profile.email_digest and event.digest,
        next_attempt_at=timezone.now(),
    )


class EmailRenderError(Exception):
    """An outbox row's email cannot be rendered: an object it refers to is gone, or a
    template failed."""


class RenderedEmail(NamedTuple):
    """An outbox row's email as the worker renders it."""

    subject: str
    body_text: str
    body_html: str
    board_svg: str  # the board the HTML part shows inline (empty: none)


def outbox_email_render(row: OutboxEmail, *, board: bool = True) -> RenderedEmail:
    """Subject, text and HTML of ``row``'s email from its stored context, in the recipient's
    time zone as it is now, and the board it shows (drawn here when the context asks for a
    position, unless ``board`` is off, else the one stored on the row); EmailRenderError
    (with the cause) when that fails."""
    user = row.recipient
    try:
        profile = profile_get(user=user)
        context = context_load(row.context or {})
        position, board_svg = position_for_email(context, user=user, board=board)
        context.update(
            position,
            event=row.event,
            recipient=user,
            recipient_name=profile.name,
            site_url=settings.SITE_URL,
            game_url=game_url(row.game_id) if row.game_id else "",
            preferences_url=settings.SITE_URL + reverse("accounts:profile"),
        )
        with timezone.override(profile.time_zone):
            subject, body_text, body_html = _render(row.event, context)
    except Exception as exc:  # a template can raise anything; the row records it
        raise EmailRenderError(
            f"could not render the {row.event} email: {type(exc).__name__}: {exc}"
        ) from exc
    return RenderedEmail(subject[:200], body_text, body_html, board_svg or row.board_svg)


def outbox_email_unrendered(row: OutboxEmail) -> bool:
    """A row queued with a context the worker has not rendered yet (rows from before the
    context existed were rendered when queued)."""
    return row.context is not None and row.rendered_at is None


def _rendered_store(row: OutboxEmail, *, board: bool = True) -> None:
    """Render ``row`` and keep the email on it, so the admin shows what was sent (``board``:
    as ``outbox_email_render``)."""
    rendered = outbox_email_render(row, board=board)
    row.subject, row.body_text, row.body_html, row.board_svg = rendered
    row.rendered_at = timezone.now()
    OutboxEmail.objects.filter(pk=row.pk).update(**rendered._asdict(), rendered_at=row.rendered_at)


def enqueue_send(outbox_id: int) -> None:
    """Ask a worker to send the row, once the current transaction commits. A broker outage
    is logged, not raised: the row is safe in the database and ``flush_outbox`` queues it
    again."""
    task_delay_on_commit(
        signature(SEND_TASK),
        outbox_id,
        on_outage=f"Could not queue outbox email {outbox_id}; flush_outbox will retry",
    )


@dataclass(frozen=True)
class SendOutcome:
    """What one send attempt did. ``retry_in`` is set when the task should try again."""

    status: str  # "sent", "skipped", "retry" or "failed"
    retry_in: timedelta | None = None


def _claim(outbox_id: int, now: datetime) -> datetime | None:
    """Take the row for this worker: pending (or a stale claim), not a digest item. Returns
    the claim's expiry, which identifies the claim for its renewals; None if not taken."""
    claimable = Q(status=OutboxEmail.Status.PENDING) | Q(
        status=OutboxEmail.Status.SENDING, claimed_until__lt=now
    )
    held_until = now + CLAIM_LEASE
    claimed = OutboxEmail.objects.filter(claimable, pk=outbox_id, digest=False).update(
        status=OutboxEmail.Status.SENDING,
        claimed_until=held_until,
        attempts=F("attempts") + 1,
    )
    return held_until if claimed == 1 else None


def _claim_renew(outbox_id: int, held_until: datetime, *, now: datetime) -> datetime | None:
    """Extend the claim that expires at ``held_until`` to ``now + CLAIM_LEASE``; None when
    the row no longer holds that claim (it expired and another worker took the row)."""
    renewed_until = now + CLAIM_LEASE
    renewed = OutboxEmail.objects.filter(
        pk=outbox_id, status=OutboxEmail.Status.SENDING, claimed_until=held_until
    ).update(claimed_until=renewed_until)
    return renewed_until if renewed == 1 else None


def _claim_keep_renewing(outbox_id: int, held_until: datetime, stop: threading.Event) -> None:
    """Renew the claim every ``CLAIM_RENEW_EVERY`` until ``stop`` (run in its own thread, on
    its own database connection, closed at the end)."""
    try:
        while not stop.wait(CLAIM_RENEW_EVERY.total_seconds()):
            try:
                renewed = _claim_renew(outbox_id, held_until, now=timezone.now())
            except DatabaseError as exc:  # try again at the next tick, within the lease
                logger.warning("Outbox email %s: claim not renewed (%s)", outbox_id, exc)
                continue
            if renewed is None:
                logger.warning("Outbox email %s: the claim expired while sending", outbox_id)
                return
            held_until = renewed
    finally:
        connections.close_all()  # this thread's connections only


@contextmanager
def _claim_kept(outbox_id: int, held_until: datetime) -> Iterator[None]:
    """Keep the claim renewed while the block runs; the renewals stop before it returns."""
    stop = threading.Event()
    renewer = threading.Thread(
        target=_claim_keep_renewing,
        args=(outbox_id, held_until, stop),
        name=f"outbox-claim-{outbox_id}",
        daemon=True,
    )
    renewer.start()
    try:
        yield
    finally:
        stop.set()
        renewer.join()


def outbox_email_send(*, outbox_id: int, now: datetime | None = None) -> SendOutcome:
    """Send one outbox row if no one else has; safe to run twice (the second run skips).

    The claim is renewed while the row is rendered and sent (``CLAIM_LEASE``)."""
    now = now or timezone.now()
    held_until = _claim(outbox_id, now)
    if held_until is None:
        return SendOutcome("skipped")
    row = OutboxEmail.objects.select_related("recipient").get(pk=outbox_id)
    with _claim_kept(outbox_id, held_until):
        problem = _render_and_send(row)
    if problem is not None:
        return outbox_failure_record(row, problem, now=timezone.now(), label="Outbox email")
    OutboxEmail.objects.filter(pk=row.pk, status=OutboxEmail.Status.SENDING).update(
        status=OutboxEmail.Status.SENT, sent_at=timezone.now(), claimed_until=None
    )
    return SendOutcome("sent")


def _render_and_send(row: OutboxEmail) -> Exception | None:
    """Render the row if it is not yet, then send it; the error that stopped it, or None
    once the SMTP server took the message."""
    if outbox_email_unrendered(row):
        try:
            _rendered_store(row)
        except EmailRenderError as exc:
            return exc
    message = EmailMultiAlternatives(
        subject=row.subject,
        body=row.body_text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[row.to_address],
        reply_to=[row.reply_to] if row.reply_to else None,
        headers={"X-Celtic-Event": row.event, "X-Celtic-Outbox-Id": str(row.pk)},
    )
    if row.body_html:
        message.attach_alternative(row.body_html, "text/html")
    if row.board_svg and row.body_html:
        _board_image_attach(message, row.board_svg)
    try:
        message.send()
    except OSError as exc:  # smtplib.SMTPException, refused connections and timeouts
        return exc
    return None


def _board_image_attach(message: EmailMultiAlternatives, svg: str) -> None:
    """Attach the board as an inline PNG with the Content-ID the HTML part refers to; the
    message becomes multipart/related so mail clients show it in place, not as a file."""
    from games.png import board_png

    image = MIMEImage(board_png(svg), "png")
    image.add_header("Content-ID", f"<{BOARD_CID}>")
    image.add_header("Content-Disposition", "inline", filename="board.png")
    message.mixed_subtype = "related"
    message.attach(image)


def outbox_failure_record(
    row: OutboxEmail | OutboxPush, exc: Exception, *, now: datetime, label: str
) -> SendOutcome:
    """Record a failed attempt on an outbox row (an email or a push, named ``label`` in the
    log): pending again after :func:`retry_delay`, or failed for good after
    :data:`MAX_ATTEMPTS`. The claim is released either way."""
    rows = type(row).objects.filter(pk=row.pk)
    error = f"{type(exc).__name__}: {exc}"[:2000]
    if row.attempts >= MAX_ATTEMPTS:
        rows.update(status=row.Status.FAILED, last_error=error, claimed_until=None)
        logger.error("%s %s failed %s times; giving up: %s", label, row.pk, row.attempts, error)
        return SendOutcome("failed")
    delay = retry_delay(row.attempts)
    rows.update(
        status=row.Status.PENDING,
        last_error=error,
        claimed_until=None,
        next_attempt_at=now + delay,
    )
    logger.warning(
        "%s %s attempt %s failed (%s); retrying in %s", label, row.pk, row.attempts, error, delay
    )
    return SendOutcome("retry", retry_in=delay)


def outbox_flush(*, now: datetime | None = None) -> list[int]:
    """Queue again every row that should have been sent by now; returns their ids.

    Covers a broker that was down when the row's transaction committed, a retry message
    lost with the broker, and a worker that died holding a claim.
    """
    now = now or timezone.now()
    due = OutboxEmail.objects.filter(
        Q(status=OutboxEmail.Status.PENDING, next_attempt_at__lte=now - FLUSH_GRACE)
        | Q(status=OutboxEmail.Status.SENDING, claimed_until__lt=now),
        digest=False,
    ).order_by("next_attempt_at", "pk")
    ids = list(due.values_list("pk", flat=True)[:1000])
    for outbox_id in ids:
        enqueue_send(outbox_id)
    return ids


def digests_send(*, now: datetime | None = None) -> list[int]:
    """Collect each user's held digest items into one email; returns the digest rows' ids.

    Each user is done in a transaction of its own with their items locked, and every item
    points at the digest that carried it, so a second run finds nothing left to collect.
    """
    now = now or timezone.now()
    user_ids = (
        OutboxEmail.objects.filter(status=OutboxEmail.Status.PENDING, digest=True)
        .values_list("recipient_id", flat=True)
        .distinct()
    )
    created: list[int] = []
    for user_id in sorted(set(user_ids)):
        with transaction.atomic():
            items = list(
                OutboxEmail.objects.select_for_update(skip_locked=True, of=("self",))
                .filter(recipient_id=user_id, status=OutboxEmail.Status.PENDING, digest=True)
                .select_related("recipient", "game")
                .order_by("created_at", "pk")
            )
            if not items:
                continue
            digest = _digest_write(items, now=now)
            OutboxEmail.objects.filter(pk__in=[item.pk for item in items]).update(
                status=OutboxEmail.Status.SENT, sent_at=now, digest_email=digest
            )
            if digest is not None:
                created.append(digest.pk)
    return created


def _digest_write(items: list[OutboxEmail], *, now: datetime) -> OutboxEmail | None:
    """The digest row for ``items`` (all one user's); None when every item is out of date."""
    user = items[0].recipient
    # A turn that has since been played needs no reminder.
    current = [
        item
        for item in items
        if item.event != Event.YOUR_TURN
        or (
            item.game is not None
            and item.game.is_active
            and item.game.seat_to_move is not None
            and item.game.seat_of(user) == item.game.seat_to_move
        )
    ]
    if not current:
        return None
    for item in current:
        _digest_item_render(item)
    return notify(
        user=user,
        event=Event.DAILY_DIGEST,
        context={
            "items": [
                {
                    # A digest has no reply token, so the item's own tag would mislead.
                    "subject": SUBJECT_TAG.sub("", item.subject).strip(),
                    "url": game_url(item.game_id) if item.game_id else "",
                }
                for item in current
            ],
        },
        dedupe_key=f"{Event.DAILY_DIGEST}:{user.pk}:{items[-1].pk}",
    )


def _digest_item_render(item: OutboxEmail) -> None:
    """Render a held item (its subject is the digest's line); one that fails keeps the
    error and is listed by its event's name."""
    if not outbox_email_unrendered(item):
        return
    try:
        _rendered_store(item, board=False)  # only its subject is shown, as a digest line
    except EmailRenderError as exc:
        logger.warning("Digest item %s could not be rendered: %s", item.pk, exc)
        item.subject = email_event_get(item.event).label
        OutboxEmail.objects.filter(pk=item.pk).update(
            subject=item.subject, last_error=f"{type(exc).__name__}: {exc}"[:2000]
        )


def notify_many(*, notices: Sequence[Notice]) -> list[OutboxEmail]:
    """``notify`` for many emails at once (a tournament round starting): the recipients'
    profiles in one query, the dedupe keys already queued in one, one insert; after the
    commit a single task hands the rows to the workers, so the caller's request does not
    publish one broker message per email. Returns the rows queued."""
    if not notices or _MUTED.get():
        return []
    prefetch_related_objects([n.user for n in notices], "profile")
    push_notices_queue(notices)
    keys = [n.dedupe_key for n in notices]
    taken = set(
        OutboxEmail.objects.filter(dedupe_key__in=keys).values_list("dedupe_key", flat=True)
    )
    rows = []
    for notice in notices:
        if notice.dedupe_key in taken:
            continue
        taken.add(notice.dedupe_key)
        row = _outbox_row(notice)
        if row is not None:
            rows.append(row)
    try:
        with transaction.atomic():  # a savepoint: a lost dedupe race falls back to one by one
            rows = OutboxEmail.objects.bulk_create(rows)
    except IntegrityError:
        queued = [notify(**vars(notice)) for notice in notices]
        return [row for row in queued if row is not None]
    ids = [row.pk for row in rows if not row.digest]
    if ids:
        enqueue_send_many(ids)
    return rows


def enqueue_send_many(outbox_ids: list[int]) -> None:
    """One broker message, once the current transaction commits, that queues a send per row
    on the worker's side; on a broker outage the rows wait for ``flush_outbox``, as in
    ``enqueue_send``."""
    task_delay_on_commit(
        signature(SEND_MANY_TASK),
        outbox_ids,
        on_outage=f"Could not queue {len(outbox_ids)} outbox emails; flush_outbox will retry",
    )
