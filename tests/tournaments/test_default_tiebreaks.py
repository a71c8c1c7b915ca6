"""Each format has the tie-breaks an arbiter expects (FIDE C.07's recommendations): an event
created or changed with none named gets its format's, through the page and the API alike;
events stored without any get them too, unless they are over."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from tests.accounts.factories import make_user
from tests.games.conftest import token_client
from tests.tournaments.conftest import grant
from tests.tournaments.test_pages import login
from tournaments import services
from tournaments.models import Tournament
from tournaments.plugins import tournament_format_for

pytestmark = pytest.mark.django_db

SWISS = ["bh_c1", "bh", "de"]
ROUND_ROBIN = ["de", "win", "sb", "ks"]
FORM = {
    "name": "Imbolc Swiss",
    "format": "swiss",
    "rounds_planned": 3,
    "cycles": 1,
    "registration_mode": "open",
    "min_players": 2,
    "start_mode": "by_organiser",
    "round_start_mode": "round_by_round",
    "knockout_extra_pairs": 1,
    "knockout_decider": "higher_seed",
    "withdrawal_policy": "half_rule",
    "tiebreaks": "",
    "tiebreak_edition": "2026",
    "min_finished_games": 0,
    "clock_kind": "per_move",
    "days_per_move": 4,
    "bank_days": 10,
    "increment_days": 2,
    "max_days": 20,
    "public": "on",
}


@pytest.fixture
def organiser():
    return grant(make_user("orga"), "organise_tournament")


def test_each_format_states_fide_s_recommended_tiebreaks():
    formats = ("swiss", "round_robin", "knockout")
    defaults = {
        code: list(tournament_format_for(format=code).default_tiebreaks) for code in formats
    }
    assert defaults == {"swiss": SWISS, "round_robin": ROUND_ROBIN, "knockout": []}


def test_a_swiss_created_on_the_page_with_the_field_left_blank_gets_the_default(organiser):
    client = login(organiser)
    page = client.get("/tournaments/new/").content.decode()
    assert "Left empty, the format&#x27;s default" in page and "swiss: bh_c1, bh, de" in page

    client.post("/tournaments/new/", FORM, follow=True)

    assert Tournament.objects.get().tiebreaks == SWISS


def test_a_round_robin_created_by_the_api_without_tiebreaks_gets_the_default(organiser):
    api = token_client(organiser)
    created = api.post(
        "/api/v1/tournaments/", {"name": "Yule RR", "format": "round_robin"}, format="json"
    )
    assert created.status_code == 201, created.json()
    assert created.json()["rules"]["tiebreaks"] == ROUND_ROBIN
    emptied = api.patch(
        f"/api/v1/tournaments/{created.json()['id']}/", {"tiebreaks": []}, format="json"
    )
    assert emptied.json()["rules"]["tiebreaks"] == ROUND_ROBIN


def test_the_schema_documents_each_format_s_default(organiser):
    document = token_client(organiser).get("/api/schema/?format=json").json()
    schemas = document["components"]["schemas"]
    text = schemas["TournamentSettingsInputRequest"]["properties"]["tiebreaks"]["description"]
    assert "knockout: none; round robin: de, win, sb, ks; swiss: bh_c1, bh, de" in text


def test_the_default_follows_a_change_of_format_but_a_chosen_list_stays(organiser):
    event = services.tournament_create(
        organiser=organiser, name="Lughnasa", format="swiss", rounds_planned=3
    )
    assert event.tiebreaks == SWISS
    event = services.tournament_update(
        tournament_id=event.pk, actor=organiser, format="round_robin", rounds_planned=None
    )
    assert event.tiebreaks == ROUND_ROBIN
    event = services.tournament_update(tournament_id=event.pk, actor=organiser, tiebreaks=["sb"])
    event = services.tournament_update(
        tournament_id=event.pk, actor=organiser, format="swiss", rounds_planned=3
    )
    assert event.tiebreaks == ["sb"]


def test_stored_events_without_tiebreaks_get_the_default_unless_they_are_over(organiser):
    migration = importlib.import_module("tournaments.migrations.0003_tiebreaks_format_default")
    kept = {"format": "swiss", "rounds_planned": 3}
    rows = {
        status: Tournament.objects.create(
            organiser=organiser, name=status, status=status, tiebreaks=[], **kept
        )
        for status in ("draft", "registration", "running", "finished", "cancelled")
    }
    knockout = Tournament.objects.create(organiser=organiser, name="KO", format="knockout")
    chosen = Tournament.objects.create(organiser=organiser, name="mine", tiebreaks=["sb"])

    migration.tiebreaks_format_default(apps, None)

    stored = dict(Tournament.objects.values_list("name", "tiebreaks"))
    assert {status: stored[status] for status in rows} == {
        "draft": SWISS,
        "registration": SWISS,
        "running": SWISS,
        "finished": [],
        "cancelled": [],
    }
    assert (stored[knockout.name], stored[chosen.name]) == ([], ["sb"])
