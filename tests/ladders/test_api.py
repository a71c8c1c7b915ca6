"""The ladders API: a challenge made and decided, answers checked field by field."""

from __future__ import annotations

import pytest

from ladders import services
from ladders.models import Ladder
from tests.accounts.factories import make_user
from tests.games.conftest import token_client
from tests.ladders.conftest import finish

pytestmark = pytest.mark.django_db
A = "/api/v1/ladders"


def test_a_challenge_through_the_api(make_ladder, commit):
    ladder = make_ladder(challenge_range=1)
    p = {name: make_user(name) for name in ("ann", "bob", "cat")}
    for name in ("ann", "bob"):
        services.ladder_join(ladder_id=ladder.pk, user=p[name])
    cat = token_client(p["cat"])
    joined = cat.post(f"{A}/{ladder.pk}/join/")
    assert (joined.status_code, joined.json()["place"]) == (201, 3)

    detail = cat.get(f"{A}/{ladder.pk}/").json()
    assert [(x["place"], x["username"], x["challengeable"]) for x in detail["places"]] == [
        (1, "ann", False),
        (2, "bob", True),
        (3, "cat", False),
    ]
    refused = cat.post(f"{A}/{ladder.pk}/challenges/", {"opponent": "ann"}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "out_of_range")
    unknown = cat.post(f"{A}/{ladder.pk}/challenges/", {"opponent": "zed"}, format="json")
    assert (unknown.status_code, unknown.json()["code"]) == (404, "player_not_found")
    empty = cat.post(f"{A}/{ladder.pk}/challenges/", {}, format="json")
    assert empty.status_code == 400

    with commit():
        made = cat.post(f"{A}/{ladder.pk}/challenges/", {"opponent": "bob"}, format="json")
    body = made.json()
    assert made.status_code == 201
    assert (body["challenger"]["username"], body["defender"]["username"]) == ("cat", "bob")
    assert (body["challenger_place"], body["defender_place"], body["status"]) == (3, 2, "playing")
    assert cat.get(f"{A}/{ladder.pk}/").json()["open_challenges"][0]["id"] == body["id"]

    finish(ladder.challenges.get().game, "1-0", commit=commit)
    places = [x["username"] for x in cat.get(f"{A}/{ladder.pk}/").json()["places"]]
    assert places == ["ann", "cat", "bob"]
    history = cat.get(f"{A}/{ladder.pk}/history/").json()["results"]
    assert [e["kind"] for e in history] == ["result", "challenged", "joined", "joined", "joined"]
    assert (history[0]["place_before"], history[0]["place_after"]) == (3, 2)
    assert (history[0]["opponent_place_before"], history[0]["opponent_place_after"]) == (2, 3)
    assert history[0]["order_after"] == [p["ann"].pk, p["cat"].pk, p["bob"].pk]


def test_bad_limits_are_named_per_field(organiser):
    client = token_client(organiser)
    answer = client.post(
        f"{A}/",
        {"name": "Club", "challenge_range": 0, "time_control": {"days_per_move": 99}},
        format="json",
    )
    assert answer.status_code == 400
    answer = client.post(f"{A}/", {"name": "Club", "challenge_range": 0}, format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid_settings")
    assert answer.json()["errors"] == {"challenge_range": "From 1 to 50 places."}
    absurd = {"challenge_range": 100000, "inactivity_days": -1}
    answer = client.post(f"{A}/", {"name": "Club", **absurd}, format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid_settings")
    assert answer.json()["errors"] == {
        "challenge_range": "From 1 to 50 places.",
        "inactivity_days": "From 7 to 365 days.",
    }


def test_values_of_the_wrong_json_type_are_refused_not_converted(make_ladder, organiser):
    ladder = make_ladder()
    player = make_user("player")
    services.ladder_join(ladder_id=ladder.pk, user=player)
    client = token_client(organiser)

    created = client.post(f"{A}/", {"name": "Typed", "challenge_range": "3"}, format="json")
    removed = client.post(
        f"{A}/{ladder.pk}/remove/", {"player": 7, "reason": ["left"]}, format="json"
    )
    challenged = token_client(player).post(
        f"{A}/{ladder.pk}/challenges/", {"opponent": None}, format="json"
    )

    assert (created.status_code, created.json()["errors"]) == (
        400,
        {"challenge_range": ["Expected a whole number, not a string."]},
    )
    assert (removed.status_code, removed.json()["errors"]) == (
        400,
        {
            "player": ["Expected a string, not a number."],
            "reason": ["Expected a string, not a list."],
        },
    )
    assert (challenged.status_code, challenged.json()["errors"]) == (
        400,
        {"opponent": ["This field may not be null."]},
    )
    assert [row.player.username for row in ladder.players.all()] == ["player"]
    assert not ladder.challenges.exists()
    assert Ladder.objects.filter(name="Typed").count() == 0
