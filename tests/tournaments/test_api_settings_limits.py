"""The limits each tournament setting states in the OpenAPI document are the ones the API
applies: a value outside them is refused 400 naming the field, and nothing is created."""

from __future__ import annotations

import pytest

from tests.accounts.factories import make_user
from tests.games.conftest import token_client
from tests.tournaments.conftest import grant
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

T = "/api/v1/tournaments/"


@pytest.fixture
def orga():
    return token_client(grant(make_user("orga"), "organise_tournament"))


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("cycles", 3),
        ("cycles", 0),
        ("min_players", 1),
        ("section_size", 2),
        ("max_players", 32768),
        ("round_interval_days", -1),
        ("tiebreaks", ["sb", "goals"]),
        ("tiebreaks", None),
        ("tiebreak_edition", "2019"),
    ],
)
def test_a_setting_outside_its_stated_limits_is_refused(orga, field, value):
    response = orga.post(T, {"name": "Beltane Open", field: value}, format="json")

    assert response.status_code == 400, response.json()
    assert set(response.json()["errors"]) == {field}
    assert not Tournament.objects.exists()


def test_the_limits_are_those_of_the_openapi_document(orga):
    document = orga.get("/api/schema/?format=json").json()
    settings = document["components"]["schemas"]["TournamentSettingsInputRequest"]["properties"]
    enums = document["components"]["schemas"]

    assert (settings["cycles"]["minimum"], settings["cycles"]["maximum"]) == (1, 2)
    assert (settings["section_size"]["minimum"], settings["max_players"]["maximum"]) == (3, 32767)
    assert settings["min_players"]["minimum"] == 2
    assert settings["tiebreaks"]["type"] == "array"
    tiebreak = settings["tiebreaks"]["items"]["$ref"].rsplit("/", 1)[-1]
    assert {"sb", "de", "win", "bh"} <= set(enums[tiebreak]["enum"])
    [edition] = settings["tiebreak_edition"]["allOf"]
    assert enums[edition["$ref"].rsplit("/", 1)[-1]]["enum"] == ["2026", "2024"]


def test_settings_inside_the_limits_are_taken(orga):
    response = orga.post(
        T,
        {
            "name": "Beltane Open",
            "cycles": 2,
            "min_players": 2,
            "max_players": 32767,
            "tiebreaks": ["sb", "de"],
            "tiebreak_edition": "2024",
        },
        format="json",
    )

    assert response.status_code == 201, response.json()
    rules = response.json()["rules"]
    assert (rules["cycles"], rules["tiebreaks"], rules["tiebreak_edition"]) == (
        2,
        ["sb", "de"],
        "2024",
    )


def test_a_clock_changed_in_an_update_is_given_whole_its_omitted_parts_defaulted(orga):
    """A partial update does not make the clock partial (that was a 500 on a missing part)."""
    event = orga.post(T, {"name": "Imbolc Cup"}, format="json").json()

    changed = orga.patch(
        f"{T}{event['id']}/", {"time_control": {"kind": "per_move"}}, format="json"
    )
    refused = orga.patch(
        f"{T}{event['id']}/", {"time_control": {"days_per_move": 0}}, format="json"
    )

    assert changed.status_code == 200, changed.json()
    clock = changed.json()["time_control"]
    assert (clock["kind"], clock["days_per_move"], clock["vacation_allowed"]) == (
        "per_move",
        3,
        True,
    )
    assert refused.status_code == 400, refused.json()
    assert set(refused.json()["errors"]) == {"time_control"}


def test_an_empty_list_filter_is_refused_like_any_value_outside_the_enum(api_client):
    empty = api_client.get(f"{T}?status=")
    absent = api_client.get(T)

    assert (empty.status_code, empty.json()["code"]) == (400, "invalid_status")
    assert "status '' is not one of open, running, finished" in empty.json()["detail"]
    assert absent.status_code == 200


def test_an_invitation_names_a_username_of_the_documented_characters(orga):
    event = orga.post(T, {"name": "Lughnasa Cup"}, format="json").json()
    document = orga.get("/api/schema/?format=json").json()
    invite = document["components"]["schemas"]["InviteInputRequest"]["properties"]

    blank = orga.post(f"{T}{event['id']}/invite/", {"username": "   "}, format="json")

    assert invite["username"]["pattern"] == r"^[\w.@+-]+$"
    assert (blank.status_code, set(blank.json()["errors"])) == (400, {"username"})


@pytest.mark.parametrize(
    ("tiebreaks", "repeated"),
    [(["bh", "bh"], "bh"), (["sb", "de", "sb", "win", "de"], "de, sb"), (["sb"] * 500, "sb")],
)
def test_a_tiebreak_listed_twice_is_refused_at_creation_and_update(orga, tiebreaks, repeated):
    created = orga.post(T, {"name": "Beltane Open", "tiebreaks": tiebreaks}, format="json")
    draft = orga.post(T, {"name": "Imbolc Open", "tiebreaks": ["bh"]}, format="json").json()
    changed = orga.patch(f"{T}{draft['id']}/", {"tiebreaks": tiebreaks}, format="json")

    for answer in (created, changed):
        assert (answer.status_code, answer.json()["code"]) == (400, "invalid_settings")
        assert answer.json()["errors"]["tiebreaks"] == (
            f"Each tie-break at most once; repeated: {repeated}."
        )
    assert list(Tournament.objects.values_list("name", "tiebreaks")) == [("Imbolc Open", ["bh"])]


@pytest.mark.parametrize(
    ("rounds", "message"),
    [
        ({"rounds_planned": 32767}, "At most 50 rounds in a Swiss event."),
        ({"rounds_planned": 51}, "At most 50 rounds in a Swiss event."),
        ({"rounds_planned": 8, "max_players": 8}, "Fewer rounds than the most players (8)"),
    ],
)
def test_a_swiss_with_absurdly_many_rounds_is_refused(orga, rounds, message):
    created = orga.post(T, {"name": "Samhain Swiss", "format": "swiss", **rounds}, format="json")
    draft = orga.post(T, {"name": "Yule Swiss", "format": "swiss", "rounds_planned": 5})
    changed = orga.patch(f"{T}{draft.json()['id']}/", rounds, format="json")

    for answer in (created, changed):
        assert (answer.status_code, answer.json()["code"]) == (400, "invalid_settings")
        assert message in answer.json()["errors"]["rounds_planned"]
    assert list(Tournament.objects.values_list("name", "rounds_planned")) == [("Yule Swiss", 5)]


def test_fifty_rounds_are_accepted(orga):
    created = orga.post(
        T, {"name": "Long Swiss", "format": "swiss", "rounds_planned": 50}, format="json"
    )

    assert created.status_code == 201, created.json()


@pytest.mark.parametrize(
    ("given", "field", "message"),
    [
        ({"round_duration_days": 0}, "round_duration_days", "From 1 to 365 days, or empty"),
        ({"round_interval_days": 0}, "round_interval_days", "From 1 to 365 days, or empty"),
        (
            {"format": "knockout", "knockout_extra_pairs": 32767},
            "knockout_extra_pairs",
            "From 0 to 10 pairs of games",
        ),
        ({"min_finished_games": 32767}, "min_finished_games", "From 0 to 1000 games"),
        ({"max_running_games": 0}, "max_running_games", "From 1 to 1000 games, or empty"),
        ({"rating_min": 32767}, "rating_min", "From 0 to 4000 rating points, or empty"),
        ({"cycles": 3}, "cycles", "From 1 to 2 cycles"),
        ({"min_players": 1}, "min_players", "From 2 to 32767 players"),
        ({"section_size": 2}, "section_size", "From 3 to 32767 players per section, or empty"),
        (
            {"format": "swiss", "rounds_planned": 7, "forfeits_to_withdraw": 8},
            "forfeits_to_withdraw",
            "At most the number of rounds (7), or empty",
        ),
        ({"rounds_planned": 5}, "rounds_planned", "Only a Swiss event uses this setting."),
    ],
)
def test_a_number_setting_outside_its_range_is_refused_naming_the_range(
    orga, given, field, message
):
    """Absurd values were stored and ignored (a 0-day round) or broke the event."""
    created = orga.post(T, {"name": "Beltane Open", **given}, format="json")
    swiss = {"format": "swiss", "rounds_planned": 7} if given.get("format") == "swiss" else {}
    draft = orga.post(T, {"name": "Imbolc Open", "format": "round_robin", **swiss})
    changed = orga.patch(f"{T}{draft.json()['id']}/", given, format="json")

    for answer in (created, changed):
        assert (answer.status_code, answer.json()["code"]) == (400, "invalid_settings")
        assert set(answer.json()["errors"]) == {field}
        assert answer.json()["errors"][field].startswith(message)
        assert f"{field}: {message}" in answer.json()["detail"]
    assert list(Tournament.objects.values_list("name", flat=True)) == ["Imbolc Open"]


def test_the_ranges_are_those_of_the_openapi_document(orga):
    document = orga.get("/api/schema/?format=json").json()
    settings = document["components"]["schemas"]["TournamentSettingsInputRequest"]["properties"]

    ranges = {
        name: (settings[name]["minimum"], settings[name]["maximum"])
        for name in ("round_duration_days", "knockout_extra_pairs", "max_running_games")
    }

    assert ranges == {
        "round_duration_days": (1, 365),
        "knockout_extra_pairs": (0, 10),
        "max_running_games": (1, 1000),
    }


KNOCKOUT_ONLY = "Only a knockout uses this setting."


@pytest.mark.parametrize(
    ("given", "field", "message"),
    [
        ({"knockout_extra_pairs": 3}, "knockout_extra_pairs", KNOCKOUT_ONLY),
        ({"knockout_decider": "organiser"}, "knockout_decider", KNOCKOUT_ONLY),
        (
            {"format": "swiss", "rounds_planned": 5, "cycles": 2},
            "cycles",
            "Only a round robin uses this setting.",
        ),
        (
            {"format": "knockout", "half_point_byes_max": 1},
            "half_point_byes_max",
            "Only a Swiss event uses this setting.",
        ),
    ],
)
def test_a_setting_of_another_format_is_refused_not_stored_and_ignored(orga, given, field, message):
    answer = orga.post(T, {"name": "Beltane Open", **given}, format="json")

    assert (answer.status_code, answer.json()["code"]) == (400, "invalid_settings")
    assert answer.json()["errors"] == {field: message}
