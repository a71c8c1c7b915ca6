"""League divisions among the tournaments: the tournaments list leaves them out (they are
listed by their seasons), their own pages say which league and season they belong to, a
player's page keeps them, and the API shows them with their league unless filtered out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from leagues import services
from leagues.models import Division, Season
from tests.accounts.factories import PASSWORD, make_user
from tests.leagues.conftest import T0, play_division
from tests.tournaments.conftest import finish, register_all
from tournaments import services as tournament_services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

API = "/api/v1/tournaments/"


def login(user: User) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def running_season(organiser: User, name: str, users: list[User]) -> Season:
    """A league whose first season runs: divisions of three, the best first in ``users``."""
    league = services.league_create(
        organiser=organiser,
        name=name,
        first_registration_opens_at=T0,
        division_size=3,
        division_min_size=3,
        promotion_count=1,
        relegation_count=1,
    )
    season = league.seasons.get()
    for user in users:
        services.season_register(season_id=season.pk, user=user)
    services.leagues_advance(now=season.starts_at)
    season.refresh_from_db()
    assert season.status == "running"
    return season


def event(organiser: User, name: str, players: Sequence[User] = (), **settings: Any) -> Tournament:
    """A round robin of its own, open for registration with ``players`` registered."""
    tournament = tournament_services.tournament_create(
        organiser=organiser, name=name, min_players=2, **settings
    )
    tournament_services.tournament_registration_open(tournament_id=tournament.pk, actor=organiser)
    register_all(tournament, list(players))
    return tournament


def start(tournament: Tournament, organiser: User) -> Tournament:
    tournament_services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    return Tournament.objects.get(pk=tournament.pk)


@pytest.fixture
def world(organiser, clock, commit) -> dict[str, Any]:
    """Season 1 of "Club League": Division 1 finished, Division 2 running; and events of
    their own taking registrations, running, finished, and a draft."""
    users = [make_user(f"m{i}") for i in range(1, 7)]
    season = running_season(organiser, "Club League", users)
    clock(season.starts_at)
    top, bottom = season.divisions.order_by("tier")
    play_division(top, users[:3], commit=commit)
    top.tournament.refresh_from_db()
    assert (top.tournament.status, bottom.tournament.status) == ("finished", "running")
    guests = [make_user(f"g{i}") for i in range(1, 5)]
    event(organiser, "Samhain Open")
    running = start(event(organiser, "Beltane RR", guests[:2]), organiser)
    finished = start(event(organiser, "Imbolc Cup", guests[2:]), organiser)
    finish(finished.games.get().game, "1-0", commit=commit)
    assert Tournament.objects.get(pk=finished.pk).status == "finished"
    tournament_services.tournament_create(organiser=organiser, name="Lammas Draft")
    return {
        "season": season,
        "top": top,
        "bottom": bottom,
        "users": users,
        "guests": guests,
        "running": running,
    }


def names(rows: Any) -> list[str]:
    return [t.name for t in rows]


# --- Pages -------------------------------------------------------------------------------------


def test_the_tournaments_list_leaves_league_divisions_out_of_every_section(world, organiser):
    for client in (Client(), login(organiser), login(world["users"][3])):
        page = client.get("/tournaments/")
        assert page.status_code == 200
        assert names(page.context["open"]) == ["Samhain Open"]
        assert names(page.context["running"]) == ["Beltane RR"]
        assert names(page.context["finished"]) == ["Imbolc Cup"]
        html = page.content.decode()
        assert "Club League" not in html
        assert 'under <a href="/leagues/">Leagues</a>' in html
    organiser_page = login(organiser).get("/tournaments/")
    assert names(organiser_page.context["drafts"]) == ["Lammas Draft"]


def test_a_division_page_names_its_league_season_and_links_to_it(world):
    season, bottom = world["season"], world["bottom"]
    page = Client().get(f"/tournaments/{bottom.tournament_id}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert (
        f'Division 2 of <a href="/leagues/seasons/{season.pk}/">Club League, season 1</a>' in html
    )
    own = Client().get(f"/tournaments/{world['running'].pk}/").content.decode()
    assert "/leagues/seasons/" not in own and " of <a " not in own


def test_a_players_page_keeps_their_division_marked_as_league(world, organiser):
    season, top = world["season"], world["top"]
    player = world["users"][0]
    other = event(organiser, "Yule Open", [player])
    page = Client().get(f"/players/{player.username}/")
    assert names(page.context["tournaments"]) == ["Yule Open", top.tournament.name]
    html = page.content.decode()
    tag = (
        f'<a class="tag" href="/leagues/seasons/{season.pk}/" '
        f'title="Division 1 of Club League season 1">league</a>'
    )
    assert html.count(tag) == 1
    row = html[html.index(f"/tournaments/{other.pk}/") :]
    assert row[: row.index("</tr>")].count('class="tag"') == 0  # an event of its own


# --- API ---------------------------------------------------------------------------------------


def listed(client: APIClient, query: str = "") -> list[dict[str, Any]]:
    answer = client.get(f"{API}{query}")
    assert answer.status_code == 200, answer.json()
    return answer.json()["results"]


def test_the_api_lists_divisions_with_their_league_unless_filtered_out(world):
    season, top, bottom = world["season"], world["top"], world["bottom"]
    client = APIClient()
    in_club_league = {
        "rookie": False,
        "league": {"id": season.league_id, "name": "Club League"},
        "season": {"id": season.pk, "number": 1},
    }
    everything = {row["name"]: row["league_division"] for row in listed(client)}
    assert everything == {
        top.tournament.name: {"id": top.pk, "name": "Division 1", "tier": 1, **in_club_league},
        bottom.tournament.name: {
            "id": bottom.pk,
            "name": "Division 2",
            "tier": 2,
            **in_club_league,
        },
        "Samhain Open": None,
        "Beltane RR": None,
        "Imbolc Cup": None,
    }
    own = listed(client, "?league_division=false")
    assert sorted(row["name"] for row in own) == ["Beltane RR", "Imbolc Cup", "Samhain Open"]
    divisions = listed(client, "?league_division=true")
    assert sorted(row["league_division"]["tier"] for row in divisions) == [1, 2]
    running = listed(client, "?status=running&league_division=false")
    assert [row["name"] for row in running] == ["Beltane RR"]
    running_divisions = listed(client, "?status=running&league_division=true")
    assert [row["name"] for row in running_divisions] == [bottom.tournament.name]
    assert [row["name"] for row in listed(client, "?status=finished&league_division=false")] == [
        "Imbolc Cup"
    ]


def test_the_api_detail_says_whether_the_event_is_a_division(world):
    bottom, running = world["bottom"], world["running"]
    client = APIClient()
    division = client.get(f"{API}{bottom.tournament_id}/").json()["league_division"]
    assert (division["id"], division["name"], division["season"]["number"]) == (
        bottom.pk,
        "Division 2",
        1,
    )
    assert client.get(f"{API}{running.pk}/").json()["league_division"] is None


@pytest.mark.parametrize("value", ["no", "0", "False", ""])
def test_a_bad_league_division_filter_is_a_400_that_names_it(world, value):
    answer = APIClient().get(API, {"league_division": value})
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid_flag"
    assert answer.json()["detail"].startswith("league_division=")
    assert answer.json()["detail"].endswith("expected true or false.")


# --- Query counts ------------------------------------------------------------------------------


def queries(client: Client | APIClient, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        answer = client.get(url)
    assert answer.status_code == 200
    return len(captured.captured_queries)


def test_lists_cost_the_same_queries_with_more_divisions_and_events(world, organiser):
    player = world["users"][3]  # in Division 2 of Club League
    urls = [
        API,
        f"{API}?league_division=true",
        f"{API}?league_division=false&status=running",
        "/tournaments/",
        f"/players/{player.username}/",
    ]
    before = [queries(APIClient(), url) for url in urls]
    more = [player, *(make_user(f"n{i}") for i in range(1, 6))]
    second = running_season(organiser, "Second League", more)
    assert second.divisions.count() == 2
    assert Division.objects.count() == 4
    guests = [make_user(f"h{i}") for i in range(1, 5)]
    start(event(organiser, "Ostara RR", [player, guests[0]]), organiser)
    start(event(organiser, "Midsummer RR", guests[1:3]), organiser)
    event(organiser, "Autumn Open", [player])
    after = [queries(APIClient(), url) for url in urls]
    assert after == before
    assert len(listed(APIClient())) == 10
