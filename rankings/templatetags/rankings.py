"""Display helpers for ratings: whole numbers, signed changes, scores."""

from __future__ import annotations

from django import template

import celtictext
from rankings.serializers import rounded

register = template.Library()


@register.filter
def rating(value: float | None) -> str:
    """1523.4999 -> "1523" (rounded half up); None -> an en dash."""
    return "\u2013" if value is None else str(rounded(value))


@register.filter
def signed(value: float | None) -> str:
    """A rating or rank change with its sign: +12, 0, and a true minus sign for -3."""
    if value is None:
        return ""
    whole = rounded(value)
    if whole > 0:
        return f"+{whole}"
    return f"\u2212{-whole}" if whole < 0 else "0"


@register.filter
def score(value: float) -> str:
    """A score as people write it: 1, ½, 0, 2½ (``celtictext.points``, as everywhere)."""
    return celtictext.points(value)
