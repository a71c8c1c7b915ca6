"""Reads for accounts."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from accounts.models import ApiToken, CalendarFeed, Profile, PushDevice, Vacation, api_token_hash

Interval = tuple[datetime, datetime]


def profile_get(*, user: AbstractBaseUser) -> Profile:
    """The user's profile, created with defaults if missing (e.g. after ``createsuperuser``)."""
    try:
        return user.profile  # type: ignore[attr-defined]
    except Profile.DoesNotExist:
        profile, _ = Profile.objects.get_or_create(user=user)
        return profile


def api_token_list(*, user: AbstractBaseUser) -> QuerySet[ApiToken]:
    """The user's tokens that still work, newest first."""
    return ApiToken.objects.filter(user=user, revoked_at=None)


def api_token_get_by_key(*, key: str) -> ApiToken | None:
    """The token (revoked or not) whose raw key is ``key``, with its user, or ``None``."""
    return ApiToken.objects.select_related("user").filter(key_hash=api_token_hash(key)).first()


def calendar_feed_get(*, user: AbstractBaseUser) -> CalendarFeed | None:
    """``user``'s calendar address, or None if they have not made one."""
    return CalendarFeed.objects.filter(user=user).first()


def calendar_feed_owner(*, secret: str) -> AbstractBaseUser | None:
    """The active user whose calendar address has ``secret``, or None (unknown, renewed,
    turned off, or the account suspended)."""
    if not secret:
        return None
    feed = CalendarFeed.objects.select_related("user__profile").filter(secret=secret).first()
    if feed is None or not feed.user.is_active:
        return None
    return feed.user


def push_device_list(*, user: AbstractBaseUser) -> QuerySet[PushDevice]:
    """``user``'s devices that receive push notifications, oldest first."""
    return PushDevice.objects.filter(user=user)


# --- Vacations ----------------------------------------------------------------------------


@dataclass(frozen=True)
class VacationAllowance:
    """A player's vacation days in the current calendar year (UTC)."""

    year: int
    days_per_year: int
    used: timedelta
    current: Vacation | None

    @property
    def left(self) -> timedelta:
        return max(timedelta(0), timedelta(days=self.days_per_year) - self.used)


def vacation_days_per_year() -> int:
    return int(getattr(settings, "CELTIC_VACATION_DAYS_PER_YEAR", 30))


def vacation_current(*, user: AbstractBaseUser, now: datetime) -> Vacation | None:
    """The vacation running at ``now``, if any."""
    return Vacation.objects.filter(user=user, started_at__lte=now, ends_at__gt=now).first()


def vacation_allowance(*, user: AbstractBaseUser, now: datetime) -> VacationAllowance:
    """Days per year, days used this year and the current vacation.

    A vacation counts against the year it starts in, for its whole planned length while it
    runs and for the time it really lasted once ended early.
    """
    year = now.astimezone(UTC).year
    started_this_year = Vacation.objects.filter(
        user=user,
        started_at__gte=datetime(year, 1, 1, tzinfo=UTC),
        started_at__lt=datetime(year + 1, 1, 1, tzinfo=UTC),
    )
    used = sum((v.ends_at - v.started_at for v in started_this_year), timedelta(0))
    return VacationAllowance(
        year=year,
        days_per_year=vacation_days_per_year(),
        used=used,
        current=vacation_current(user=user, now=now),
    )


def vacation_list_recent(*, user: AbstractBaseUser, limit: int = 10) -> QuerySet[Vacation]:
    """The user's latest vacations, newest first."""
    return Vacation.objects.filter(user=user)[:limit]


def vacation_intervals(*, user: AbstractBaseUser, since: datetime) -> tuple[Interval, ...]:
    """The user's vacations that end after ``since``, as ``(start, end)`` pairs."""
    rows = Vacation.objects.filter(user=user, ends_at__gt=since).order_by("started_at")
    return tuple(rows.values_list("started_at", "ends_at"))


def vacation_intervals_by_user(
    *, user_ids: Iterable[int] | None, since: datetime
) -> dict[int, tuple[Interval, ...]]:
    """``vacation_intervals`` of many users (``None``: of everyone) in one query, by user id;
    users without such a vacation are left out."""
    found: dict[int, list[Interval]] = defaultdict(list)
    rows = Vacation.objects.filter(ends_at__gt=since)
    if user_ids is not None:
        rows = rows.filter(user_id__in=set(user_ids))
    for user_id, start, end in rows.order_by("user_id", "started_at").values_list(
        "user_id", "started_at", "ends_at"
    ):
        found[user_id].append((start, end))
    return {user_id: tuple(intervals) for user_id, intervals in found.items()}


def profile_time_zones(*, users: Iterable[AbstractBaseUser]) -> dict[int, str]:
    """Each user's time zone name, by user id (one query; the default without a profile)."""
    default = Profile._meta.get_field("time_zone").get_default()
    zones = {user.pk: default for user in users}
    rows = Profile.objects.filter(user__in=list(zones)).values_list("user_id", "time_zone")
    zones.update(rows)
    return zones
