"""Validators for profile fields, shared by the model, the services and the forms."""

from __future__ import annotations

import zoneinfo
from functools import cache

from django.core.exceptions import ValidationError

from accounts.countries import COUNTRIES


@cache
def time_zone_names() -> frozenset[str]:
    """IANA time zone names this host knows (read once: the scan touches the filesystem)."""
    return frozenset(zoneinfo.available_timezones())


def time_zone_choices() -> list[tuple[str, str]]:
    return [(name, name) for name in sorted(time_zone_names())]


def validate_country(value: str) -> None:
    if value and value not in COUNTRIES:
        raise ValidationError(
            "%(value)r is not an ISO 3166-1 alpha-2 country code: expected two letters "
            "such as 'IE' or 'FR', or blank.",
            code="invalid_country",
            params={"value": value},
        )


def validate_time_zone(value: str) -> None:
    if value not in time_zone_names():
        raise ValidationError(
            "%(value)r is not an IANA time zone name: expected a name such as "
            "'Europe/Dublin' or 'UTC'.",
            code="invalid_time_zone",
            params={"value": value},
        )


MAX_REMINDERS = 4
MAX_REMINDER_HOURS = 14 * 24


def validate_reminder_hours(value: object) -> None:
    """A list of at most four distinct whole hours, each from 1 to 336 (two weeks)."""
    expected = (
        f"expected a list of at most {MAX_REMINDERS} whole numbers of hours from 1 to "
        f"{MAX_REMINDER_HOURS}, such as [24, 2], or [] for no reminders"
    )
    if not isinstance(value, list) or len(value) > MAX_REMINDERS:
        raise ValidationError(
            "%(value)r is not a list of reminder times: %(expected)s.",
            code="invalid_reminder_hours",
            params={"value": value, "expected": expected},
        )
    for hours in value:
        if isinstance(hours, bool) or not isinstance(hours, int):
            raise ValidationError(
                "%(hours)r is not a whole number of hours: %(expected)s.",
                code="invalid_reminder_hours",
                params={"hours": hours, "expected": expected},
            )
        if not 1 <= hours <= MAX_REMINDER_HOURS:
            raise ValidationError(
                "%(hours)s hours is out of range: %(expected)s.",
                code="invalid_reminder_hours",
                params={"hours": hours, "expected": expected},
            )
    if len(set(value)) != len(value):
        raise ValidationError(
            "%(value)r repeats a reminder time: %(expected)s.",
            code="invalid_reminder_hours",
            params={"value": value, "expected": expected},
        )
