"""An event's game kind: chosen among the kinds with games of two seats, refused with a clear
message otherwise, in the form, the API and its schema, and shown with its colours' names."""

from __future__ import annotations

import io

import pytest
import yaml
from django.core.management import call_command
from django.test import Client

from celticsite.errors import DomainError
from games.kinds.pairs import kind_choices, kind_problem
from tests.games.conftest import token_client
from tests.tournaments.conftest import register_all
from tests.tournaments.kinds import extra_kinds  # noqa: F401 (fixture)

# ruff: noqa: F811 (the fixture above as the tests' argument)
from tests.tournaments.test_pages import _new_event, login
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

T = "/api/v1/tournaments"
CROWD_REFUSAL = "Crowd is played by 3 to 4 players; competitions pair two players per game."


def refusal(call) -> DomainError:
    with pytest.raises(DomainError) as caught:
        call()
    return caught.value


def test_an_event_plays_celtic_unless_another_kind_is_chosen(organiser, extra_kinds):
    assert services.tournament_create(organiser=organiser, name="Plain").kind == "celtic"
    duel = services.tournament_create(organiser=organiser, name="Duel Cup", kind="duel")
    duel.refresh_from_db()
    assert (duel.kind, duel.kind_name, duel.colour_names) == ("duel", "Duel", ["Red", "Green"])
    changed = services.tournament_update(tournament_id=duel.pk, actor=organiser, kind="celtic")
    assert changed.colour_names == ["Orange", "Blue"]


def test_an_unknown_kind_is_refused_naming_the_known_ones(organiser):
    error = refusal(lambda: services.tournament_create(organiser=organiser, name="X", kind="go"))
    assert (error.status, error.code) == (400, "invalid_settings")
    assert error.extra["errors"]["kind"].startswith("Unknown game kind 'go': expected one of ")
    assert "celtic" in error.extra["errors"]["kind"]


def test_a_kind_not_played_by_two_is_refused(organiser, make_tournament, extra_kinds):
    error = refusal(lambda: services.tournament_create(organiser=organiser, name="X", kind="crowd"))
    assert error.extra["errors"] == {"kind": CROWD_REFUSAL}
    event = make_tournament(name="Open")
    error = refusal(
        lambda: services.tournament_update(tournament_id=event.pk, actor=organiser, kind="crowd")
    )
    assert error.extra["errors"] == {"kind": CROWD_REFUSAL}


def test_only_kinds_with_two_seats_are_offered(extra_kinds):
    assert kind_choices() == [("celtic", "Celtic!"), ("knot", "Celtic Knot"), ("duel", "Duel")]
    assert kind_problem("duel") is None
    assert kind_problem("crowd") == CROWD_REFUSAL


def test_the_api_takes_and_answers_the_kind(organiser, extra_kinds):
    client = token_client(organiser)
    created = client.post(f"{T}/", {"name": "Duel Cup", "kind": "duel"}, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["kind"] == "duel"
    assert created.json()["rules"]["kind"] == "duel"
    assert client.get(f"{T}/{created.json()['id']}/").json()["kind"] == "duel"
    refused = client.post(f"{T}/", {"name": "Crowd Cup", "kind": "crowd"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid_settings"
    assert refused.json()["errors"] == {"kind": CROWD_REFUSAL}


def test_the_schema_documents_the_kind_of_events_leagues_and_ladders() -> None:
    out = io.StringIO()
    call_command("spectacular", "--validate", "--fail-on-warn", stdout=out, stderr=io.StringIO())
    components = yaml.safe_load(out.getvalue())["components"]["schemas"]
    for inputs in (
        "TournamentSettingsInputRequest",
        "LeagueCreateInputRequest",
        "LadderCreateInputRequest",
    ):
        kind = components[inputs]["properties"]["kind"]
        assert kind["type"] == "string" and "two seats" in kind["description"], inputs
    for outputs in ("TournamentSummary", "TournamentDetail", "LeagueSummary", "LadderSummary"):
        assert "Celtic!" in components[outputs]["properties"]["kind"]["description"], outputs


def test_the_form_offers_the_kinds_and_creates_an_event_of_one(organiser, extra_kinds):
    page = login(organiser).get("/tournaments/new/").content.decode()
    assert '<option value="duel">Duel</option>' in page
    assert 'value="crowd"' not in page
    form = _new_event(name="Duel Swiss", kind="duel")
    answer = login(organiser).post("/tournaments/new/", form)
    assert answer.status_code == 302, answer.context["form"].errors
    assert Tournament.objects.get(name="Duel Swiss").kind == "duel"
    refused = login(organiser).post("/tournaments/new/", {**form, "kind": "crowd"})
    assert "kind" in refused.context["form"].errors


def test_the_event_page_shows_the_kind_and_its_colour_names(
    make_tournament, organiser, players, extra_kinds
):
    event = make_tournament(
        name="Duel RR", kind="duel", format="swiss", rounds_planned=2, tiebreaks=["bpg"]
    )
    register_all(event, players[:4])
    services.tournament_start(tournament_id=event.pk, actor=organiser)
    html = Client().get(f"/tournaments/{event.pk}/").content.decode()
    assert "Duel · Swiss" in html
    assert '<th scope="col">Red</th><th scope="col">Green</th>' in html
    assert '<abbr title="Games played with Green">BPG</abbr>' in html
    assert "Orange" not in html and "Blue" not in html
    manage = login(organiser).get(f"/tournaments/{event.pk}/manage/").content.decode()
    assert "1-0 (Red wins)" in manage and "Orange" not in manage


def test_a_celtic_event_page_keeps_orange_and_blue(make_tournament, organiser, players):
    event = make_tournament(name="Celtic RR", format="swiss", rounds_planned=2)
    register_all(event, players[:4])
    services.tournament_start(tournament_id=event.pk, actor=organiser)
    html = Client().get(f"/tournaments/{event.pk}/").content.decode()
    assert "Celtic! · Swiss" in html
    assert '<th scope="col">Orange</th><th scope="col">Blue</th>' in html
