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
