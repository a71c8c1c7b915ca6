"""Text helpers for messages about bad input, shared by the rules engines and the API.

Pure Python (no Django, no app), in a package of its own at the bottom of the layers, so that
both the rules engines (``games.rules``) and the API's edge (``celticsite.api``) can use them
without either importing the other (or the rules engine importing ``celticsite``, whose
package starts the Celery app).
"""

from __future__ import annotations

from collections.abc import Mapping
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
