"""A league's game kind: chosen among the kinds with games of two seats, refused with a clear
message otherwise; its divisions play it and their emails name its colours."""

from __future__ import annotations

import pytest
from django.test import Client

from celticsite.errors import DomainError
from leagues import services
from leagues.models import Season
from notifications.models import OutboxEmail
from tests.accounts.factories import make_user
from tests.games.conftest import token_client
from tests.leagues.conftest import T0
from tests.tournaments.kinds import extra_kinds  # noqa: F401 (fixture)
from tests.tournaments.test_pages import login

# ruff: noqa: F811 (the fixture above as the tests' argument)

pytestmark = pytest.mark.django_db

L = "/api/v1/leagues"


def league(organiser, **rules):
    return services.league_create(
        organiser=organiser, name="Kind League", first_registration_opens_at=T0, **rules
    )


def test_a_league_plays_celtic_unless_another_kind_is_chosen(organiser, extra_kinds):
    assert league(organiser).kind == "celtic"
    other = services.league_create(
        organiser=organiser, name="Duel League", first_registration_opens_at=T0, kind="duel"
    )
    other.refresh_from_db()
    assert (other.kind, other.kind_name) == ("duel", "Duel")


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("go", "Unknown game kind 'go': expected one of "),
        ("crowd", "Crowd is played by 3 to 4 players; competitions pair two players per game."),
    ],
)
def test_a_kind_unknown_or_not_played_by_two_is_refused(organiser, extra_kinds, kind, message):
    with pytest.raises(DomainError) as caught:
        league(organiser, kind=kind)
    assert caught.value.code == "invalid_settings"
    assert caught.value.extra["errors"]["kind"].startswith(message)
    existing = league(organiser)
    with pytest.raises(DomainError) as caught:
        services.league_update(league_id=existing.pk, actor=organiser, kind=kind)
    assert caught.value.extra["errors"]["kind"].startswith(message)


def test_the_divisions_play_the_leagues_kind_and_their_emails_name_its_colours(
    organiser, clock, beat, extra_kinds
):
    season = league(
        organiser, kind="duel", division_size=3, division_min_size=3, promotion_count=1,
        relegation_count=1,
    ).seasons.get()  # fmt: skip
    for name in ("ann", "ben", "cai"):
        services.season_register(season_id=season.pk, user=make_user(name))
    clock(season.starts_at)
    beat()
    division = Season.objects.get(pk=season.pk).divisions.get()
    assert division.tournament.kind == "duel"
    bodies = " ".join(
        OutboxEmail.objects.filter(event="league_division").values_list("body_text", flat=True)
    )
    assert "Red against" in bodies and "Green against" in bodies
    assert "Orange" not in bodies


def test_the_api_and_the_pages_take_and_show_the_kind(organiser, clock, extra_kinds):
    client = token_client(organiser)
    body = {"name": "API League", "first_registration_opens_at": T0.isoformat(), "kind": "duel"}
    created = client.post(f"{L}/", body, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["kind"] == "duel"
    assert client.get(f"{L}/").json()["results"][0]["kind"] == "duel"
    refused = client.post(f"{L}/", {**body, "name": "Crowd", "kind": "crowd"}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (400, "invalid_settings")
    assert refused.json()["errors"]["kind"].startswith("Crowd is played by 3 to 4 players")
    page = Client().get(f"/leagues/{created.json()['id']}/").content.decode()
    assert "Duel · " in page
    form = login(organiser).get("/leagues/new/").content.decode()
    assert '<option value="duel">Duel</option>' in form and 'value="crowd"' not in form
