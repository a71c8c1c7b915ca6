"""Validators for profile fields, shared by the model, the services and the forms."""

from __future__ import annotations

import unicodedata
import zoneinfo
from functools import cache

from confusable_homoglyphs import categories, confusables
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


# --- Names ------------------------------------------------------------------------------------

#: Combining marks allowed in a row on one letter (Vietnamese stacks two; "Zalgo" text, 20).
MAX_COMBINING_MARKS = 3
_INVISIBLE = {"Cc": "a control character", "Cf": "an invisible formatting character"}


def validate_name_characters(value: str) -> None:
    """Refuse what makes a name show as something else: control and formatting characters
    (Unicode Cc and Cf: right-to-left overrides, zero-width spaces and joiners) and more than
    ``MAX_COMBINING_MARKS`` combining marks stacked on one letter."""
    run = 0
    for char in value:
        category = unicodedata.category(char)
        if category in _INVISIBLE:
            raise ValidationError(
                "The name contains %(kind)s (U+%(code)04X): use visible letters, digits, "
                "spaces and punctuation only.",
                code="invisible_character",
                params={"kind": _INVISIBLE[category], "code": ord(char)},
            )
        run = run + 1 if category in {"Mn", "Me"} else 0
        if run > MAX_COMBINING_MARKS:
            raise ValidationError(
                "The name stacks more than %(most)s accents or other combining marks on one "
                "letter.",
                code="stacked_marks",
                params={"most": MAX_COMBINING_MARKS},
            )


def validate_username_script(username: str) -> None:
    """Refuse a username that mixes scripts with look-alike letters (a Latin r with a
    Cyrillic a, a Greek omicron among Latin letters): Unicode's confusables (UTS #39)."""
    if confusables.is_dangerous(username):
        scripts = sorted(categories.unique_aliases(username) - {"COMMON"})
        raise ValidationError(
            "The username mixes scripts whose letters look alike (%(scripts)s): write it in "
            "one script.",
            code="mixed_script",
            params={"scripts": ", ".join(script.title() for script in scripts)},
        )


def username_skeleton(username: str) -> str:
    """``username`` with each letter of another script that looks like a Latin one written
    as that Latin letter, lower case: two usernames with one skeleton read alike."""
    found = confusables.is_confusable(username, greedy=True, preferred_aliases=["latin"])
    latin = {
        entry["character"]: entry["homoglyphs"][0]["c"]
        for entry in found or []
        if entry["alias"] not in {"LATIN", "COMMON"}
    }
    return "".join(latin.get(char, char) for char in username).lower()
