"""Submitting moves through the API: the happy path, every refusal, idempotency keys,
throttling, and both ways to authenticate."""

from __future__ import annotations

import base64

import pytest
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from games import errors, services
from games.models import Game, IdempotentRequest, Move
from tests.accounts.factories import PASSWORD
from tests.games.conftest import API, moves_url, submit


def rows(game: Game) -> list[tuple[int, int, str, str]]:
    return list(Move.objects.filter(game=game).values_list("ply", "seat", "kind", "notation"))


def test_a_move_is_recorded_and_answered_with_the_new_game(game, alice_api):
    response = submit(alice_api, game.pk, 0, "d5 wse")
    assert response.status_code == 201
    body = response.json()
    assert [(t["ply"], t["side"], t["kind"], t["notation"]) for t in body["turns"]] == [
        (0, "orange", "move", "d5 ESW")
    ]
    assert (body["game"]["ply"], body["game"]["to_move"], body["game"]["your_side"]) == (
        1,
        "blue",
        "orange",
    )
    assert body["game"]["moves"][0]["notation"] == "d5 ESW"
    assert {"cell": "d5", "sides": "ESW", "shape": "T", "colour": "orange"} in (
        body["game"]["position"]["tiles"]
    )
    assert rows(game) == [(0, 1, "move", "d5 ESW")]
    assert "Idempotent-Replay" not in response


def test_a_neutral_tile(game, alice_api):
    body = submit(alice_api, game.pk, 0, "e6 ns N").json()
    assert body["turns"][0]["notation"] == "e6 NS n"
    assert body["game"]["position"]["supply"]["neutral"]["I"] == 0


@pytest.mark.parametrize(
    ("move", "detail"),
    [
        ("", "move: This field may not be blank."),
        ("d5", None),
        ("z9 N", None),
        ("d5 NQ", None),
        ("d5 NE x", None),
    ],
)
def test_unparseable_moves_are_400_and_say_what_was_expected(game, alice_api, move, detail):
    response = submit(alice_api, game.pk, 0, move)
    assert response.status_code == 400
    body = response.json()
    if detail is not None:  # blank: refused by the serializer, field named
        assert body["code"] == "invalid" and body["detail"] == detail
    else:
        assert body["code"] == "invalid_notation"
        assert body["expected"] == errors.HOW_TO_WRITE_A_MOVE
        assert body["detail"]
    assert rows(game) == []


@pytest.mark.parametrize(
    ("move", "rule", "detail"),
    [
        (
            "a1 N",
            "not-demand",
            "a1 N: a1 is not a demand cell (no open side of the design points at it)",
        ),
        ("f5 N", "mismatch", "f5 N: e5's east side is open but this tile's west side is closed"),
        ("e5 NS", "occupied", "e5 NS: e5 already holds a tile"),
        ("d5 NESW n", "not-in-supply", "d5 NESW n: no neutral cross (X) is left in the supply"),
    ],
)
def test_illegal_moves_are_400_and_name_the_rule(game, alice_api, move, rule, detail):
    response = submit(alice_api, game.pk, 0, move)
    assert response.status_code == 400
    assert response.json() == {"code": "illegal_move", "detail": detail, "rule": rule}
    assert rows(game) == []
    assert Game.objects.get(pk=game.pk).ply == 0


def test_the_window_rule(game, alice_api, bob_api):
    submit(alice_api, game.pk, 0, "d5 ESW")
    submit(bob_api, game.pk, 1, "c5 ESW")
    response = submit(alice_api, game.pk, 2, "b5 EW")
    assert response.status_code == 400
    assert response.json() == {
        "code": "illegal_move",
        "rule": "window",
        "detail": "b5 EW: the tiles and demand cells would span 6 columns; they must fit a "
        "5x5 window (rule 4)",
    }
    assert len(rows(game)) == 2


def test_the_window_forfeit_variant_records_a_forfeited_turn(alice, bob, alice_api, bob_api):
    game = services.game_start(players=[alice, bob], window_forfeit=True)
    submit(alice_api, game.pk, 0, "d5 ESW")
    submit(bob_api, game.pk, 1, "c5 ESW")
    response = submit(alice_api, game.pk, 2, "b5 EW")
    assert response.status_code == 201
    body = response.json()
    assert [(t["kind"], t["notation"]) for t in body["turns"]] == [("forfeit", "b5 EW")]
    assert (body["game"]["ply"], body["game"]["to_move"]) == (3, "blue")
    assert len(body["game"]["position"]["tiles"]) == 3


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"move": "d5 ESW"}, "ply"),
        ({"ply": -1, "move": "d5 ESW"}, "ply"),
        ({"ply": 0}, "move"),
        ({"ply": "first", "move": "d5 ESW"}, "ply"),
    ],
)
def test_a_malformed_body_names_the_field(game, alice_api, data, field):
    response = alice_api.post(moves_url(game.pk), data, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert list(body["errors"]) == [field]
    assert body["detail"].startswith(f"{field}: ")


def test_a_stale_ply_is_409_with_the_current_ply(game, alice_api, bob_api):
    submit(alice_api, game.pk, 0, "d5 ESW")
    for ply in (0, 5):
        response = submit(bob_api, game.pk, ply, "c5 ESW")
        assert response.status_code == 409
        assert response.json() == {
            "code": "stale_ply",
            "detail": f"The game is at ply 1, not {ply}: reload it and try again.",
            "current_ply": 1,
        }
    assert len(rows(game)) == 1


def test_a_duplicate_submission_is_409_and_changes_nothing(game, alice_api):
    assert submit(alice_api, game.pk, 0, "d5 ESW").status_code == 201
    response = submit(alice_api, game.pk, 0, "d5 ESW")
    assert (response.status_code, response.json()["code"]) == (409, "stale_ply")
    assert rows(game) == [(0, 1, "move", "d5 ESW")]


def test_not_your_turn_is_409(game, bob_api):
    response = submit(bob_api, game.pk, 0, "d5 ESW")
    assert response.status_code == 409
    assert response.json() == {"code": "not_your_turn", "detail": "It is Orange's turn, not yours."}
    assert rows(game) == []


def test_an_outsider_gets_403_and_a_guest_401(game, carol_api, anon):
    response = submit(carol_api, game.pk, 0, "d5 ESW")
    assert response.status_code == 403
    assert response.json() == {
        "code": "not_a_player",
        "detail": f"You are not a player in game #{game.pk}.",
    }
    response = submit(anon, game.pk, 0, "d5 ESW")
    assert response.status_code == 401
    assert response.json() == {
        "code": "not_authenticated",
        "detail": "Authentication credentials were not provided.",
    }
    assert response["WWW-Authenticate"] == "Token"
    assert submit(carol_api, 999999, 0, "d5 ESW").status_code == 404
    assert rows(game) == []


def test_a_finished_game_takes_no_moves(game, alice_api, bob_api):
    bob_api.post(f"{API}/games/{game.pk}/resign/")
    response = submit(alice_api, game.pk, 0, "d5 ESW")
    assert (response.status_code, response.json()["code"]) == (409, "game_not_active")
    assert rows(game) == []


# --- idempotency ------------------------------------------------------------------------------


def test_a_repeat_with_the_same_key_gets_the_first_answer(game, alice_api):
    first = submit(alice_api, game.pk, 0, "d5 ESW", HTTP_IDEMPOTENCY_KEY="move-1")
    again = submit(alice_api, game.pk, 0, "d5 ESW", HTTP_IDEMPOTENCY_KEY="move-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replay"] == "true"
    assert "Idempotent-Replay" not in first
    assert rows(game) == [(0, 1, "move", "d5 ESW")]
    assert IdempotentRequest.objects.get().key == "move-1"


def test_the_same_key_with_another_body_is_refused(game, alice_api, bob_api):
    submit(alice_api, game.pk, 0, "d5 ESW", HTTP_IDEMPOTENCY_KEY="k")
    response = submit(alice_api, game.pk, 0, "e6 NS n", HTTP_IDEMPOTENCY_KEY="k")
    assert response.status_code == 400
    assert response.json() == {
        "code": "idempotency_key_reused",
        "detail": "This Idempotency-Key was already used for a different request; use a new key.",
    }
    # keys belong to their user: bob may use "k" too
    assert submit(bob_api, game.pk, 1, "c5 ESW", HTTP_IDEMPOTENCY_KEY="k").status_code == 201
    assert len(rows(game)) == 2


def test_a_refused_request_stores_no_answer(game, alice_api):
    response = submit(alice_api, game.pk, 0, "a1 N", HTTP_IDEMPOTENCY_KEY="k1")
    assert (response.status_code, response.json()["code"]) == (400, "illegal_move")
    assert not IdempotentRequest.objects.exists()
    response = submit(alice_api, game.pk, 0, "a1 N", HTTP_IDEMPOTENCY_KEY="k1")
    assert "Idempotent-Replay" not in response


def test_an_overlong_key_is_refused(game, alice_api):
    response = submit(alice_api, game.pk, 0, "d5 ESW", HTTP_IDEMPOTENCY_KEY="x" * 101)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_key"
    assert rows(game) == []


# --- throttling and authentication -------------------------------------------------------------


def test_move_submissions_are_throttled(game, alice_api, monkeypatch, settings):
    # DRF reads the rates once, into the throttle class: patch both the setting and the class.
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "moves": "2/minute"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)
    assert submit(alice_api, game.pk, 0, "a1 N").status_code == 400  # counted, though refused
    assert submit(alice_api, game.pk, 0, "d5 ESW").status_code == 201
    response = submit(alice_api, game.pk, 1, "c5 ESW")
    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "throttled"
    assert body["detail"].startswith("Request was throttled. Expected available in ")
    assert int(response["Retry-After"]) > 0
    assert alice_api.get(moves_url(game.pk)).status_code == 200  # reading is not a move
    assert len(rows(game)) == 1


def test_session_authentication_works_and_checks_csrf(game, alice):
    client = APIClient(enforce_csrf_checks=True)
    client.get("/accounts/login/")  # sets the CSRF cookie, as a browser page would
    assert client.login(username="alice", password=PASSWORD)
    response = submit(client, game.pk, 0, "d5 ESW")
    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"
    assert "CSRF" in response.json()["detail"]
    response = submit(
        client, game.pk, 0, "d5 ESW", HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value
    )
    assert response.status_code == 201
    assert response.json()["game"]["your_side"] == "orange"


def test_token_authentication_errors(game):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-key")
    response = submit(client, game.pk, 0, "d5 ESW")
    assert response.status_code == 401
    assert response.json() == {"code": "authentication_failed", "detail": "Invalid API token."}
    assert rows(game) == []


def test_a_token_from_http_basic_then_a_move(game, alice):
    basic = APIClient()
    basic.credentials(HTTP_AUTHORIZATION=_basic("alice", PASSWORD))
    created = basic.post(f"{API}/accounts/tokens/", {"name": "cli"}, format="json")
    assert created.status_code == 201
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {created.json()['key']}")
    assert submit(client, game.pk, 0, "d5 ESW").status_code == 201


def _basic(username: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode()


def test_a_turn_is_shown_with_the_fields_it_declares(game, alice_api):
    from datetime import UTC, datetime

    import time_machine

    from games.serializers import TurnSerializer

    with time_machine.travel(datetime(2026, 3, 2, 9, 0, 5, 123456, tzinfo=UTC), tick=False):
        submit(alice_api, game.pk, 0, "d5 wse")
    turns = list(Move.objects.filter(game=game))
    assert TurnSerializer(turns, many=True).data == [
        {
            "ply": 0,
            "seat": 1,
            "side": "orange",
            "kind": "move",
            "notation": "d5 ESW",
            "created_at": "2026-03-02T09:00:05.123456Z",
        }
    ]


@pytest.mark.parametrize("paused", [None, "weekend", "vacation"])
def test_a_clock_is_shown_in_plain_json_values(paused):
    from datetime import UTC, datetime, timedelta

    from games.clock import ClockReading, PauseReason
    from games.serializers import ClockSerializer, clock_data

    deadline = datetime(2026, 11, 27, 18, 30, 5, 123456, tzinfo=UTC)
    game = Game(seat_to_move=2, deadline=deadline)
    reading = ClockReading(
        time_left=timedelta(days=2, seconds=7.9),
        paused=None if paused is None else PauseReason(paused),
        resumes_at=None if paused is None else deadline - timedelta(days=1),
    )
    shown = dict(ClockSerializer(clock_data(game, reading)).data)
    assert shown == {
        "seat": 2,
        "side": "blue",
        "seconds_left": 2 * 24 * 3600 + 7,
        "deadline": "2026-11-27T18:30:05.123456Z",
        "paused": paused,
        "resumes_at": None if paused is None else "2026-11-26T18:30:05.123456Z",
    }
    assert all(type(value) in (str, int, type(None)) for value in shown.values())
    assert clock_data(game, None) is None
