"""The API's detail of a large event is bounded: its first 200 entries and the games of its
first rounds within 200; every entry and game is at ``entries/`` and ``games/``, a page at
a time, hidden like the detail for a private event (``tournaments.listing``)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.tournaments.conftest import imported
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def large(organiser) -> Tournament:
    """202 players, two rounds of 101 games."""
    return imported(organiser, players=202, rounds=2)


def test_the_detail_lists_the_first_entries_and_the_games_within_its_budget(large):
    detail = Client().get(f"/api/v1/tournaments/{large.pk}/").json()
    assert detail["entry_count"] == 202 and len(detail["entries"]) == 200
    assert [e["seed"] for e in detail["entries"]] == list(range(1, 201))
    first, second = detail["rounds"]
    assert (first["game_count"], first["games_listed"], len(first["games"])) == (101, True, 101)
    assert (second["game_count"], second["games_listed"], second["games"]) == (101, False, [])


def test_a_small_event_lists_everything_in_its_detail(organiser):
    small = imported(organiser, players=20, rounds=3)
    detail = Client().get(f"/api/v1/tournaments/{small.pk}/").json()
    assert detail["entry_count"] == len(detail["entries"]) == 20
    assert [(r["games_listed"], len(r["games"])) for r in detail["rounds"]] == [(True, 10)] * 3


def test_every_entry_a_page_at_a_time(large):
    url = f"/api/v1/tournaments/{large.pk}/entries/"
    first = Client().get(url).json()
    assert first["count"] == 202 and len(first["results"]) == 100
    last = Client().get(url, {"page": 3}).json()
    assert [e["seed"] for e in last["results"]] == [201, 202] and last["next"] is None
    assert Client().get(url, {"page": 4}).status_code == 404
    assert Client().get(url, {"page_size": 101}).status_code == 400


def test_the_games_of_a_round_a_page_at_a_time(large):
    url = f"/api/v1/tournaments/{large.pk}/games/"
    assert Client().get(url).json()["count"] == 202
    first = Client().get(url, {"round": 2}).json()
    assert first["count"] == 101 and len(first["results"]) == 100
    assert {g["round"] for g in first["results"]} == {2}
    assert [g["board"] for g in first["results"]] == list(range(1, 101))
    rest = Client().get(first["next"]).json()["results"]
    assert [(g["round"], g["board"]) for g in rest] == [(2, 101)]


def test_a_round_that_is_not_there_or_not_a_number(large):
    url = f"/api/v1/tournaments/{large.pk}/games/"
    missing = Client().get(url, {"round": 3})
    assert missing.status_code == 404 and missing.json()["code"] == "round_not_found"
    assert "has no round 3" in missing.json()["detail"]
    wrong = Client().get(url, {"round": "last"})
    assert wrong.status_code == 400
    assert "'last' is not a round number: expected a whole number from 1." in str(wrong.json())


def test_a_private_event_hides_its_lists_like_its_detail(organiser):
    hidden = imported(organiser, players=4, rounds=1)
    Tournament.objects.filter(pk=hidden.pk).update(public=False)
    organisers = Client()
    organisers.force_login(organiser)
    for path in ("", "entries/", "games/"):
        url = f"/api/v1/tournaments/{hidden.pk}/{path}"
        assert Client().get(url).status_code == 404, url
        assert organisers.get(url).status_code == 200, url
