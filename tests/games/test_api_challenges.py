"""The challenges API: seeks and direct challenges, accepting, declining, cancelling."""

from __future__ import annotations

import pytest

from games import services
from games.models import Challenge, Game
from tests.games.conftest import API

URL = f"{API}/challenges/"


def create(client, **data):
    return client.post(URL, data, format="json")


def test_create_an_open_seek_with_defaults(alice_api, alice):
    response = create(alice_api)
    assert response.status_code == 201
    body = response.json()
    assert body["challenger"] == {"username": "alice", "display_name": "alice"}
    assert body["opponent"] is None
    assert (body["colour"], body["rated"], body["public"], body["window_forfeit"]) == (
        "random",
        True,
        True,
        False,
    )
    assert body["status"] == "open"
    assert body["game_id"] is None
    assert body["time_control"] == {
        "kind": "per_move",
        "days_per_move": 3,
        "bank_days": 10,
        "increment_days": 2,
        "max_days": 20,
        "weekends_off": False,
        "vacation_allowed": True,
        "description": "3 days per move",
    }
    assert Challenge.objects.get(pk=body["id"]).challenger == alice


def test_create_a_direct_challenge_with_a_fischer_clock(alice_api, bob):
    response = create(
        alice_api,
        opponent="bob",
        colour="orange",
        rated=False,
        public=False,
        window_forfeit=True,
        message="Rematch?",
        time_control={"kind": "fischer", "bank_days": 5, "increment_days": 1, "max_days": 8},
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["opponent"]["username"] == "bob"
    assert (body["colour"], body["rated"], body["public"], body["window_forfeit"]) == (
        "orange",
        False,
        False,
        True,
    )
    assert body["message"] == "Rematch?"
    assert body["time_control"]["description"] == "5 days + 1 per move (at most 8)"


@pytest.mark.parametrize(
    ("time_control", "field_message"),
    [
        ({"kind": "per_move", "days_per_move": 0}, "days_per_move is 0: expected 1 to 60 days"),
        (
            {"kind": "fischer", "bank_days": 10, "max_days": 5},
            "max_days is 5: expected at least bank_days (10)",
        ),
        ({"kind": "fischer", "increment_days": 99}, "increment_days is 99: expected 0 to 30"),
    ],
)
def test_time_control_errors_name_the_field(alice_api, time_control, field_message):
    response = create(alice_api, time_control=time_control)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert body["detail"].startswith("time_control: ")
    assert field_message in body["detail"]
    assert "time_control" in body["errors"]
    assert not Challenge.objects.exists()


def test_an_unknown_clock_kind_is_a_field_error(alice_api):
    response = create(alice_api, time_control={"kind": "hourglass"})
    assert response.status_code == 400
    assert response.json()["errors"] == {
        "time_control": {
            "kind": ["'hourglass' is not a choice: expected one of per_move, fischer, none."]
        }
    }


def test_create_errors(alice_api, anon, alice):
    response = create(alice_api, colour="green")
    assert (response.status_code, response.json()["code"]) == (400, "invalid")
    assert response.json()["detail"].startswith("colour: ")

    response = create(alice_api, opponent="nobody")
    assert response.status_code == 404
    assert response.json() == {
        "code": "user_not_found",
        "detail": "There is no active player called 'nobody'.",
    }

    response = create(alice_api, opponent="alice")
    assert (response.status_code, response.json()["code"]) == (400, "self_challenge")

    response = create(anon)
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    assert not Challenge.objects.exists()


def test_list_open_seeks_excludes_my_own_and_direct_ones(alice, bob, carol, bob_api, anon):
    seek = services.challenge_create(challenger=alice)
    services.challenge_create(challenger=bob)  # bob's own seek: not shown to bob
    services.challenge_create(challenger=alice, opponent=carol)  # direct: not a seek
    body = bob_api.get(URL).json()
    assert body["count"] == 1
    assert [c["id"] for c in body["results"]] == [seek.pk]
    assert anon.get(URL).json()["count"] == 2


def test_list_my_challenges_by_scope(alice, bob, carol, bob_api, anon):
    to_bob = services.challenge_create(challenger=alice, opponent=bob)
    from_bob = services.challenge_create(challenger=bob, opponent=carol)
    declined = services.challenge_create(challenger=carol, opponent=bob)
    services.challenge_decline(challenge_id=declined.pk, user=bob)
    services.challenge_create(challenger=alice, opponent=carol)  # not bob's

    def ids(scope):
        response = bob_api.get(URL, {"scope": scope})
        assert response.status_code == 200
        return [c["id"] for c in response.json()["results"]]

    assert ids("incoming") == [to_bob.pk]
    assert ids("outgoing") == [from_bob.pk]
    assert ids("mine") == [declined.pk, from_bob.pk, to_bob.pk]  # all statuses, newest first

    response = bob_api.get(URL, {"scope": "everything"})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_scope"
    response = anon.get(URL, {"scope": "incoming"})
    assert (response.status_code, response.json()["code"]) == (401, "not_authenticated")


def test_challenge_detail_visibility(alice, bob, alice_api, bob_api, carol_api, anon):
    seek = services.challenge_create(challenger=alice)
    direct = services.challenge_create(challenger=alice, opponent=bob)
    assert anon.get(f"{URL}{seek.pk}/").json()["id"] == seek.pk
    assert bob_api.get(f"{URL}{direct.pk}/").json()["opponent"]["username"] == "bob"
    assert alice_api.get(f"{URL}{direct.pk}/").status_code == 200
    for client in (carol_api, anon):
        response = client.get(f"{URL}{direct.pk}/")
        assert response.status_code == 404
        assert response.json() == {
            "code": "challenge_not_found",
            "detail": f"There is no challenge #{direct.pk}.",
        }
    assert anon.get(f"{URL}999999/").status_code == 404


def test_accept_an_open_seek_starts_the_game(alice, bob, bob_api):
    seek = services.challenge_create(challenger=alice, seat_choice=2)
    response = bob_api.post(f"{URL}{seek.pk}/accept/")
    assert response.status_code == 201
    body = response.json()
    assert body["orange"]["username"] == "bob" and body["blue"]["username"] == "alice"
    assert (body["status"], body["ply"], body["to_move"], body["your_side"]) == (
        "active",
        0,
        "orange",
        "orange",
    )
    assert body["moves"] == []
    assert body["position"]["tiles"] == [
        {"cell": "e5", "sides": "NESW", "shape": "X", "colour": "neutral"}
    ]
    game = Game.objects.get(pk=body["id"])
    assert game.challenge == seek
    seek.refresh_from_db()
    assert (seek.status, seek.opponent) == ("accepted", bob)
    assert bob_api.get(f"{URL}{seek.pk}/").json()["game_id"] == game.pk


def test_accept_errors(alice, bob, alice_api, bob_api, carol_api, anon):
    direct = services.challenge_create(challenger=alice, opponent=bob)
    response = alice_api.post(f"{URL}{direct.pk}/accept/")
    assert (response.status_code, response.json()["code"]) == (403, "own_challenge")
    response = carol_api.post(f"{URL}{direct.pk}/accept/")
    assert (response.status_code, response.json()["code"]) == (403, "not_addressed_to_you")
    response = anon.post(f"{URL}{direct.pk}/accept/")
    assert response.status_code == 401
    response = bob_api.post(f"{URL}999999/accept/")
    assert (response.status_code, response.json()["code"]) == (404, "challenge_not_found")
    assert not Game.objects.exists()

    assert bob_api.post(f"{URL}{direct.pk}/accept/").status_code == 201
    response = bob_api.post(f"{URL}{direct.pk}/accept/")
    assert response.status_code == 409
    assert response.json() == {
        "code": "challenge_not_open",
        "detail": f"Challenge #{direct.pk} is accepted, not open.",
    }
    assert Game.objects.count() == 1


def test_decline(alice, bob, alice_api, bob_api, carol_api):
    direct = services.challenge_create(challenger=alice, opponent=bob)
    for client in (carol_api, alice_api):  # someone else's, or one's own
        response = client.post(f"{URL}{direct.pk}/decline/")
        assert (response.status_code, response.json()["code"]) == (403, "not_addressed_to_you")
    response = bob_api.post(f"{URL}{direct.pk}/decline/")
    assert response.status_code == 200
    assert (response.json()["status"], response.json()["game_id"]) == ("declined", None)
    assert response.json()["decided_at"] is not None
    response = bob_api.post(f"{URL}{direct.pk}/decline/")
    assert (response.status_code, response.json()["code"]) == (409, "challenge_not_open")
    response = bob_api.post(f"{URL}{direct.pk}/accept/")
    assert (response.status_code, response.json()["code"]) == (409, "challenge_not_open")


def test_cancel(alice, alice_api, bob_api, anon):
    seek = services.challenge_create(challenger=alice)
    response = bob_api.post(f"{URL}{seek.pk}/cancel/")
    assert (response.status_code, response.json()["code"]) == (403, "not_your_challenge")
    assert anon.post(f"{URL}{seek.pk}/cancel/").status_code == 401
    response = alice_api.post(f"{URL}{seek.pk}/cancel/")
    assert (response.status_code, response.json()["status"]) == (200, "cancelled")
    response = bob_api.post(f"{URL}{seek.pk}/accept/")
    assert response.status_code == 409
    assert response.json()["detail"] == f"Challenge #{seek.pk} is cancelled, not open."


def test_challenge_list_is_paginated(alice, bob_api):
    for _ in range(3):
        services.challenge_create(challenger=alice)
    body = bob_api.get(URL, {"page_size": 2}).json()
    assert body["count"] == 3 and len(body["results"]) == 2
    assert body["next"].endswith("page=2&page_size=2")
    body = bob_api.get(URL, {"page_size": 2, "page": 2}).json()
    assert len(body["results"]) == 1 and body["next"] is None
    response = bob_api.get(URL, {"page": 9})
    assert (response.status_code, response.json()["code"]) == (404, "not_found")
