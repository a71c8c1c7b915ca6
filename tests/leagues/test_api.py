"""The leagues API: one season run through it, and what the permission matrix
(tests/security/matrix/leagues.py) leaves out: staff holding the move permission, a
private league, rule changes and bad input."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Permission, User
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from jsonschema import validate as validate_json
from rest_framework.test import APIClient

from leagues import services
from leagues.audit import LEAGUE_MOVE
from leagues.errors import InvalidLeagueSettings
from leagues.models import League, Membership
from moderation.models import AuditEntry
from tests.accounts.factories import make_superuser, make_user
from tests.games.conftest import token_client
from tests.leagues.conftest import DAY, T0, grant, play_division

pytestmark = pytest.mark.django_db

L = "/api/v1/leagues"


def test_one_season_through_the_api(organiser, clock, beat, commit):
    players = [make_user(f"a{i}") for i in range(1, 7)]
    org = token_client(organiser)
    answer = org.post(
        f"{L}/",
        {
            "name": "API League",
            "first_registration_opens_at": T0.isoformat(),
            "division_size": 3,
            "division_min_size": 3,
            "promotion_count": 1,
            "relegation_count": 1,
            "registration_days": 5,
            "season_days": 20,
            "tiebreaks": ["sb"],
            "time_control": {"kind": "per_move", "days_per_move": 5},
        },
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    league = answer.json()
    assert (league["division_size"], league["time_control"]["days_per_move"]) == (3, 5)
    season_id = league["seasons"][0]["id"]
    assert league["seasons"][0]["status"] == "registration"

    clients = [token_client(user) for user in players]
    for index, client in enumerate(clients):
        answer = client.post(
            f"{L}/seasons/{season_id}/register/", {"this_season_only": index == 5}, format="json"
        )
        assert answer.status_code == 201, answer.json()
    again = clients[0].post(f"{L}/seasons/{season_id}/register/", {}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "already_registered")
    answer = clients[1].post(
        f"{L}/seasons/{season_id}/carry-over/", {"carry_over": False}, format="json"
    )
    assert (answer.status_code, answer.json()["this_season_only"]) == (200, True)
    answer = clients[1].post(
        f"{L}/seasons/{season_id}/carry-over/", {"carry_over": True}, format="json"
    )
    assert answer.json()["this_season_only"] is False

    clock(T0 + 5 * DAY)
    beat()
    season = APIClient().get(f"{L}/seasons/{season_id}/").json()
    assert season["status"] == "running"
    assert [(d["name"], [x["username"] for x in d["lines"]]) for d in season["divisions"]] == [
        ("Division 1", ["a1", "a2", "a3"]),
        ("Division 2", ["a4", "a5", "a6"]),
    ]
    d2 = season["divisions"][1]
    clock(T0 + 6 * DAY)
    divisions = {d.tier: d for d in League.objects.get().seasons.get().divisions.all()}
    play_division(divisions[1], players[:3], commit=commit)
    play_division(divisions[2], players[3:], commit=commit, skip=(players[4], players[5]))
    table = APIClient().get(f"{L}/divisions/{d2['id']}/").json()
    assert [(x["username"], x["points"], x["zone"], x["decided"]) for x in table["lines"]] == [
        ("a4", 2.0, "promotion", "promoted"),
        ("a5", 0.0, "", "stays"),  # the bottom division relegates nobody
        ("a6", 0.0, "", "stays"),
    ]

    # the end date passes; the organiser adjudicates the last game through the tournaments API
    clock(T0 + 25 * DAY + DAY / 24)
    beat()
    pending = divisions[2].tournament.games.get(needs_adjudication=True)
    result = "1-0" if pending.game.seat_of(players[4]) == 1 else "0-1"
    with commit():
        answer = org.post(
            f"/api/v1/tournaments/{d2['tournament_id']}/games/{pending.pk}/adjudicate/",
            {"result": result, "reason": "a5 has a won position"},
            format="json",
        )
    assert answer.status_code == 200, answer.json()
    beat()

    season = APIClient().get(f"{L}/seasons/{season_id}/").json()
    assert season["status"] == "finished"
    outcomes = [
        [(x["username"], x["place"], x["points"], x["outcome"]) for x in d["lines"]]
        for d in season["divisions"]
    ]
    assert outcomes == [
        [("a1", 1, 2.0, "stayed"), ("a2", 2, 1.0, "stayed"), ("a3", 3, 0.0, "relegated")],
        [("a4", 1, 2.0, "promoted"), ("a5", 2, 1.0, "stayed"), ("a6", 3, 0.0, "stayed")],
    ]
    history = APIClient().get(f"{L}/{league['id']}/history/").json()
    assert history["seasons"] == [
        {
            "season": 1,
            "winners": [
                {"division": "Division 1", "winner": "a1"},
                {"division": "Division 2", "winner": "a4"},
            ],
        }
    ]
    a3 = next(p for p in history["players"] if p["username"] == "a3")
    assert a3["steps"] == [
        {"season": 1, "division": "Division 1", "place": 3, "outcome": "relegated"}
    ]
    detail = APIClient().get(f"{L}/{league['id']}/").json()
    assert [(x["number"], x["status"]) for x in detail["seasons"]] == [
        (2, "registration"),
        (1, "finished"),
    ]
    season2 = APIClient().get(f"{L}/seasons/{detail['seasons'][0]['id']}/").json()
    assert sorted(m["player"]["username"] for m in season2["memberships"]) == [
        "a1",
        "a2",
        "a3",
        "a4",
        "a5",
    ]  # fmt: skip  (a6 played this season only)


# --- Beyond the permission matrix ---------------------------------------------------------------

ROLES = ("anon", "player", "outsider", "organiser", "staff", "superuser")


@pytest.fixture
def world(organiser, clock):
    staff = make_user("staff")
    staff.is_staff = True
    staff.save()
    users = {
        "player": make_user("member"),
        "outsider": make_user("outsider"),
        "organiser": organiser,
        "staff": User.objects.get(pk=staff.pk),
        "superuser": make_superuser("root"),
    }
    league = services.league_create(
        organiser=organiser, name="Club League", first_registration_opens_at=T0
    )
    season = league.seasons.get()
    services.season_register(season_id=season.pk, user=users["player"])
    clients = {role: token_client(user) for role, user in users.items()}
    clients["anon"] = APIClient()
    return {"users": users, "clients": clients, "league": league, "season": season}


def _move(world):
    player = world["users"]["player"]
    return (
        "post",
        f"{L}/seasons/{world['season'].pk}/move/",
        {
            "player_id": player.pk,
            "tier": 2,
            "reason": "plays at club level 2",
        },
    )


def test_staff_with_the_move_permission_may_move_and_it_is_audited(world):
    staff = grant(world["users"]["staff"], "manage_league_players")
    _, url, data = _move(world)
    answer = token_client(staff, name="move").post(url, data, format="json")
    assert (answer.status_code, answer.json()["tier_requested"]) == (200, 2)
    entry = AuditEntry.objects.get(action=LEAGUE_MOVE)
    assert (entry.actor, entry.reason) == (staff, "plays at club level 2")


def test_a_private_league_is_hidden_from_outsiders(world):
    league = world["league"]
    League.objects.filter(pk=league.pk).update(public=False)
    seen = [world["clients"][role].get(f"{L}/{league.pk}/").status_code for role in ROLES]
    assert seen == [404, 200, 404, 200, 404, 200]


@pytest.mark.parametrize(
    ("app", "codename"),
    [("leagues", "manage_league_players"), ("tournaments", "adjudicate_tournament_game")],
)
def test_staff_who_act_on_every_league_or_event_see_a_private_league(world, app, codename):
    """Its divisions are events they may act on, and their pages link to its seasons."""
    league, staff = world["league"], world["users"]["staff"]
    League.objects.filter(pk=league.pk).update(public=False)
    staff.user_permissions.add(
        Permission.objects.get(codename=codename, content_type__app_label=app)
    )
    client = token_client(User.objects.get(pk=staff.pk), name="staff")
    assert client.get(f"{L}/{league.pk}/").status_code == 200
    assert client.get(f"{L}/seasons/{world['season'].pk}/").status_code == 200


def test_the_organiser_changes_the_rules_for_the_next_season(world):
    org = world["clients"]["organiser"]
    url = f"{L}/{world['league'].pk}/"
    answer = org.patch(
        url,
        {"relegation_percent": 25, "relegation_count": None, "time_control": {"days_per_move": 7}},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert (body["relegation_count"], body["relegation_percent"]) == (None, 25)
    assert body["time_control"]["days_per_move"] == 7
    assert (body["division_size"], body["rated"], body["name"]) == (8, True, "Club League")
    bad = org.patch(url, {"relegation_count": 1}, format="json")  # now both are set
    assert (bad.status_code, bad.json()["errors"]) == (
        400,
        {"relegation_count": "Give either a count or a percent, not both."},
    )
    assert League.objects.get().relegation_count is None


def test_bad_input_is_refused_with_what_is_wrong(world):
    org = world["clients"]["organiser"]
    answer = org.post(
        f"{L}/",
        {
            "name": "Bad",
            "first_registration_opens_at": T0.isoformat(),
            "division_size": 3,
            "division_min_size": 4,
            "promotion_count": 1,
            "promotion_percent": 20,
            "tiebreaks": ["zz"],
        },
        format="json",
    )
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == "invalid_settings"
    assert set(body["errors"]) == {"division_size", "promotion_count", "tiebreaks"}
    absurd = {"registration_days": 100000, "season_days": 40000, "division_size": -8}
    answer = org.post(
        f"{L}/",
        {"name": "Absurd", "first_registration_opens_at": T0.isoformat(), **absurd},
        format="json",
    )
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid_settings")
    assert answer.json()["errors"] == {
        "division_size": "From 3 to 30 players, not -8.",
        "season_days": "From 7 to 365 days, not 40000.",
        "registration_days": "From 1 to 90 days, not 100000.",
    }
    answer = org.post(
        f"{L}/seasons/{world['season'].pk}/move/",
        {"player_id": world["users"]["outsider"].pk, "tier": 1, "reason": "x"},
        format="json",
    )
    assert (answer.status_code, answer.json()["code"]) == (409, "not_in_season")
    answer = org.post(
        f"{L}/seasons/{world['season'].pk}/move/",
        {"player_id": world["users"]["player"].pk, "tier": 0, "reason": "x"},
        format="json",
    )
    assert answer.status_code == 400
    assert Membership.objects.get(player=world["users"]["player"]).tier_requested is None
    missing = world["clients"]["anon"].get(f"{L}/seasons/99999/")
    assert (missing.status_code, missing.json()["code"]) == (404, "season_not_found")


@pytest.mark.parametrize(
    ("tiebreaks", "message"),
    [
        (None, "This field may not be null."),
        ("sb", "Expected a list, not a string."),
        ([1], "Expected a string, not a number."),
    ],
)
def test_tiebreaks_must_be_a_list_of_codes(world, tiebreaks, message):
    org = world["clients"]["organiser"]
    league = world["league"]

    created = org.post(
        f"{L}/",
        {"name": "Typed", "first_registration_opens_at": T0.isoformat(), "tiebreaks": tiebreaks},
        format="json",
    )
    changed = org.patch(f"{L}/{league.pk}/", {"tiebreaks": tiebreaks}, format="json")

    for answer in (created, changed):
        assert answer.status_code == 400
        errors = answer.json()["errors"]["tiebreaks"]
        assert message in str(errors)
    assert League.objects.filter(name="Typed").count() == 0
    assert League.objects.get(pk=league.pk).tiebreaks == []


@pytest.mark.parametrize("tiebreaks", [["bh", "bh"], ["sb"] * 500])
def test_a_tiebreak_listed_twice_is_refused(world, tiebreaks):
    org = world["clients"]["organiser"]
    league = world["league"]

    created = org.post(
        f"{L}/",
        {"name": "Twice", "first_registration_opens_at": T0.isoformat(), "tiebreaks": tiebreaks},
        format="json",
    )
    changed = org.patch(f"{L}/{league.pk}/", {"tiebreaks": tiebreaks}, format="json")

    for answer in (created, changed):
        assert (answer.status_code, answer.json()["code"]) == (400, "invalid_settings")
        assert "Each tie-break at most once; repeated: " in answer.json()["errors"]["tiebreaks"]
    assert not League.objects.filter(name="Twice").exists()
    assert League.objects.get(pk=league.pk).tiebreaks == []


def test_values_of_the_wrong_json_type_are_refused_not_converted(world):
    org = world["clients"]["organiser"]
    season = world["season"]
    player = world["users"]["player"]

    moved = org.post(
        f"{L}/seasons/{season.pk}/move/",
        {"player_id": str(player.pk), "tier": "2", "reason": "x"},
        format="json",
    )
    carried = world["clients"]["player"].post(
        f"{L}/seasons/{season.pk}/carry-over/", {"carry_over": "no"}, format="json"
    )

    assert (moved.status_code, moved.json()["errors"]) == (
        400,
        {
            "player_id": ["Expected a whole number, not a string."],
            "tier": ["Expected a whole number, not a string."],
        },
    )
    assert (carried.status_code, carried.json()["errors"]) == (
        400,
        {"carry_over": ["Expected true or false, not a string."]},
    )
    membership = Membership.objects.get(player=player)
    assert (membership.tier_requested, membership.this_season_only) == (None, False)


def test_a_table_line_documents_its_tie_breaks_as_numbers_whole_or_not():
    """A whole tie-break (3) and a half (2.5) both validate: the schema says ``number``, not
    ``oneOf[number, integer]``, which every integer matches twice and so fails."""
    document = json.loads(OpenApiJsonRenderer().render(SchemaGenerator().get_schema(public=True)))
    tiebreaks = document["components"]["schemas"]["TableLine"]["properties"]["tiebreaks"]

    assert tiebreaks["additionalProperties"] == {
        "type": "number",
        "format": "double",
        "nullable": True,
    }
    for value in (3, 2.5):  # (null: the OpenAPI `nullable` above, which jsonschema ignores)
        validate_json({"sb": value}, tiebreaks)


@pytest.mark.parametrize(
    ("opens_at", "problem"),
    [
        ("9999-10-01T00:00:00Z", "9999-10-01 00:00 UTC is too far ahead: expected a time from "),
        ("2026-02-28T09:00:00Z", "2026-02-28 09:00 UTC is in the past: expected a time from "),
    ],
)
def test_season_one_opens_neither_in_the_past_nor_beyond_a_year(world, opens_at, problem):
    """9999-10-01 was a 500 (OverflowError); a past date was taken and the season cancelled
    itself within a minute. T0 is 2026-03-02 09:00 UTC."""
    answer = world["clients"]["organiser"].post(
        f"{L}/", {"name": "When", "first_registration_opens_at": opens_at}, format="json"
    )

    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == "invalid_settings"
    message = body["errors"]["first_registration_opens_at"]
    assert message.startswith(problem)
    assert message.endswith(
        "from 2026-03-01 09:00 UTC (a time within the last day opens registration at once) "
        "to 2027-03-03 09:00 UTC, at most 366 days ahead."
    )
    assert not League.objects.filter(name="When").exists()


def test_the_service_refuses_a_first_season_beyond_a_year_for_every_caller(organiser, clock):
    with pytest.raises(InvalidLeagueSettings) as refused:
        services.league_create(
            organiser=organiser, name="Far", first_registration_opens_at=T0 + 367 * DAY
        )
    assert list(refused.value.extra["errors"]) == ["first_registration_opens_at"]
    latest = services.league_create(
        organiser=organiser, name="Next year", first_registration_opens_at=T0 + 366 * DAY
    )
    assert latest.seasons.get().registration_opens_at == T0 + 366 * DAY
