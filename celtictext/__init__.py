"""Text helpers shared across the apps: messages about bad input (the rules engines and the
API), and points and places written as people write them (pages and emails alike).

Pure Python (no Django, no app), in a package of its own at the bottom of the layers, so that
both the rules engines (``games.kinds.celtic``) and the API's edge (``celticsite.api``) can use them
without either importing the other (or the rules engine importing ``celticsite``, whose
package starts the Celery app).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Final

QUOTE_LIMIT: Final = 40
"""The most characters of the input an error message quotes."""


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` for a message, with a long string (or repr) cut to ``limit`` characters
    and ``…`` marking the cut, so that messages about huge input stay short."""
    if isinstance(value, str):
        return repr(value if len(value) <= limit else value[:limit] + "…")
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def json_kind(value: object) -> str:
    """How a message names the JSON type of ``value``: ``"a string"``, ``"null"``, ..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def points(value: Fraction | Decimal | int | float | None) -> str:
    """Points as people write them: ``3``, ``½``, ``2½``; thirds and the like as decimals
    (``0.33``); None as an en dash."""
    if value is None:
        return "\u2013"
    exact = Fraction(value).limit_denominator(1000)
    whole, rest = divmod(exact, 1)
    if rest == 0:
        return str(whole)
    if rest == Fraction(1, 2):
        return f"{whole or ''}½"
    return f"{float(exact):.2f}"


def ordinal(place: int) -> str:
    """A place as a word of order: ``1st``, ``2nd``, ``3rd``, ``11th``, ``22nd``."""
    teens = place % 100 in (11, 12, 13)
    suffix = "th" if teens else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def and_join(names: Sequence[str]) -> str:
    """Names as a sentence lists them: ``"A"``, ``"A and B"``, ``"A, B and C"``."""
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"
