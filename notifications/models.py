"""The outbox: one row per email to send, written in the transaction that caused it.

A row is the durable record of an email; the Celery message that asks a worker to send it is
only a hint. If the broker is down when the transaction commits, ``flush_outbox`` finds the
row later and sends it, so nothing is lost.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class OutboxEmail(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        SENDING = "sending", "Being sent"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="outbox_emails"
    )
    to_address = models.EmailField(help_text="The recipient's address when the row was written.")
    event = models.CharField(
        max_length=40,
        help_text="Which email: a key of the registry of email events "
        "(notifications.email_events), which each app fills in its ready().",
    )
    game = models.ForeignKey(
        "games.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    reply_to = models.CharField(
        max_length=254, blank=True, help_text="Reply-To address, e.g. for moves by email."
    )
    context = models.JSONField(
        null=True,
        blank=True,
        help_text="The templates' context as queued (see notifications.email_context); the "
        "worker renders subject and bodies from it. Empty on rows rendered when queued.",
    )
    rendered_at = models.DateTimeField(
        null=True, blank=True, help_text="When the worker rendered subject and bodies."
    )
    subject = models.CharField(max_length=200)
    body_text = models.TextField()
    body_html = models.TextField(blank=True)
    board_svg = models.TextField(
        blank=True,
        help_text="The position as SVG; the worker sends it as the PNG the HTML shows "
        "(cid:board@celtic).",
    )
    dedupe_key = models.CharField(
        max_length=200,
        unique=True,
        help_text="One email per event, e.g. your_turn:<game>:<ply>:<user>.",
    )
    digest = models.BooleanField(
        default=False, help_text="Held for the recipient's daily digest instead of sent alone."
    )
    digest_email = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="digest_items",
        help_text="The digest email that carried this item.",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    next_attempt_at = models.DateTimeField(
        help_text="Earliest time flush_outbox hands the row to a worker again."
    )
    claimed_until = models.DateTimeField(
        null=True, blank=True, help_text="A worker is sending it; after this the claim is stale."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "outbox email"
        constraints = [
            models.CheckConstraint(
                condition=Q(status="sent", sent_at__isnull=False)
                | (~Q(status="sent") & Q(sent_at__isnull=True)),
                name="outboxemail_sent_at_iff_sent",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "digest", "next_attempt_at"]),
            models.Index(fields=["recipient", "status", "digest"]),
        ]

    def __str__(self) -> str:
        return f"{self.event} → {self.to_address} ({self.status})"


class InboundEmail(models.Model):
    """One email received for a move by email, and what was done with it.

    The unique ``message_id`` makes handling idempotent: a message delivered twice (a retrying
    mail server, an IMAP poll that ran twice) is handled once.
    """

    class Outcome(models.TextChoices):
        MOVED = "moved", "Move played"
        ACCEPTED = "accepted", "Challenge accepted"
        DECLINED = "declined", "Challenge declined"
        REFUSED = "refused", "Refused (the sender was told why)"
        MALFORMED = "malformed", "Malformed (dropped)"

    message_id = models.CharField(
        max_length=255, unique=True, help_text="The Message-ID header, or a hash of the message."
    )
    from_address = models.CharField(max_length=254, blank=True)
    subject = models.CharField(max_length=200, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="inbound_emails",
    )
    game = models.ForeignKey(
        "games.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    ply = models.PositiveIntegerField(null=True, blank=True, help_text="The ply the token was for.")
    notation = models.CharField(max_length=100, blank=True, help_text="The move as written.")
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    reason = models.CharField(
        max_length=40, blank=True, help_text="Machine-readable reason, e.g. illegal_move."
    )
    detail = models.TextField(blank=True, help_text="What the sender was told, or why dropped.")
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-received_at", "-id"]
        verbose_name = "inbound email"

    def __str__(self) -> str:
        return f"{self.from_address or '?'}: {self.outcome}"


class OutboxPush(models.Model):
    """One Web Push to send to one device, written in the transaction that caused it, like
    an outbox email: the Celery message that sends it is only a hint (``flush_push_outbox``
    finds a row whose message was lost)."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        SENDING = "sending", "Being sent"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"
        GONE = "gone", "Device gone (unsubscribed)"

    device = models.ForeignKey(
        "accounts.PushDevice", on_delete=models.SET_NULL, null=True, related_name="+"
    )
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="outbox_pushes"
    )
    event = models.CharField(max_length=40, help_text="A key of the registry of email events.")
    game = models.ForeignKey(
        "games.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    context = models.JSONField(help_text="The templates' context as queued, as for emails.")
    title = models.CharField(max_length=200, blank=True, help_text="As rendered when sent.")
    dedupe_key = models.CharField(
        max_length=220, unique=True, help_text="One push per event and device."
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    next_attempt_at = models.DateTimeField()
    claimed_until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "outbox push"
        indexes = [models.Index(fields=["status", "next_attempt_at"])]

    def __str__(self) -> str:
        return f"{self.event} → device #{self.device_id} ({self.status})"
