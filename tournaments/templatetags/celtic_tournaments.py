"""Template filters of the tournament pages: points and results with halves, tie-break names,
the colours' names."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from django import template

import celtictext
from tournaments.tables import COLOURS

register = template.Library()

TIEBREAK_NAMES = {
    "bh": "Buchholz",
    "bh_c1": "Buchholz cut 1",
    "bh_m1": "Median Buchholz",
    "sb": "Sonneborn-Berger",
    "de": "Direct encounter",
    "win": "Rounds won (byes and forfeits included)",
    "won": "Games won over the board",
    "bpg": "Games played with {second}",  # the second colour: Blue in Celtic!
    "ks": "Koya system",
    "ps": "Progressive score",
    "aro": "Average rating of opponents",
}


@register.filter
def points(value: Fraction | int | float | None) -> str:
    """2½ for 5/2, 3 for 3, ⅓ fractions as decimals; an empty value as a dash (as the emails
    write them: ``celtictext.points``)."""
    return celtictext.points(value)


@register.filter
def result(value: str) -> str:
    """A game's result as the pages write points: ½-½ for the stored 1/2-1/2."""
    return value.replace("1/2", "½")


@register.filter
def colour_name(colour: str, colour_names: Sequence[str]) -> str:
    """The name of a pairing's colour (``tables.COLOURS``: orange, blue) in the event's game
    kind (``colour_names``: ``Tournament.colour_names``; Celtic!: Orange, Blue)."""
    return colour_names[COLOURS.index(colour)]


@register.filter
def tiebreak_name(code: str, colour_names: Sequence[str] = ("Orange", "Blue")) -> str:
    """The tie-break's name; one that names a colour names it as the event's kind does
    (``colour_names``: ``Tournament.colour_names``)."""
    name = TIEBREAK_NAMES.get(code)
    return code if name is None else name.format(second=colour_names[1])


@register.filter
def get_item(mapping: dict, key: str) -> object:
    return mapping.get(key)
