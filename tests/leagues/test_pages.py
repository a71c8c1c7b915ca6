"""League pages: list, league, season tables, history; the player's and organiser's forms."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.utils import timezone

from leagues import services
from leagues.audit import LEAGUE_MOVE
from leagues.management.commands.seed_demo_leagues import seed_league
from leagues.models import League, Membership
from moderation.models import AuditEntry
from tests.accounts.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def login(user) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


@pytest.fixture
def demo(db):
    """The demo league (season 2 running), with the demo players' passwords reset."""
    from django.core.management import call_command

    call_command("seed_demo", verbosity=0)
    league = seed_league(now=timezone.now(), rng=random.Random(1))
    return league


def test_the_pages_show_the_league_in_its_second_season(demo):
    league = demo
    first, second = league.seasons.order_by("number")
    client = Client()
    assert "Celtic Club League" in client.get("/leagues/").content.decode()
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Season 2" in page and "Divisions of 4 players (at least 3)" in page
    season = client.get(f"/leagues/seasons/{second.pk}/").content.decode()
    for name in ("Division 1", "Division 2", "Rookies"):
        assert f">{name} <a" in season
    finished = client.get(f"/leagues/seasons/{first.pk}/").content.decode()
    assert finished.count("▲ promoted") == 1 and finished.count("▼ relegated") == 1
    history = client.get(f"/leagues/{league.pk}/history/").content.decode()
    assert "Season 1" in history and "S1 Division 2 (1.) ▲ → S2 Division 1" in history


def test_pages_have_no_inline_scripts_and_tables_scroll_on_a_phone(demo):
    league = demo
    second = league.seasons.get(number=2)
    client = Client()
    for url in (
        "/leagues/",
        f"/leagues/{league.pk}/",
        f"/leagues/seasons/{second.pk}/",
        f"/leagues/{league.pk}/history/",
    ):
        html = client.get(url).content.decode()
        assert not re.search(r"<script(?![^>]*\bsrc=)", html), url
        assert " style=" not in html and " onclick=" not in html, url
        assert html.count("<table") == html.count('<div class="table-scroll">'), url


def test_a_player_registers_chooses_this_season_only_and_cancels(organiser, clock):
    league = services.league_create(
        organiser=organiser, name="Page League", first_registration_opens_at=timezone.now()
    )
    season = league.seasons.get()
    player = make_user("pager")
    client = login(player)
    url = f"/leagues/seasons/{season.pk}/"
    done = client.post(url + "register/", {"this_season_only": "on"}, follow=True)
    assert messages_of(done) == [f"You are registered for {season}."]
    assert Membership.objects.get(player=player).this_season_only is True
    carried = client.post(url + "carry/", follow=True)
    assert messages_of(carried) == ["You will be carried into the next season."]
    assert Membership.objects.get(player=player).this_season_only is False
    again = client.post(url + "register/", follow=True)
    assert messages_of(again) == [f"You are already registered for {season}."]
    client.post(url + "cancel/", follow=True)
    assert Membership.objects.get(player=player).status == "cancelled"
    assert client.post(url + "dance/").status_code == 404


def test_the_organiser_moves_a_player_from_the_page(organiser, clock):
    league = services.league_create(
        organiser=organiser, name="Move League", first_registration_opens_at=timezone.now()
    )
    season = league.seasons.get()
    player = make_user("mover")
    services.season_register(season_id=season.pk, user=player)
    url = f"/leagues/seasons/{season.pk}/"
    assert "Place a player (organiser)" not in login(player).get(url).content.decode()
    refused = login(player).post(
        url + "move/", {"player": player.pk, "tier": 2, "reason": "x"}, follow=True
    )
    assert messages_of(refused) == [
        f"Only the organiser of {league.name} (or an administrator) may do this."
    ]
    client = login(organiser)
    assert "Place a player (organiser)" in client.get(url).content.decode()
    done = client.post(
        url + "move/", {"player": player.pk, "tier": 2, "reason": "club level"}, follow=True
    )
    assert messages_of(done) == ["mover starts in division 2."]
    assert Membership.objects.get(player=player).tier_requested == 2
    assert AuditEntry.objects.filter(action=LEAGUE_MOVE).count() == 1
    bad = client.post(url + "move/", {"player": player.pk, "tier": 2, "reason": ""}, follow=True)
    assert messages_of(bad) == ["This field is required."]
    assert League.objects.count() == 1


def test_the_history_names_every_player_sharing_a_division_win(demo):
    league = demo
    first = league.seasons.get(number=1)
    division = first.divisions.get(tier=1, rookie=False)
    sharing = division.tournament.entries.filter(final_rank=1).order_by("seed", "pk")
    names = [e.player.profile.display_name or e.player.username for e in sharing]
    assert len(names) == 3  # the demo's first season ends in a three-way tie on top

    history = Client().get(f"/leagues/{league.pk}/history/").content.decode()
    api = Client().get(f"/api/v1/leagues/{league.pk}/history/").json()

    season_one = history[history.index(">Season 1<") :]
    row = re.search(r"Division 1: <strong>(.*?)</strong>", season_one).group(1)
    assert all(name in row for name in names) and "(shared)" in row, row
    season = next(s for s in api["seasons"] if s["season"] == 1)
    shared = next(w["winner"] for w in season["winners"] if w["division"] == "Division 1")
    assert shared == f"{names[0]}, {names[1]} and {names[2]}"
