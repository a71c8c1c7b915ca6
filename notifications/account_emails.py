"""Account emails, queued in the outbox: password-reset links, sign-up confirmations, and the
notice to an address owner that someone tried to sign up with it.

The receivers are connected to ``accounts.signals`` in ``NotificationsConfig.ready``.
"""

from __future__ import annotations

from typing import Any

from celery import signature
from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from celticsite.celery import task_delay_on_commit
from notifications.email_events import Event
from notifications.models import OutboxEmail
from notifications.services import notify

#: The task that finds the accounts of a reset request, queued by name: it calls this module.
PASSWORD_RESET_TASK = "notifications.tasks.queue_password_reset"


def _one_time_url(url_name: str, user: Any) -> str:
    """A link to ``url_name`` with the user's id and a token bound to their password."""
    path = reverse(
        url_name,
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user),
        },
    )
    return settings.SITE_URL + path


def _this_hour() -> str:
    return f"{timezone.now():%Y%m%d%H}"


@transaction.atomic
def password_reset_emails_queue(*, email: str, request_id: str) -> list[OutboxEmail]:
    """A reset link for each active account with a usable password using ``email`` (none
    for an unknown address). Safe to run twice: one email per request and account."""
    rows = []
    for user in PasswordResetForm().get_users(email):
        row = notify(
            user=user,
            event=Event.PASSWORD_RESET,
            context={"reset_url": _one_time_url("accounts:password_reset_confirm", user)},
            dedupe_key=f"{Event.PASSWORD_RESET}:{request_id}:{user.pk}",
        )
        if row is not None:
            rows.append(row)
    return rows


@transaction.atomic
def signup_confirmation_queue(*, user: Any) -> OutboxEmail | None:
    """The link that confirms a pending account's address; at most one an hour."""
    return notify(
        user=user,
        event=Event.SIGNUP_CONFIRM,
        context={"confirm_url": _one_time_url("accounts:signup_confirm", user)},
        dedupe_key=f"{Event.SIGNUP_CONFIRM}:{user.pk}:{_this_hour()}",
    )


@transaction.atomic
def signup_address_taken_queue(*, user: Any) -> OutboxEmail | None:
    """Tell the owner someone tried to sign up with their address; at most one an hour, so
    sign-ups cannot flood them."""
    return notify(
        user=user,
        event=Event.SIGNUP_ADDRESS_TAKEN,
        context={
            "login_url": settings.SITE_URL + reverse("accounts:login"),
            "reset_url": settings.SITE_URL + reverse("accounts:password_reset"),
        },
        dedupe_key=f"{Event.SIGNUP_ADDRESS_TAKEN}:{user.pk}:{_this_hour()}",
    )


# --- Receivers of accounts.signals ---------------------------------------------------------


def on_password_reset_requested(sender: Any, *, email: str, request_id: str, **_: Any) -> None:
    """Hand the address to a worker, which looks it up. A broker outage is logged: the person
    sees no email and can ask again."""
    task_delay_on_commit(
        signature(PASSWORD_RESET_TASK),
        email,
        request_id,
        on_outage=f"Could not queue password reset request {request_id}",
    )


def on_signup_pending(sender: Any, *, user: Any, **_: Any) -> None:
    signup_confirmation_queue(user=user)


def on_signup_address_taken(sender: Any, *, user: Any, **_: Any) -> None:
    signup_address_taken_queue(user=user)


__all__ = [
    "on_password_reset_requested",
    "on_signup_address_taken",
    "on_signup_pending",
    "password_reset_emails_queue",
    "signup_address_taken_queue",
    "signup_confirmation_queue",
]
