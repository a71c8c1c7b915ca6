"""The registry of email events: which emails exist, and how a player chooses to get them.

An outbox row's ``event`` is a plain text field; what it may hold is decided here, not by a
choice list, so a new email needs no migration. Each app registers its own emails in its
``AppConfig.ready()`` (``email_event_register``): notifications those of games, of accounts,
the digest and the answers to emails; tournaments, leagues and ladders theirs. ``notify``
refuses an event no one registered. An event's templates are
``notifications/<key>_subject.txt``, ``<key>.txt`` and ``<key>.html``, wherever the app keeps
them on the template path.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import models

#: The longest key the outbox's ``event`` column holds.
KEY_LENGTH = 40


@dataclass(frozen=True)
class EmailEvent:
    """One kind of email: its key (stored on the row), what the admin calls it, the profile
    switch that allows it (empty: always sent) and whether a player who asked for the daily
    digest gets it there instead of at once."""

    key: str
    label: str
    preference: str = ""
    digest: bool = False


class UnknownEmailEvent(ValueError):
    """An email event that no app registered."""


_REGISTRY: dict[str, EmailEvent] = {}


def email_event_register(
    *, key: str, label: str, preference: str = "", digest: bool = False
) -> EmailEvent:
    """Register an email event (from ``AppConfig.ready()``); registering the same one again
    changes nothing, another one under a taken key is an error."""
    if not key or len(key) > KEY_LENGTH:
        raise ValueError(f"email event key {key!r}: 1 to {KEY_LENGTH} characters")
    event = EmailEvent(key=key, label=label, preference=preference, digest=digest)
    known = _REGISTRY.setdefault(key, event)
    if known != event:
        raise ValueError(f"email event {key!r} is already registered as {known}")
    return event


def email_events_register(
    choices: type[models.TextChoices], *, preferences: dict[str, str], digest: frozenset[str]
) -> None:
    """Register every member of ``choices`` (key and label), each with its profile switch
    from ``preferences`` (none if missing) and, if in ``digest``, held for the digest."""
    for choice in choices:
        email_event_register(
            key=choice.value,
            label=str(choice.label),
            preference=preferences.get(choice.value, ""),
            digest=choice.value in digest,
        )


def email_event_get(key: str) -> EmailEvent:
    """The registered event ``key``; UnknownEmailEvent (naming the known ones) if none."""
    try:
        return _REGISTRY[key]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise UnknownEmailEvent(
            f"email event {key!r} is not registered (an app registers its emails in its "
            f"AppConfig.ready()); registered: {known}"
        ) from None


def email_events() -> list[EmailEvent]:
    """Every registered email event, by label."""
    return sorted(_REGISTRY.values(), key=lambda event: event.label)


class Event(models.TextChoices):
    """The emails of notifications itself: games', accounts', the digest, answers to email.

    Not a field's choices: the keys and labels registered in ``NotificationsConfig.ready()``.
    """

    YOUR_TURN = "your_turn", "Your turn"
    CHALLENGE_RECEIVED = "challenge_received", "Challenge received"
    CHALLENGE_ACCEPTED = "challenge_accepted", "Challenge accepted"
    CHALLENGE_DECLINED = "challenge_declined", "Challenge declined"
    GAME_STARTED = "game_started", "Game started"
    GAME_FINISHED = "game_finished", "Game finished"
    GAME_MESSAGE = "game_message", "Message in a game"
    DEADLINE_REMINDER = "deadline_reminder", "Deadline reminder"
    DAILY_DIGEST = "daily_digest", "Daily digest"
    EMAIL_MOVE_REPLY = "email_move_reply", "Answer to a move by email"
    CHALLENGE_REPLY = "challenge_reply", "Answer to a challenge answered by email"
    PASSWORD_RESET = "password_reset", "Password reset link"
    SIGNUP_CONFIRM = "signup_confirm", "Sign-up: confirm the address"
    SIGNUP_ADDRESS_TAKEN = "signup_address_taken", "Sign-up with an address in use"


def notifications_emails_register() -> None:
    """Register notifications' own emails, with the profile switch of each."""
    email_events_register(
        Event,
        preferences={
            Event.YOUR_TURN: "notify_turn",
            Event.GAME_STARTED: "notify_turn",
            Event.DEADLINE_REMINDER: "notify_turn",
            Event.CHALLENGE_RECEIVED: "notify_challenge",
            Event.CHALLENGE_ACCEPTED: "notify_challenge",
            Event.CHALLENGE_DECLINED: "notify_challenge",
            Event.GAME_FINISHED: "notify_game_end",
            Event.GAME_MESSAGE: "notify_message",
        },
        # A deadline reminder or a challenge cannot wait a day: sent at once.
        digest=frozenset({Event.YOUR_TURN}),
    )
