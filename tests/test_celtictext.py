"""The shared text helpers: points and places as people write them, names as a sentence
lists them (pure Python, no database)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from celtictext import and_join, ordinal, points


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(5, 2), "2½"),
        (Fraction(1, 2), "½"),
        (3, "3"),
        (0, "0"),
        (Decimal("1.0"), "1"),
        (Decimal("4.5"), "4½"),
        (2.5, "2½"),
        (Fraction(1, 3), "0.33"),
        (None, "\u2013"),
    ],
)
def test_points_are_written_with_halves(value, text):
    assert points(value) == text


@pytest.mark.parametrize(
    ("place", "text"),
    [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"),
     (13, "13th"), (21, "21st"), (22, "22nd"), (101, "101st"), (111, "111th")],
)  # fmt: skip
def test_places_are_words_of_order(place, text):
    assert ordinal(place) == text


def test_names_are_joined_with_and():
    assert [and_join(names) for names in ([], ["A"], ["A", "B"], ["A", "B", "C"])] == [
        "",
        "A",
        "A and B",
        "A, B and C",
    ]


def test_the_pages_filters_write_points_with_the_same_function():
    from rankings.templatetags.rankings import score
    from tournaments.templatetags.celtic_tournaments import points as points_filter

    values = [Fraction(5, 2), Fraction(1, 2), 3, 0, 1.5]
    assert (
        [score(v) for v in values]
        == [points_filter(v) for v in values]
        == [points(v) for v in values]
    )
