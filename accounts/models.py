"""Player profiles and API tokens. Users themselves are Django's ``auth.User``."""

from __future__ import annotations

import hashlib
from typing import ClassVar

from django.conf import settings
from django.db import models

from accounts.validators import validate_country, validate_reminder_hours, validate_time_zone


def default_reminder_hours() -> list[int]:
    return [24, 2]


#: The push switches, one per email switch (``notify_turn`` → ``push_turn``): an event whose
#: email a switch allows is also pushed to the player's devices if its push switch is on.
PUSH_FIELDS: tuple[str, ...] = ("push_turn", "push_challenge", "push_game_end", "push_message")


class Profile(models.Model):
    """What a player shows others and how they want to be told about their games."""

    # Every notification preference, in display order. To add one: a BooleanField below, its
    # name here, and a migration; the API, the profile page and the admin read this tuple.
    NOTIFICATION_FIELDS: ClassVar[tuple[str, ...]] = (
        "notify_turn",
        "notify_challenge",
        "notify_game_end",
        "notify_message",
        "email_digest",
        *PUSH_FIELDS,
    )
    EDITABLE_FIELDS: ClassVar[tuple[str, ...]] = (
        "display_name",
        "country",
        "time_zone",
        *NOTIFICATION_FIELDS,
        "reminder_hours",
        "confirm_moves",
    )

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(
        max_length=50, blank=True, help_text="Shown to other players instead of the username."
    )
    country = models.CharField(
        max_length=2,
        blank=True,
        validators=[validate_country],
        help_text="ISO 3166-1 alpha-2 code, e.g. IE.",
    )
    time_zone = models.CharField(
        max_length=64,
        default="UTC",
        validators=[validate_time_zone],
        help_text="IANA name, e.g. Europe/Dublin; deadlines are shown in it.",
    )
    notify_turn = models.BooleanField("email when it is my turn", default=True)
    notify_challenge = models.BooleanField("email when someone challenges me", default=True)
    notify_game_end = models.BooleanField("email when a game of mine ends", default=True)
    notify_message = models.BooleanField("email when I get a message", default=True)
    push_turn = models.BooleanField(
        "push to my devices when it is my turn (and deadline reminders)", default=True
    )
    push_challenge = models.BooleanField(
        "push when someone challenges me (and rounds and seasons start)", default=True
    )
    push_game_end = models.BooleanField("push when a game of mine ends", default=True)
    push_message = models.BooleanField("push when I get a message", default=True)
    # Kept by the PushDevice services, so queuing a notification for a player without a
    # device costs no query (a move's answer waits for its notifications' rows).
    has_push_devices = models.BooleanField(default=False, editable=False)
    reminder_hours = models.JSONField(
        default=default_reminder_hours,
        blank=True,  # [] is a valid choice: no reminders
        validators=[validate_reminder_hours],
        help_text="Hours before a deadline to send a reminder, e.g. [24, 2]; [] for none.",
    )
    email_digest = models.BooleanField(
        "one daily digest instead of an email per event",
        default=False,
        help_text="Collects the notifications above into one email a day.",
    )
    confirm_moves = models.BooleanField(
        "ask me to confirm each move",
        default=True,
        help_text="On the game page a clicked tile is first shown on the board; "
        "a second click on Confirm plays it.",
    )
    # Sign-up keeps the chosen password's hash here, and the account's own password unusable,
    # until the emailed link confirms the address (``accounts.services.signup_confirm``).
    pending_password = models.CharField(max_length=128, blank=True, editable=False)

    class Meta:
        # Permissions over users live here: ``auth.User`` is Django's and takes none of ours.
        # Each is checked by a service in accounts/services.py, and by its admin action.
        permissions = [
            ("suspend_user", "Can suspend users (moderators)"),
            ("reactivate_user", "Can reactivate suspended users (moderators)"),
            ("grant_staff", "Can grant and revoke staff status"),
            ("change_user_groups", "Can add users to groups and remove them"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        """The name to show: the display name, else the username."""
        return self.display_name or self.user.get_username()


def api_token_hash(key: str) -> str:
    """SHA-256 of a raw key: the only form of the key the database holds."""
    return hashlib.sha256(key.encode()).hexdigest()


class ApiToken(models.Model):
    """A named key for scripts and clients; the raw key is shown once, at creation."""

    PREFIX_LENGTH: ClassVar[int] = 8

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100)
    key_prefix = models.CharField(
        max_length=PREFIX_LENGTH, help_text="The key's first characters, to tell keys apart."
    )
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "API token"
        permissions = [("revoke_apitoken", "Can revoke other users' API tokens (moderators)")]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "name"],
                condition=models.Q(revoked_at__isnull=True),
                name="accounts_apitoken_unique_active_name",
                violation_error_message="You already have an active token with this name.",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.key_prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class Vacation(models.Model):
    """A stretch of time when a player's clocks stop in every game that allows vacations.

    ``ends_at`` is known from the start (the player's days left, or an earlier date they chose),
    so deadlines can be computed ahead; ending a vacation early moves ``ends_at`` to that moment.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    started_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-started_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("started_at")),
                name="vacation_ends_after_start",
            )
        ]
        indexes = [models.Index(fields=["user", "ends_at"])]

    def __str__(self) -> str:
        return f"Vacation of {self.user} from {self.started_at:%Y-%m-%d}"


class CalendarFeed(models.Model):
    """The secret of a player's private calendar address (an iCalendar feed of their
    deadlines and event dates). Whoever knows the address can read the feed, so the profile
    page can renew the secret, which kills the old address at once.

    The secret is kept as it is (not hashed, unlike API keys): the profile page shows the
    address again whenever the player needs to paste it into another calendar.
    """

    SECRET_BYTES: ClassVar[int] = 32

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed"
    )
    secret = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now=True, help_text="When the secret was last made.")

    def __str__(self) -> str:
        return f"Calendar feed of {self.user}"


class PushDevice(models.Model):
    """A browser on one of the player's devices that accepts Web Push (W3C Push API): the
    subscription it gave (its push service's endpoint and its encryption keys)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_devices"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100, help_text="The browser's public key (base64url).")
    auth = models.CharField(max_length=50, help_text="The browser's auth secret (base64url).")
    name = models.CharField(max_length=100, help_text="What the player sees, e.g. the browser.")
    created_at = models.DateTimeField(auto_now_add=True)
    last_push_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.name} of {self.user}"
