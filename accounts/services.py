"""Writes for accounts: sign-up, profile edits, API tokens, suspension.

Validation problems are raised as Django ``ValidationError`` with one message list per field
(the API answers 400 naming the field; forms show it next to the field). Refusals that are
not about a field are :mod:`celticsite.errors` domain errors.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from contextlib import nullcontext
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import ApiToken, Profile, Vacation, api_token_hash
from accounts.selectors import profile_get, vacation_allowance, vacation_current
from accounts.validators import validate_country, validate_time_zone
from celticsite.errors import Conflict, DomainError, NotFound, NotPermitted
from moderation.models import AuditAction
from moderation.services import audit_record

User = get_user_model()

# ``last_used_at`` is a hint for the owner, not a log: write it at most this often per token.
API_TOKEN_TOUCH_INTERVAL = timedelta(minutes=1)
# The permission a moderator needs to suspend or reactivate users.
SUSPEND_PERMISSION = "auth.change_user"

DUPLICATE_TOKEN_NAME = "You already have an active token with this name; pick another."

Errors = dict[str, list[str]]


def _check(errors: Errors, field: str, validate: Callable[[], None]) -> None:
    """Run ``validate`` and file its messages under ``field``."""
    try:
        validate()
    except ValidationError as exc:
        errors.setdefault(field, []).extend(exc.messages)


def _validate_email_free(email: str, *, exclude_user: AbstractUser | None = None) -> None:
    validate_email(email)
    others = User.objects.filter(email__iexact=email)
    if exclude_user is not None:
        others = others.exclude(pk=exclude_user.pk)
    if others.exists():
        raise ValidationError("An account with this email address already exists.")


def _validate_username(username: str) -> None:
    field = User._meta.get_field(User.USERNAME_FIELD)
    if not username:
        raise ValidationError("A username is required.")
    field.run_validators(username)
    if User.objects.filter(**{f"{User.USERNAME_FIELD}__iexact": username}).exists():
        raise ValidationError("This username is taken (usernames ignore case).")


@transaction.atomic
def user_create(
    *,
    username: str,
    email: str,
    password: str,
    display_name: str = "",
    country: str = "",
    time_zone: str = "UTC",
) -> AbstractUser:
    """Create an active user with a profile, or raise ``ValidationError`` naming each field.

    Usernames and emails are unique ignoring case; the password must pass the project's
    ``AUTH_PASSWORD_VALIDATORS``.
    """
    username = username.strip()
    email = User.objects.normalize_email(email.strip())
    country = country.strip().upper()
    time_zone = time_zone.strip()
    candidate = User(username=username, email=email)

    errors: Errors = {}
    _check(errors, "username", lambda: _validate_username(username))
    _check(errors, "email", lambda: _validate_email_free(email))
    _check(errors, "password", lambda: password_validation.validate_password(password, candidate))
    _check(errors, "country", lambda: validate_country(country))
    _check(errors, "time_zone", lambda: validate_time_zone(time_zone))
    _check(
        errors,
        "display_name",
        lambda: Profile._meta.get_field("display_name").clean(display_name.strip(), None),
    )
    if errors:
        raise ValidationError(errors)

    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, email=email, password=password)
    except IntegrityError:  # lost a race with an identical sign-up
        raise ValidationError({"username": ["This username is taken."]}) from None
    Profile.objects.create(
        user=user, display_name=display_name.strip(), country=country, time_zone=time_zone
    )
    return user


@transaction.atomic
def profile_update(*, user: AbstractUser, **fields: Any) -> Profile:
    """Change any of ``Profile.EDITABLE_FIELDS`` and the user's ``email``.

    Unknown field names are a programming error (``TypeError``); bad values raise
    ``ValidationError`` naming the field.
    """
    unknown = set(fields) - {*Profile.EDITABLE_FIELDS, "email"}
    if unknown:
        raise TypeError(f"profile_update() got unexpected fields: {', '.join(sorted(unknown))}")
    profile = profile_get(user=user)
    errors: Errors = {}

    email = fields.pop("email", None)
    if email is not None:
        email = User.objects.normalize_email(email.strip())
        _check(errors, "email", lambda: _validate_email_free(email, exclude_user=user))
    if "country" in fields:
        fields["country"] = fields["country"].strip().upper()
    if "display_name" in fields:
        fields["display_name"] = fields["display_name"].strip()
    zone_changed = fields.get("time_zone", profile.time_zone) != profile.time_zone
    for name, value in fields.items():
        setattr(profile, name, value)
    try:
        profile.full_clean(exclude=["user"])
    except ValidationError as exc:
        for field, messages in exc.message_dict.items():
            errors.setdefault(field, []).extend(messages)
    if errors:
        raise ValidationError(errors)

    with _deadlines_follow(user=user, now=timezone.now()) if zone_changed else nullcontext():
        profile.save()
    if email is not None and email != user.email:
        user.email = email
        user.save(update_fields=["email"])
    return profile


def _deadlines_follow(*, user: AbstractUser, now: datetime) -> Any:
    """The games where ``user`` is to move keep their running time left across a change to
    the user's pauses (see ``games.services.clock_pauses_changing``)."""
    from games.services import clock_pauses_changing  # games builds on accounts, not back

    return clock_pauses_changing(user=user, now=now)


# --- Vacations ----------------------------------------------------------------------------


def _days_text(amount: timedelta) -> str:
    days = Decimal(amount.total_seconds() / 86400).quantize(Decimal("0.01"))
    return f"{days.normalize():f} day{'s' * (days != 1)}"


def _lock_user(user: AbstractUser) -> None:
    """Serialise one user's vacation changes (two tabs cannot both start one)."""
    User.objects.select_for_update().filter(pk=user.pk).first()


@transaction.atomic
def vacation_start(
    *, user: AbstractUser, days: Decimal | int, now: datetime | None = None
) -> Vacation:
    """Start a vacation of ``days`` (may be fractional) now; the user's clocks stop at once.

    Refused when the user is already on vacation, ``days`` is not above zero, or it is more
    than the days left this year.
    """
    now = now or timezone.now()
    _lock_user(user)
    allowance = vacation_allowance(user=user, now=now)
    if allowance.current is not None:
        raise Conflict(
            f"You are already on vacation until {allowance.current.ends_at:%Y-%m-%d %H:%M} UTC; "
            "end it before starting another.",
            code="already_on_vacation",
        )
    if days <= 0:
        raise DomainError(
            f"days is {days}: expected a number of days greater than 0.",
            code="invalid_vacation_days",
        )
    length = timedelta(days=float(days))
    if allowance.left <= timedelta(0):
        raise Conflict(
            f"You have no vacation days left in {allowance.year} "
            f"({allowance.days_per_year} a year, all used); they renew on 1 January (UTC).",
            code="no_vacation_days_left",
        )
    if length > allowance.left:
        raise DomainError(
            f"days is {days}: you have {_days_text(allowance.left)} of vacation left in "
            f"{allowance.year}; ask for at most that.",
            code="too_many_vacation_days",
        )
    with _deadlines_follow(user=user, now=now):
        return Vacation.objects.create(user=user, started_at=now, ends_at=now + length)


@transaction.atomic
def vacation_end(*, user: AbstractUser, now: datetime | None = None) -> Vacation:
    """End the running vacation now; the unused days go back to the year's allowance."""
    now = now or timezone.now()
    _lock_user(user)
    vacation = vacation_current(user=user, now=now)
    if vacation is None:
        raise Conflict("You are not on vacation: there is nothing to end.", code="not_on_vacation")
    with _deadlines_follow(user=user, now=now):
        if now > vacation.started_at:
            vacation.ends_at = now
            vacation.save(update_fields=["ends_at"])
        else:  # ended the moment it began: as if never taken
            vacation.delete()
            vacation.ends_at = now
    return vacation


# --- API tokens ---------------------------------------------------------------------------


def _validate_token_name(*, user: AbstractUser, name: str) -> None:
    ApiToken._meta.get_field("name").clean(name, None)
    if ApiToken.objects.filter(user=user, name=name, revoked_at=None).exists():
        raise ValidationError(DUPLICATE_TOKEN_NAME)


@transaction.atomic
def api_token_create(*, user: AbstractUser, name: str) -> tuple[ApiToken, str]:
    """A new token and its raw key. The key is not stored: show it now or never."""
    name = name.strip()
    errors: Errors = {}
    _check(errors, "name", lambda: _validate_token_name(user=user, name=name))
    if errors:
        raise ValidationError(errors)
    key = secrets.token_urlsafe(30)
    try:
        with transaction.atomic():
            token = ApiToken.objects.create(
                user=user,
                name=name,
                key_prefix=key[: ApiToken.PREFIX_LENGTH],
                key_hash=api_token_hash(key),
            )
    except IntegrityError:  # lost a race with a request creating the same name
        raise ValidationError({"name": [DUPLICATE_TOKEN_NAME]}) from None
    return token, key


@transaction.atomic
def api_token_revoke(*, user: AbstractUser, token_id: int) -> ApiToken:
    """Revoke one of the user's own tokens (the row stays). Revoking twice is harmless."""
    token = ApiToken.objects.select_for_update().filter(user=user, pk=token_id).first()
    if token is None:
        raise NotFound("You have no API token with this id.")
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


@transaction.atomic
def api_token_revoke_as_moderator(
    *, token: ApiToken, actor: AbstractUser, reason: str = ""
) -> ApiToken:
    """Revoke someone's token from the admin, and record who did it."""
    token = ApiToken.objects.select_for_update().select_related("user").get(pk=token.pk)
    if token.revoked_at is not None:
        raise Conflict(f"Token {token} was already revoked.")
    token.revoked_at = timezone.now()
    token.save(update_fields=["revoked_at"])
    audit_record(
        actor=actor,
        action=AuditAction.API_TOKEN_REVOKE,
        target=token.user,
        reason=reason,
        data={"token_id": token.pk, "token_name": token.name, "key_prefix": token.key_prefix},
    )
    return token


def api_token_mark_used(*, token: ApiToken) -> None:
    """Note that the token was just used, unless that was noted under a minute ago."""
    now = timezone.now()
    if token.last_used_at is not None and now - token.last_used_at < API_TOKEN_TOUCH_INTERVAL:
        return
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    token.last_used_at = now


# --- Password reset -----------------------------------------------------------------------


def password_reset_request(*, email: str, domain: str, use_https: bool) -> None:
    """Email a reset link if an active account with a usable password has this address.

    Says nothing either way, so callers cannot learn which addresses have accounts. The link
    points at the web page ``accounts:password_reset_confirm`` on ``domain``.
    """
    form = PasswordResetForm({"email": email})
    if not form.is_valid():
        return
    form.save(
        domain_override=domain,
        use_https=use_https,
        subject_template_name="accounts/password_reset_subject.txt",
        email_template_name="accounts/password_reset_email.txt",
    )


# --- Suspension ---------------------------------------------------------------------------


def _check_may_moderate(*, user: AbstractUser, actor: AbstractUser, reason: str) -> str:
    if not (actor.is_active and actor.is_staff and actor.has_perm(SUSPEND_PERMISSION)):
        raise NotPermitted("Only moderators may suspend or reactivate users.")
    if user.pk == actor.pk:
        raise NotPermitted("You cannot suspend or reactivate yourself.")
    if user.is_superuser and not actor.is_superuser:
        raise NotPermitted(f"Only a superuser may suspend or reactivate {user.get_username()}.")
    reason = reason.strip()
    if not reason:
        raise DomainError("Give a reason: it goes into the audit log.", code="reason_required")
    return reason


@transaction.atomic
def user_suspend(*, user: AbstractUser, actor: AbstractUser, reason: str) -> AbstractUser:
    """Deactivate the account: no logins, no sessions, no API tokens until reactivated."""
    reason = _check_may_moderate(user=user, actor=actor, reason=reason)
    user = User.objects.select_for_update().get(pk=user.pk)
    if not user.is_active:
        raise Conflict(f"{user.get_username()} is already suspended.")
    user.is_active = False
    user.save(update_fields=["is_active"])
    active_tokens = ApiToken.objects.filter(user=user, revoked_at=None).count()
    audit_record(
        actor=actor,
        action=AuditAction.USER_SUSPEND,
        target=user,
        reason=reason,
        data={"active_api_tokens": active_tokens},
    )
    return user


@transaction.atomic
def user_reactivate(*, user: AbstractUser, actor: AbstractUser, reason: str) -> AbstractUser:
    """Undo a suspension; the user's unrevoked API tokens work again."""
    reason = _check_may_moderate(user=user, actor=actor, reason=reason)
    user = User.objects.select_for_update().get(pk=user.pk)
    if user.is_active:
        raise Conflict(f"{user.get_username()} is not suspended.")
    user.is_active = True
    user.save(update_fields=["is_active"])
    audit_record(actor=actor, action=AuditAction.USER_REACTIVATE, target=user, reason=reason)
    return user
