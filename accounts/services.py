"""Writes for accounts: sign-up, password resets, profile edits, API tokens, suspension.

Validation problems are raised as Django ``ValidationError`` with one message list per field
(the API answers 400 naming the field; forms show it next to the field). Refusals that are
not about a field are :mod:`celticsite.errors` domain errors.
"""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, nullcontext
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import AbstractUser, Group
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.http import urlsafe_base64_decode

from accounts import audit
from accounts.models import (
    ApiToken,
    CalendarFeed,
    Profile,
    PushDevice,
    Vacation,
    api_token_hash,
)
from accounts.selectors import profile_get, vacation_allowance, vacation_current
from accounts.signals import (
    password_reset_requested,
    pause_change_wrappers,
    signup_address_taken,
    signup_pending,
    user_suspended,
)
from accounts.validators import (
    username_skeleton,
    validate_country,
    validate_name_characters,
    validate_time_zone,
    validate_username_script,
)
from celticsite.errors import Conflict, DomainError, NotFound, NotPermitted
from moderation.services import audit_record

User = get_user_model()

# ``last_used_at`` is a hint for the owner, not a log: write it at most this often per token.
API_TOKEN_TOUCH_INTERVAL = timedelta(minutes=1)

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
    field.run_validators(username)  # Django's: letters, digits and @.+-_ only
    validate_username_script(username)
    taken = User.objects.filter(**{f"{User.USERNAME_FIELD}__iexact": username})
    if taken.exists():
        raise ValidationError("This username is taken (usernames ignore case).")
    skeleton = username_skeleton(username)
    if skeleton != username.lower():
        look_alike = User.objects.filter(**{f"{User.USERNAME_FIELD}__iexact": skeleton}).first()
        if look_alike is not None:
            raise ValidationError(
                f"This username looks like {look_alike.get_username()!r}, which is taken: "
                "choose one that reads differently."
            )


def _validate_display_name(display_name: str) -> None:
    Profile._meta.get_field("display_name").clean(display_name, None)
    validate_name_characters(display_name)


def _user_fields_check(
    *,
    username: str,
    email: str,
    password: str,
    display_name: str,
    country: str,
    time_zone: str,
    email_must_be_free: bool,
) -> None:
    """Raise ``ValidationError`` naming every bad field (all checked at once)."""
    candidate = User(username=username, email=email)
    errors: Errors = {}
    _check(errors, "username", lambda: _validate_username(username))
    if email_must_be_free:
        _check(errors, "email", lambda: _validate_email_free(email))
    else:
        _check(errors, "email", lambda: validate_email(email))
    _check(errors, "password", lambda: password_validation.validate_password(password, candidate))
    _check(errors, "country", lambda: validate_country(country))
    _check(errors, "time_zone", lambda: validate_time_zone(time_zone))
    _check(
        errors,
        "display_name",
        lambda: _validate_display_name(display_name),
    )
    if errors:
        raise ValidationError(errors)


def _user_fields_normalise(
    *, username: str, email: str, display_name: str, country: str, time_zone: str
) -> dict[str, str]:
    return {
        "username": unicodedata.normalize("NFKC", username.strip()),  # as Django stores it
        "email": User.objects.normalize_email(email.strip()),
        "display_name": display_name.strip(),
        "country": country.strip().upper(),
        "time_zone": time_zone.strip(),
    }


def _user_make(
    *,
    username: str,
    email: str,
    password: str | None,
    display_name: str,
    country: str,
    time_zone: str,
    pending_password: str = "",
) -> AbstractUser:
    """Insert the user and its profile (fields already checked)."""
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, email=email, password=password)
    except IntegrityError:  # lost a race with an identical sign-up
        raise ValidationError({"username": ["This username is taken."]}) from None
    Profile.objects.create(
        user=user,
        display_name=display_name,
        country=country,
        time_zone=time_zone,
        pending_password=pending_password,
    )
    return user


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
    ``AUTH_PASSWORD_VALIDATORS``. For accounts made by the site itself (demo data, admin
    tools, tests); people sign up with ``signup_request``.
    """
    fields = _user_fields_normalise(
        username=username,
        email=email,
        display_name=display_name,
        country=country,
        time_zone=time_zone,
    )
    _user_fields_check(**fields, password=password, email_must_be_free=True)
    return _user_make(**fields, password=password)


@transaction.atomic
def signup_request(
    *,
    username: str,
    email: str,
    password: str,
    display_name: str = "",
    country: str = "",
    time_zone: str = "UTC",
) -> None:
    """Sign up, answering the same whether or not an account already uses ``email``.

    Bad fields raise ``ValidationError`` as for ``user_create`` (a taken username too: names
    are public). A new address gets a pending account, whose password works only once the
    emailed link confirms the address (``signup_confirm``); an address in use gets nothing
    new, and its owner an email saying someone tried (or, if that account is itself still
    pending, its confirmation link again). Both ways hash the password, so both take as long.
    """
    fields = _user_fields_normalise(
        username=username,
        email=email,
        display_name=display_name,
        country=country,
        time_zone=time_zone,
    )
    _user_fields_check(**fields, password=password, email_must_be_free=False)
    password_hash = make_password(password)
    owner = User.objects.filter(email__iexact=fields["email"]).order_by("pk").first()
    if owner is None:
        user = _user_make(**fields, password=None, pending_password=password_hash)
        transaction.on_commit(lambda: signup_pending.send(sender=User, user=user))
    elif profile_get(user=owner).pending_password:
        transaction.on_commit(lambda: signup_pending.send(sender=User, user=owner))
    else:
        transaction.on_commit(lambda: signup_address_taken.send(sender=User, user=owner))


INVALID_SIGNUP_LINK = (
    "This link is invalid or has already been used. If your account is confirmed, log in; "
    "links expire after a few days: sign up again to get a new one."
)


@transaction.atomic
def signup_confirm(*, uidb64: str, token: str) -> AbstractUser:
    """Confirm a pending account's address from its emailed link; its password then works.

    The link works once (the token is bound to the password, which changes here), and not
    for a suspended account.
    """
    try:
        user_id = int(urlsafe_base64_decode(uidb64).decode())
    except (ValueError, UnicodeDecodeError):
        raise DomainError(INVALID_SIGNUP_LINK, code="invalid_signup_link") from None
    user = User.objects.select_for_update().filter(pk=user_id).first()
    profile = Profile.objects.filter(user=user).first() if user is not None else None
    if (
        user is None
        or profile is None
        or not profile.pending_password
        or not user.is_active
        or not default_token_generator.check_token(user, token)
    ):
        raise DomainError(INVALID_SIGNUP_LINK, code="invalid_signup_link")
    user.password = profile.pending_password
    user.save(update_fields=["password"])
    profile.pending_password = ""
    profile.save(update_fields=["pending_password"])
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
        _check(errors, "display_name", lambda: validate_name_characters(fields["display_name"]))
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


@contextmanager
def _deadlines_follow(*, user: AbstractUser, now: datetime) -> Iterator[None]:
    """Wrap a change to the user's pauses in what the apps above registered for it
    (``accounts.signals.pause_change_wrappers``): the games where ``user`` is to move keep
    their running time left across it."""
    with ExitStack() as stack:
        for wrapper in pause_change_wrappers(user=user, now=now):
            stack.enter_context(wrapper)
        yield


# Unconfirmed sign-ups are deleted this long after they were made (their links expire after
# PASSWORD_RESET_TIMEOUT, three days by default), so they do not hold usernames forever.
PENDING_SIGNUP_LIFETIME = timedelta(days=7)


def pending_signups_purge(*, now: datetime | None = None) -> int:
    """Delete the accounts whose address was never confirmed within
    ``PENDING_SIGNUP_LIFETIME``; returns how many. Such an account never logged in, so
    nothing else refers to it. Safe to run twice."""
    now = now or timezone.now()
    stale = User.objects.filter(
        profile__pending_password__gt="",
        last_login__isnull=True,
        date_joined__lt=now - PENDING_SIGNUP_LIFETIME,
    )
    deleted = 0
    for user in stale:
        user.delete()
        deleted += 1
    return deleted


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


# --- Calendar feed ------------------------------------------------------------------------


@transaction.atomic
def calendar_feed_renew(*, user: AbstractUser) -> CalendarFeed:
    """Give ``user`` a calendar address with a new secret (their first, or one that replaces
    the old: the old address answers 404 from now on)."""
    secret = secrets.token_urlsafe(CalendarFeed.SECRET_BYTES)
    feed, _ = CalendarFeed.objects.update_or_create(user=user, defaults={"secret": secret})
    return feed


def calendar_feed_delete(*, user: AbstractUser) -> None:
    """Turn ``user``'s calendar address off (nothing to do if they have none)."""
    CalendarFeed.objects.filter(user=user).delete()


# --- Web Push devices ---------------------------------------------------------------------


def push_device_add(
    *, user: AbstractUser, endpoint: str, p256dh: str, auth: str, name: str
) -> PushDevice:
    """Keep the push subscription a browser of ``user``'s gave (the same endpoint again, as
    after a browser renewed it, replaces the old keys, whoever had it)."""
    errors: Errors = {}
    for field, value in (("endpoint", endpoint), ("p256dh", p256dh), ("auth", auth)):
        _check(errors, field, lambda f=field, v=value: PushDevice._meta.get_field(f).clean(v, None))
    if not endpoint.startswith("https://"):
        errors.setdefault("endpoint", []).append("A push endpoint is an https:// address.")
    if errors:
        raise ValidationError(errors)
    previous = PushDevice.objects.filter(endpoint=endpoint).values_list("user_id", flat=True)
    owners = {*previous, user.pk}
    device, _ = PushDevice.objects.update_or_create(
        endpoint=endpoint,
        defaults={"user": user, "p256dh": p256dh, "auth": auth, "name": name[:100] or "Browser"},
    )
    _push_flags_sync(owners)
    return device


def _push_flags_sync(user_ids: set[int]) -> None:
    """Set ``Profile.has_push_devices`` of these users from their devices."""
    with_devices = set(
        PushDevice.objects.filter(user_id__in=user_ids).values_list("user_id", flat=True)
    )
    Profile.objects.filter(user_id__in=user_ids & with_devices).update(has_push_devices=True)
    Profile.objects.filter(user_id__in=user_ids - with_devices).update(has_push_devices=False)


def push_device_remove(*, user: AbstractUser, device_id: int) -> None:
    """Stop pushing to one of ``user``'s devices; anyone else's is not found."""
    deleted, _ = PushDevice.objects.filter(user=user, pk=device_id).delete()
    if not deleted:
        raise NotFound("You have no device with this id receiving notifications.")
    _push_flags_sync({user.pk})


def push_device_forget(*, endpoint: str) -> None:
    """Drop a subscription its push service says is gone (404 or 410)."""
    owners = set(PushDevice.objects.filter(endpoint=endpoint).values_list("user_id", flat=True))
    PushDevice.objects.filter(endpoint=endpoint).delete()
    _push_flags_sync(owners)


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
        action=audit.API_TOKEN_REVOKE,
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


def password_reset_request(*, email: str) -> None:
    """Ask for a reset link for every active account with a password using ``email``.

    Looks nothing up: once the caller's transaction commits, ``password_reset_requested``
    hands the address to a worker, which finds the accounts and queues their emails in the
    outbox. So the request does the same work, in the same time, whether or not an account
    uses the address, and the answer cannot tell who has an account.
    """
    request_id = secrets.token_hex(8)
    transaction.on_commit(
        lambda: password_reset_requested.send(sender=User, email=email, request_id=request_id)
    )


# --- Suspension, staff, superusers and groups ----------------------------------------------
# Every change to who may do what goes through here: the admin shows these flags read-only.
# Rules for all of them: the actor is active staff holding the permission, never acts on
# themselves, only a superuser touches a superuser, and a reason goes into the audit log.

SUSPEND_PERMISSION = "accounts.suspend_user"
REACTIVATE_PERMISSION = "accounts.reactivate_user"
STAFF_PERMISSION = "accounts.grant_staff"
GROUPS_PERMISSION = "accounts.change_user_groups"
SUPERUSER = "superuser"  # not a permission: only superusers grant or revoke it


def _check_may_moderate(
    *, user: AbstractUser, actor: AbstractUser, reason: str, permission: str, what: str
) -> str:
    """The reason, stripped, if ``actor`` may ``what`` ``user``; else a domain error."""
    allowed = actor.is_superuser if permission == SUPERUSER else actor.has_perm(permission)
    if not (actor.is_active and actor.is_staff and allowed):
        if permission == SUPERUSER:
            raise NotPermitted(f"Only a superuser may {what} users.")
        raise NotPermitted(f"Only moderators may {what} users.")
    if user.pk == actor.pk:
        raise NotPermitted(f"You cannot {what} yourself.")
    if user.is_superuser and not actor.is_superuser:
        raise NotPermitted(f"Only a superuser may {what} {user.get_username()}.")
    reason = reason.strip()
    if not reason:
        raise DomainError("Give a reason: it goes into the audit log.", code="reason_required")
    return reason


def _set_flag(
    *,
    user: AbstractUser,
    actor: AbstractUser,
    reason: str,
    permission: str,
    what: str,
    changes: dict[str, bool],
    refusal: str,
    action: str,
    data: Callable[[AbstractUser], dict[str, Any]] | None = None,
) -> AbstractUser:
    """Check the rules, lock the user, set ``changes`` (``refusal`` if the first already holds)
    and audit ``action``."""
    reason = _check_may_moderate(
        user=user, actor=actor, reason=reason, permission=permission, what=what
    )
    user = User.objects.select_for_update().get(pk=user.pk)
    field, value = next(iter(changes.items()))
    if getattr(user, field) == value:
        raise Conflict(refusal.format(name=user.get_username()))
    for name, new in changes.items():
        setattr(user, name, new)
    user.save(update_fields=list(changes))
    audit_record(
        actor=actor, action=action, target=user, reason=reason, data=data(user) if data else None
    )
    return user


@transaction.atomic
def user_suspend(*, user: AbstractUser, actor: AbstractUser, reason: str) -> AbstractUser:
    """Deactivate the account: no logins, no sessions, no API tokens until reactivated.

    Subscribers of ``accounts.signals.user_suspended`` act in the same transaction (the games
    app closes the user's open challenges and seeks).
    """
    user = _set_flag(
        user=user,
        actor=actor,
        reason=reason,
        permission=SUSPEND_PERMISSION,
        what="suspend or reactivate",
        changes={"is_active": False},
        refusal="{name} is already suspended.",
        action=audit.USER_SUSPEND,
        data=lambda u: {
            "active_api_tokens": ApiToken.objects.filter(user=u, revoked_at=None).count()
        },
    )
    user_suspended.send(sender=User, user=user, actor=actor, reason=reason.strip())
    return user


@transaction.atomic
def user_reactivate(*, user: AbstractUser, actor: AbstractUser, reason: str) -> AbstractUser:
    """Undo a suspension; the user's unrevoked API tokens work again (closed challenges stay
    closed)."""
    return _set_flag(
        user=user,
        actor=actor,
        reason=reason,
        permission=REACTIVATE_PERMISSION,
        what="suspend or reactivate",
        changes={"is_active": True},
        refusal="{name} is not suspended.",
        action=audit.USER_REACTIVATE,
    )


@transaction.atomic
def user_staff_grant(*, user: AbstractUser, actor: AbstractUser, reason: str) -> AbstractUser:
    """Let ``user`` log into the admin; what they may do there comes from their groups."""
    return _set_flag(
        user=user,
        actor=actor,
        reason=reason,
        permission=STAFF_PERMISSION,
        what="change the staff status of",
        changes={"is_staff": True},
        refusal="{name} is already staff.",
        action=audit.USER_STAFF_GRANT,
    )


@transaction.atomic
def user_staff_revoke(*, user: AbstractUser, actor: AbstractUser, reason: str) -> AbstractUser:
    """Shut ``user`` out of the admin (their groups stay, and count again if re-granted)."""
    return _set_flag(
        user=user,
        actor=actor,
        reason=reason,
        permission=STAFF_PERMISSION,
        what="change the staff status of",
        changes={"is_staff": False},
        refusal="{name} is not staff.",
        action=audit.USER_STAFF_REVOKE,
    )


@transaction.atomic
def user_superuser_grant(*, user: AbstractUser, actor: AbstractUser, reason: str) -> AbstractUser:
    """Make ``user`` a superuser (and staff): superusers only."""
    return _set_flag(
        user=user,
        actor=actor,
        reason=reason,
        permission=SUPERUSER,
        what="change the superuser status of",
        changes={"is_superuser": True, "is_staff": True},
        refusal="{name} is already a superuser.",
        action=audit.USER_SUPERUSER_GRANT,
    )


@transaction.atomic
def user_superuser_revoke(*, user: AbstractUser, actor: AbstractUser, reason: str) -> AbstractUser:
    """Take superuser status away (staff status stays): superusers only."""
    return _set_flag(
        user=user,
        actor=actor,
        reason=reason,
        permission=SUPERUSER,
        what="change the superuser status of",
        changes={"is_superuser": False},
        refusal="{name} is not a superuser.",
        action=audit.USER_SUPERUSER_REVOKE,
    )


def _permission_names(group: Group) -> list[str]:
    return sorted(
        f"{app_label}.{codename}"
        for app_label, codename in group.permissions.values_list(
            "content_type__app_label", "codename"
        )
    )


def _set_membership(
    *, user: AbstractUser, group: Group, actor: AbstractUser, reason: str, member: bool
) -> AbstractUser:
    """Check the rules, then put ``user`` in ``group`` (``member``) or take them out, audited.
    Adding needs the actor to hold every permission the group gives."""
    reason = _check_may_moderate(
        user=user,
        actor=actor,
        reason=reason,
        permission=GROUPS_PERMISSION,
        what="change the groups of",
    )
    lacking = [name for name in _permission_names(group) if not actor.has_perm(name)]
    if member and lacking:
        raise NotPermitted(
            f"You cannot add anyone to {group.name}: it gives permissions you do not hold "
            f"({', '.join(lacking)})."
        )
    user = User.objects.select_for_update().get(pk=user.pk)
    if user.groups.filter(pk=group.pk).exists() == member:
        state = "already" if member else "not"
        raise Conflict(f"{user.get_username()} is {state} in {group.name}.")
    (user.groups.add if member else user.groups.remove)(group)
    audit_record(
        actor=actor,
        action=audit.USER_GROUP_ADD if member else audit.USER_GROUP_REMOVE,
        target=user,
        reason=reason,
        data={"group": group.name, "group_id": group.pk},
    )
    return user


@transaction.atomic
def user_group_add(
    *, user: AbstractUser, group: Group, actor: AbstractUser, reason: str
) -> AbstractUser:
    """Put ``user`` in ``group``; the actor must hold every permission the group gives."""
    return _set_membership(user=user, group=group, actor=actor, reason=reason, member=True)


@transaction.atomic
def user_group_remove(
    *, user: AbstractUser, group: Group, actor: AbstractUser, reason: str
) -> AbstractUser:
    """Take ``user`` out of ``group``."""
    return _set_membership(user=user, group=group, actor=actor, reason=reason, member=False)
