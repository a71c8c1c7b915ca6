"""The API on game kinds and seats: the game kinds, games answered by seat (with the
deprecated colour fields of a game of Orange and Blue), challenges naming a kind, a seat
count and a seat (or the deprecated colour), and seeks for more than two filling up."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games import services
from games.kinds import all_kinds, register, unregister
from games.models import Challenge, Game
from tests.accounts.factories import make_user
from tests.games.conftest import API, submit, token_client
from tests.kinds.counting import COUNTING

CHALLENGES = f"{API}/challenges/"
KINDS = f"{API}/game-kinds/"
THREE_DAYS = 3 * 24 * 3600

CELTIC = {
    "id": "celtic",
    "name": "Celtic!",
    "rules_version": "1",
    "seats": {"min": 2, "max": 2},
    "seat_names": ["Orange", "Blue"],
    "chance": False,
    "notation_help": "Write a move as its cell, its open sides in N E S W order and an "
    "optional n for a neutral tile, like 'f5 NE' or 'd5 NESW n'.",
}


@pytest.fixture
def counting() -> Iterator[None]:
    """Host the tests' counting game (two to four seats: North, East, South, West)."""
    register(COUNTING)
    yield
    unregister(COUNTING.id)


def player(name: str) -> dict[str, str]:
    return {"username": name, "display_name": name}


# --- the game kinds ------------------------------------------------------------------------------


def test_the_game_kinds_are_listed_for_anyone(anon):
    response = anon.get(KINDS)
    assert response.status_code == 200
    body = response.json()
    assert body[0] == CELTIC
    assert [kind["id"] for kind in body] == ["celtic", "knot"]
    assert (body[1]["seats"], body[1]["chance"]) == ({"min": 2, "max": 6}, True)


def test_a_kind_registered_later_is_listed_after_celtic(anon, counting):
    body = anon.get(KINDS).json()
    assert [kind["id"] for kind in body] == [kind.id for kind in all_kinds()]
    assert body[0] == CELTIC
    assert body[-1]["seats"] == {"min": 2, "max": 4}
    assert body[-1]["seat_names"] == ["North", "East", "South", "West"]


def test_a_game_kind_is_shown_by_its_id(anon):
    response = anon.get(f"{KINDS}celtic/")
    assert (response.status_code, response.json()) == (200, CELTIC)


def test_an_unknown_game_kind_is_404_naming_the_known_ones(anon):
    response = anon.get(f"{KINDS}chess/")
    assert response.status_code == 404
    assert response.json() == {
        "code": "kind_not_found",
        "detail": "Unknown game kind 'chess': expected one of celtic, knot.",
    }


# --- games by seat ---------------------------------------------------------------------------


def test_a_celtic_game_answers_its_seats_and_the_deprecated_colour_fields(alice, bob, alice_api):
    with time_machine.travel(datetime(2026, 3, 2, 9, tzinfo=UTC), tick=False):
        game = services.game_start(players=[alice, bob])
        body = alice_api.get(f"{API}/games/{game.pk}/").json()
    assert (body["kind"], body["seat_count"], body["seat_to_move"]) == ("celtic", 2, 1)
    assert body["seats"] == [
        {"seat": 1, "name": "Orange", "user": player("alice"), "seconds_left": THREE_DAYS,
         "place": None, "left_at_ply": None},
        {"seat": 2, "name": "Blue", "user": player("bob"), "seconds_left": THREE_DAYS,
         "place": None, "left_at_ply": None},
    ]  # fmt: skip
    assert (body["orange"], body["blue"]) == (player("alice"), player("bob"))
    assert (body["to_move"], body["orange_seconds_left"], body["blue_seconds_left"]) == (
        "orange",
        THREE_DAYS,
        THREE_DAYS,
    )
    assert (body["your_seat"], body["your_side"]) == (1, "orange")
    assert (body["clock"]["seat"], body["clock"]["side"]) == (1, "orange")


def test_the_seats_show_the_places_once_over(game, bob, bob_api):
    services.game_resign(game_id=game.pk, user=bob)
    body = bob_api.get(f"{API}/games/{game.pk}/").json()
    assert [(seat["seat"], seat["place"]) for seat in body["seats"]] == [(1, 1), (2, 2)]
    assert (body["seat_to_move"], body["to_move"], body["clock"]) == (None, "", None)
    assert (body["your_seat"], body["your_side"]) == (2, "blue")


def test_a_spectator_has_no_seat(game, carol_api):
    body = carol_api.get(f"{API}/games/{game.pk}/").json()
    assert (body["your_seat"], body["your_side"]) == (None, None)


def test_the_live_status_and_legal_moves_name_the_seat_to_move(game, alice_api, anon):
    submit(alice_api, game.pk, 0, "d5 ESW")
    live = anon.get(f"{API}/games/{game.pk}/live/").json()
    assert (live["seat_to_move"], live["to_move"]) == (2, "blue")
    legal = anon.get(f"{API}/games/{game.pk}/legal-moves/").json()
    assert (legal["ply"], legal["seat_to_move"], legal["to_move"]) == (1, 2, "blue")
    assert "c5 ESW" in legal["moves"] and legal["moves"] == sorted(legal["moves"])
    tried = anon.get(f"{API}/games/{game.pk}/legal-moves/", {"after": "c5 ESW"}).json()
    assert (tried["ply"], tried["seat_to_move"], tried["to_move"]) == (2, 1, "orange")


def test_a_game_of_another_kind_is_answered_through_its_kind(
    counting, alice, bob, carol, alice_api, anon
):
    game = services.game_start(players=[alice, bob, carol], kind="counting")
    body = anon.get(f"{API}/games/{game.pk}/").json()
    assert (body["kind"], body["seat_count"], body["seat_to_move"]) == ("counting", 3, 1)
    assert [(seat["seat"], seat["name"], seat["user"]["username"]) for seat in body["seats"]] == [
        (1, "North", "alice"),
        (2, "East", "bob"),
        (3, "South", "carol"),
    ]
    # the colour fields belong to games of Orange and Blue only
    assert (body["orange"], body["blue"], body["orange_seconds_left"]) == (None, None, None)
    assert body["to_move"] == "north" and body["position"] == {"count": 0, "target": 10}
    legal = anon.get(f"{API}/games/{game.pk}/legal-moves/").json()
    assert legal == {"ply": 0, "seat_to_move": 1, "to_move": "north", "moves": ["1", "2"]}

    played = submit(alice_api, game.pk, 0, "2")
    assert played.status_code == 201, played.json()
    assert [(t["seat"], t["side"], t["notation"]) for t in played.json()["turns"]] == [
        (1, "north", "2")
    ]
    assert played.json()["game"]["seat_to_move"] == 2
    assert anon.get(f"{API}/games/{game.pk}/positions/1/").json() == {"count": 2, "target": 10}

    refused = submit(alice_api, game.pk, 1, "2")
    assert (refused.status_code, refused.json()["code"]) == (409, "not_your_turn")

    record = anon.get(f"{API}/games/{game.pk}/record/", {"as": "text"})
    assert record["Content-Disposition"] == f'attachment; filename="counting-game-{game.pk}.txt"'
    assert '[North "alice"]' in record.content.decode()


def test_the_json_record_keeps_its_bytes(game, alice_api, anon):
    submit(alice_api, game.pk, 0, "d5 ESW")
    response = anon.get(f"{API}/games/{game.pk}/record/")
    text = response.content.decode()
    assert text.startswith('{\n "format": ') and '\n  "Orange": "alice",\n' in text
    assert '"turns": [\n  "d5 ESW"\n ],' in text


# --- challenges --------------------------------------------------------------------------------


def create(client, **data):
    return client.post(CHALLENGES, data, format="json")


def test_a_challenge_names_its_kind_seat_count_and_seat(alice_api):
    body = create(alice_api, kind="celtic", seat_count=2, seat=2).json()
    assert (body["kind"], body["seat_count"], body["seat"], body["colour"]) == (
        "celtic",
        2,
        2,
        "blue",
    )
    assert body["entrants"] == []
    assert Challenge.objects.get(pk=body["id"]).seat_choice == 2


def test_a_challenge_defaults_to_celtic_for_two_at_a_random_seat(alice_api):
    body = create(alice_api).json()
    assert (body["kind"], body["seat_count"], body["seat"], body["colour"]) == (
        "celtic",
        2,
        None,
        "random",
    )


@pytest.mark.parametrize(("colour", "seat"), [("orange", 1), ("blue", 2), ("random", None)])
def test_the_deprecated_colour_names_a_seat(alice_api, colour, seat):
    response = create(alice_api, colour=colour)
    assert response.status_code == 201, response.json()
    assert (response.json()["seat"], response.json()["colour"]) == (seat, colour)
    assert Challenge.objects.get(pk=response.json()["id"]).seat_choice == seat


def test_a_colour_may_come_with_the_same_seat_but_not_another(alice_api):
    assert create(alice_api, colour="blue", seat=2).status_code == 201
    response = create(alice_api, colour="blue", seat=1)
    assert response.status_code == 400
    assert response.json() == {
        "code": "invalid_seat",
        "detail": "colour 'blue' and seat 1 disagree: give one of them.",
    }


@pytest.mark.parametrize(
    ("data", "code", "detail"),
    [
        (
            {"kind": "chess"},
            "invalid_seats",
            "Unknown game kind 'chess': expected one of celtic, knot.",
        ),
        (
            {"kind": "chess", "colour": "orange"},
            "invalid_seats",
            "Unknown game kind 'chess': expected one of celtic, knot.",
        ),
        ({"seat_count": 3}, "invalid_seats", "Celtic! is played by 2 players, not 3."),
        (
            {"seat": 3},
            "invalid_seat",
            "Seat 3 does not exist in a game for 2: choose 1 to 2, or none for a random seat.",
        ),
    ],
)
def test_a_bad_kind_seat_count_or_seat_is_400_with_the_reason(alice_api, data, code, detail):
    response = create(alice_api, **data)
    assert response.status_code == 400
    assert response.json() == {"code": code, "detail": detail}
    assert not Challenge.objects.exists()


def test_a_colour_must_be_a_seat_of_a_game_for_two(alice_api, counting):
    response = create(alice_api, kind="counting", seat_count=3, colour="orange")
    assert (response.status_code, response.json()["code"]) == (400, "invalid_seat")
    assert response.json()["detail"] == (
        "colour applies to a game for two; this one is for 3: choose a seat with seat (null "
        "for a random one)."
    )
    response = create(alice_api, kind="counting", colour="orange")
    assert response.json() == {
        "code": "invalid_seat",
        "detail": "colour 'orange' is not a seat of Counting: expected north, east or random.",
    }
    assert not Challenge.objects.exists()


def test_a_seek_for_three_fills_seat_by_seat_then_starts(
    counting, alice_api, bob_api, carol_api, anon
):
    seek = create(alice_api, kind="counting", seat_count=3, seat=1).json()
    assert (seek["kind"], seek["seat_count"], seek["seat"], seek["colour"]) == (
        "counting",
        3,
        1,
        None,
    )

    joined = bob_api.post(f"{CHALLENGES}{seek['id']}/accept/")
    assert joined.status_code == 200  # a seat taken: the seek is not full yet
    assert (joined.json()["status"], joined.json()["entrants"]) == ("open", [player("bob")])
    listed = anon.get(CHALLENGES).json()["results"]
    assert [(c["id"], c["entrants"]) for c in listed] == [(seek["id"], [player("bob")])]

    again = bob_api.post(f"{CHALLENGES}{seek['id']}/accept/")
    assert (again.status_code, again.json()["code"]) == (409, "already_seated")

    started = carol_api.post(f"{CHALLENGES}{seek['id']}/accept/")
    assert started.status_code == 201
    game = started.json()
    assert (game["kind"], game["seat_count"], game["status"]) == ("counting", 3, "active")
    seated = {seat["user"]["username"]: seat["seat"] for seat in game["seats"]}
    assert seated["alice"] == 1 and sorted(seated.values()) == [1, 2, 3]
    assert game["your_seat"] == seated["carol"]
    assert Game.objects.get(pk=game["id"]).challenge_id == seek["id"]
    assert anon.get(f"{CHALLENGES}{seek['id']}/").json()["game_id"] == game["id"]


def test_a_running_clock_shows_in_the_seat_to_move(alice, bob, alice_api):
    start = datetime(2026, 3, 2, 9, tzinfo=UTC)
    with time_machine.travel(start, tick=False):
        game = services.game_start(players=[alice, bob])
    with time_machine.travel(start + timedelta(hours=5), tick=False):
        body = alice_api.get(f"{API}/games/{game.pk}/").json()
    left = THREE_DAYS - 5 * 3600
    assert [seat["seconds_left"] for seat in body["seats"]] == [left, THREE_DAYS]
    assert (body["orange_seconds_left"], body["clock"]["seconds_left"]) == (left, left)


def _list_queries(client) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(CHALLENGES)  # warm: the token
    with CaptureQueriesContext(connection) as captured:
        assert client.get(CHALLENGES).status_code == 200
    return len(captured)


def test_a_page_of_seeks_costs_the_same_however_many_seats_are_taken(counting, alice, bob, carol):
    dave_api = token_client(make_user("dave"))
    services.challenge_create(challenger=alice)
    few = _list_queries(dave_api)
    for challenger in (alice, bob, carol):
        seek = services.challenge_create(challenger=challenger, kind="counting", seat_count=4)
        for entrant in {alice, bob, carol} - {challenger}:
            services.challenge_accept(challenge_id=seek.pk, user=entrant)
    # token; the count; the page with challengers, opponents and games; the seeks' entrants;
    # the players the challenges to several invite
    assert _list_queries(dave_api) == few == 5
