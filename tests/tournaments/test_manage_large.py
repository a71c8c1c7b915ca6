"""The organiser's manage page of a large event lists the entries 100 at a time and one
round's games 100 at a time, as the event page does, instead of every form at once."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.tournaments.conftest import imported

pytestmark = pytest.mark.django_db
DASH = "\N{EN DASH}"


def fix_forms(html: str) -> int:
    return len(re.findall(r'action="/tournaments/\d+/manage/games/\d+/fix/"', html))


def test_the_manage_page_lists_entries_and_games_a_hundred_at_a_time(organiser):
    tournament = imported(organiser, players=202, rounds=2)
    client = Client()
    client.force_login(organiser)
    url = f"/tournaments/{tournament.pk}/manage/"
    first = client.get(url).content.decode()
    assert f"Entries 1{DASH}100 of 202" in first and 'href="?entries=2#entries-h"' in first
    assert f"Games 1{DASH}100 of 101" in first and fix_forms(first) == 100
    assert '<a href="?round=1#round-1">Show its 101 games</a>' in first
    last = client.get(url, {"entries": 3, "round": 1, "boards": 2}).content.decode()
    assert f"Entries 201{DASH}202 of 202" in last
    assert f"Games 101{DASH}101 of 101" in last and fix_forms(last) == 1
    assert '<a href="?round=2#round-2">Show its 101 games</a>' in last
