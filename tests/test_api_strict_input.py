"""Input is read as the OpenAPI document types it: a JSON value of the wrong type, a flag
that is not true or false, or a blank filter is refused (400) instead of being converted."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import ApiToken, Profile
from games import services
from games.models import Challenge, Move
from tests.accounts.factories import make_user
from tests.games.conftest import token_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice():
    return make_user("alice")


@pytest.fixture
def alice_api(alice):
    return token_client(alice)


@pytest.mark.parametrize(
    ("url", "method", "body", "detail"),
    [
        (
            "/api/v1/accounts/tokens/",
            "post",
            {"name": 123},
            "name: Expected a string, not a number.",
        ),
        (
            "/api/v1/accounts/me/",
            "patch",
            {"notify_turn": "false"},
            "notify_turn: Expected true or false, not a string.",
        ),
        (
            "/api/v1/accounts/me/",
            "patch",
            {"reminder_hours": ["24"]},
            "reminder_hours: Expected a whole number, not a string.",
        ),
        (
            "/api/v1/accounts/me/",
            "patch",
            {"reminder_hours": 24},
            "reminder_hours: Expected a list, not a number.",
        ),
        (
            "/api/v1/challenges/",
            "post",
            {"rated": 1},
            "rated: Expected true or false, not a number.",
        ),
        (
            "/api/v1/challenges/",
            "post",
            {"time_control": {"kind": "none", "vacation_allowed": "yes"}},
            "time_control: vacation_allowed: Expected true or false, not a string.",
        ),
        (
            "/api/v1/challenges/",
            "post",
            {"time_control": "none"},
            "time_control: Expected an object, not a string.",
        ),
        (
            "/api/v1/accounts/me/vacation/",
            "post",
            {"days": True},
            "days: Expected a number (or a decimal string), not a boolean.",
        ),
    ],
)
def test_a_json_value_of_the_wrong_type_is_refused(alice_api, url, method, body, detail):
    response = getattr(alice_api, method)(url, body, format="json")

    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "invalid"
    assert response.json()["detail"] == detail
    assert not Challenge.objects.exists()
    assert list(ApiToken.objects.values_list("name", flat=True)) == ["tests"]
    profile = Profile.objects.get(user__username="alice")
    assert (profile.notify_turn, profile.reminder_hours) == (True, [24, 2])


def test_a_move_with_the_ply_as_a_string_is_refused(alice_api, alice):
    bob = make_user("bob")
    challenge = services.challenge_create(challenger=alice, opponent=bob, seat_choice=1)
    game = services.challenge_accept(challenge_id=challenge.pk, user=bob)

    response = alice_api.post(
        f"/api/v1/games/{game.pk}/moves/", {"ply": "0", "move": "d5 EW"}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["detail"] == "ply: Expected a whole number, not a string."
    assert not Move.objects.exists()


def test_the_right_types_are_accepted(alice_api):
    response = alice_api.patch(
        "/api/v1/accounts/me/",
        {"notify_turn": False, "reminder_hours": [12], "display_name": "Al"},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert (response.json()["notify_turn"], response.json()["reminder_hours"]) == (False, [12])
    vacation = alice_api.post("/api/v1/accounts/me/vacation/", {"days": "1.5"}, format="json")
    assert vacation.status_code == 201, vacation.json()


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ("mine=1", "mine='1': expected true or false."),
        ("mine=", "mine='': expected true or false."),
        ("my_turn=True", "my_turn='True': expected true or false."),
    ],
)
def test_game_list_flags_are_read_strictly(alice_api, query, detail):
    response = alice_api.get(f"/api/v1/games/?{query}")
    assert response.status_code == 400
    assert response.json()["detail"] == detail


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ("page=abc", "page: 'abc' is not a page number: expected a whole number from 1."),
        ("page=0", "page: '0' is not a page number: expected a whole number from 1."),
        ("page=", "page: '' is not a page number: expected a whole number from 1."),
    ],
)
def test_challenge_pages_are_read_strictly(alice_api, query, detail):
    response = alice_api.get(f"/api/v1/challenges/?{query}")
    assert response.status_code == 400
    assert response.json()["detail"] == detail


def test_a_page_past_the_end_is_a_404(alice_api):
    response = alice_api.get("/api/v1/challenges/?page=2")
    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "detail": "Invalid page."}


def test_a_page_number_on_a_cursor_list_is_refused(alice_api):
    response = alice_api.get("/api/v1/games/?page=2")
    assert response.status_code == 400
    assert response.json()["detail"] == (
        "page: This list has no page numbers: follow its next link (a cursor)."
    )


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ("active=0", "active='0': expected true or false."),
        ("active=", "active='': expected true or false."),
        ("country=", "country: This field may not be blank."),
    ],
)
def test_ranking_filters_are_read_strictly(client, query, detail):
    for url in ("/api/v1/rankings/", "/api/v1/rankings/export.csv"):
        response = client.get(f"{url}?{query}")
        assert response.status_code == 400, url
        assert response.json()["detail"] == detail


def test_an_unknown_api_path_answers_404_even_to_a_session_post_without_csrf(alice):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)

    response = browser.post("/api/v1/nothing/", {"x": "1"})

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_an_unknown_format_is_a_documented_404(client):
    response = client.get("/api/v1/rankings/export.csv?format=xml")
    assert response.status_code == 404
    document = client.get("/api/schema/?format=json").json()
    assert "404" in document["paths"]["/api/v1/rankings/export.csv"]["get"]["responses"]


@pytest.mark.parametrize(
    ("time_control", "detail"),
    [
        ({"kind": "none", "max_days": -1}, "max_days is -1: expected 1 to 365 days"),
        ({"kind": "none", "days_per_move": 99999}, "days_per_move is 99999: expected 1 to 60 days"),
        ({"kind": "per_move", "bank_days": 0}, "bank_days is 0: expected 1 to 120 days"),
        ({"kind": "per_move", "increment_days": 31}, "increment_days is 31: expected 0 to 30 days"),
    ],
)
def test_every_time_control_number_is_checked_whatever_the_kind(alice_api, time_control, detail):
    """Each number is stored with the challenge, used or not: out of range it is refused
    (it used to reach the database's CHECK constraint and answer 500)."""
    response = alice_api.post("/api/v1/challenges/", {"time_control": time_control}, format="json")

    assert response.status_code == 400, response.content
    assert response.json()["detail"] == f"time_control: {detail}"
    assert not Challenge.objects.exists()


def test_the_time_control_ranges_are_documented(client):
    document = client.get("/api/schema/?format=json").json()
    fields = document["components"]["schemas"]["TimeControlRequest"]["properties"]
    bounds = {name: (fields[name]["minimum"], fields[name]["maximum"]) for name in fields
              if "minimum" in fields[name]}  # fmt: skip
    assert bounds == {
        "days_per_move": (1, 60),
        "bank_days": (1, 120),
        "increment_days": (0, 30),
        "max_days": (1, 365),
    }


def test_a_blank_format_is_refused(client):
    response = client.get("/api/v1/rankings/export.csv?format=")
    assert response.status_code == 400
    assert response.json()["detail"] == "format: '' is not a format: expected csv or json."


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("/api/v1/challenges/?scope=", "scope {} is not one of open, incoming, outgoing, mine."),
        ("/api/v1/games/?status=", "status {} is not one of active, finished, annulled."),
        ("/api/v1/games/?mine=", "mine={}: expected true or false."),
    ],
)
def test_a_long_query_value_is_quoted_briefly(client, url, expected):
    long_value = "z" * 3000
    response = client.get(url + long_value)

    assert response.status_code == 400
    assert response.json()["detail"] == expected.format(repr("z" * 40 + "…"))


def test_an_unknown_choice_is_named_briefly_with_the_choices(alice_api):
    response = alice_api.post("/api/v1/challenges/", {"colour": "p" * 5000}, format="json")

    assert response.status_code == 400
    assert response.json()["detail"] == (
        f"colour: {'p' * 40 + '…'!r} is not a choice: expected one of orange, blue, random."
    )
