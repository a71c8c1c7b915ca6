"""The games API for reading: detail, visibility, lists and filters, legal moves, replay,
records; and a whole game played to its end through the API."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games import services
from games.clock import ClockKind, TimeControl
from games.kinds.celtic import GameRecord
from games.models import Game
from tests.accounts.factories import make_moderator
from tests.games.conftest import API, PASSES_GAME_SEED, SHORT_GAME_SEED, submit, token_client

GAMES = f"{API}/games/"


@pytest.fixture
def private_game(alice, bob) -> Game:
    return services.game_start(players=[alice, bob], public=False)


# --- detail and visibility -------------------------------------------------------------------


def test_game_detail(game, alice_api, bob_api, carol_api, anon):
    body = alice_api.get(f"{GAMES}{game.pk}/").json()
    assert body["id"] == game.pk
    assert (body["orange"]["username"], body["blue"]["username"]) == ("alice", "bob")
    assert (body["status"], body["result"], body["termination"]) == ("active", "", "")
    assert (body["ply"], body["to_move"], body["rated"], body["public"]) == (
        0,
        "orange",
        True,
        True,
    )
    assert body["your_side"] == "orange"
    assert body["time_control"]["description"] == "3 days per move"
    assert body["finished_at"] is None
    position = body["position"]
    assert position["ply"] == 0 and position["to_move"] == "orange" and not position["is_over"]
    assert sorted(position["demand_cells"]) == ["d5", "e4", "e6", "f5"]
    assert position["supply"]["orange"] == {"X": 2, "T": 2, "I": 2, "L": 2, "U": 2}
    assert position["supply"]["neutral"] == {"X": 0, "T": 1, "I": 1, "L": 1, "U": 1}
    assert position["knots"] == [] and position["board_result"] == "1/2-1/2"
    assert bob_api.get(f"{GAMES}{game.pk}/").json()["your_side"] == "blue"
    assert carol_api.get(f"{GAMES}{game.pk}/").json()["your_side"] is None
    assert anon.get(f"{GAMES}{game.pk}/").json()["your_side"] is None


PRIVATE_READS = ["", "moves/", "legal-moves/", "positions/0/", "record/", "record/?as=text"]


@pytest.mark.parametrize("suffix", PRIVATE_READS)
def test_a_private_game_is_missing_for_outsiders(private_game, carol_api, anon, bob_api, suffix):
    url = f"{GAMES}{private_game.pk}/{suffix}"
    for client in (carol_api, anon):
        response = client.get(url)
        assert response.status_code == 404
        assert response.json() == {
            "code": "game_not_found",
            "detail": f"There is no game #{private_game.pk}.",
        }
    assert bob_api.get(url).status_code == 200
    assert token_client(make_moderator()).get(url).status_code == 200  # staff see everything


def test_writes_to_a_private_game_are_404_for_outsiders(private_game, carol_api):
    for path, data in (("moves/", {"ply": 0, "move": "d5 ESW"}), ("resign/", None)):
        response = carol_api.post(f"{GAMES}{private_game.pk}/{path}", data, format="json")
        assert (response.status_code, response.json()["code"]) == (404, "game_not_found")
    assert Game.objects.get(pk=private_game.pk).is_active


@pytest.mark.parametrize("suffix", PRIVATE_READS)
def test_a_missing_game_is_404(alice_api, suffix):
    response = alice_api.get(f"{GAMES}999999/{suffix}")
    assert (response.status_code, response.json()["code"]) == (404, "game_not_found")


# --- lists -----------------------------------------------------------------------------------


def ids(client, **params):
    response = client.get(GAMES, params)
    assert response.status_code == 200, response.json()
    return [g["id"] for g in response.json()["results"]]


def test_lists_and_filters(alice, bob, carol, alice_api, bob_api, carol_api, anon):
    with time_machine.travel(datetime(2026, 1, 1, tzinfo=UTC), tick=False) as clock:
        g1 = services.game_start(players=[alice, bob])
        clock.shift(timedelta(hours=1))
        g2 = services.game_start(players=[carol, alice], public=False)
        clock.shift(timedelta(hours=1))
        g3 = services.game_start(players=[bob, carol])
        clock.shift(timedelta(hours=1))
        g4 = services.game_start(players=[alice, carol])
        services.game_resign(game_id=g4.pk, user=carol)

    assert ids(alice_api, mine="true") == [g4.pk, g2.pk, g1.pk]  # newest first
    assert ids(alice_api, mine="true", status="finished") == [g4.pk]
    assert ids(alice_api, mine="true", status="active") == [g2.pk, g1.pk]
    assert ids(anon) == [g4.pk, g3.pk, g1.pk]  # every public game
    assert ids(bob_api) == [g4.pk, g3.pk, g1.pk]
    assert ids(carol_api) == [g4.pk, g3.pk, g2.pk, g1.pk]  # public ones and her own
    assert ids(anon, player="carol") == [g4.pk, g3.pk]  # only public games of a player
    assert ids(carol_api, player="carol", status="active") == [g3.pk]
    assert ids(anon, status="finished") == [g4.pk]

    summary = alice_api.get(GAMES, {"mine": "true"}).json()["results"][0]
    assert (summary["status"], summary["result"], summary["termination"]) == (
        "finished",
        "1-0",
        "resignation",
    )
    assert "moves" not in summary and "position" not in summary


def test_my_turn_lists_games_waiting_for_me_least_time_left_first(alice, bob, carol, alice_api):
    start = datetime(2026, 1, 1, tzinfo=UTC)
    days = TimeControl(kind=ClockKind.PER_MOVE, days_per_move=5)
    no_limit = TimeControl(kind=ClockKind.NONE)
    roomy = services.game_start(players=[alice, bob], time_control=days, now=start)
    unlimited = services.game_start(players=[alice, carol], time_control=no_limit, now=start)
    urgent = services.game_start(players=[alice, carol], now=start)  # three days
    waiting_for_bob = services.game_start(players=[alice, bob], now=start)
    services.move_submit(
        game_id=waiting_for_bob.pk, user=alice, expected_ply=0, notation="d5 ESW", now=start
    )
    as_blue = services.game_start(players=[bob, alice], now=start - timedelta(days=2))
    services.move_submit(
        game_id=as_blue.pk,
        user=bob,
        expected_ply=0,
        notation="d5 ESW",
        now=start - timedelta(days=2, hours=-1),
    )  # alice's deadline: +3d-47h
    finished = services.game_start(players=[alice, carol], now=start)
    services.game_resign(game_id=finished.pk, user=carol)

    with time_machine.travel(start, tick=False):
        assert ids(alice_api, my_turn="true") == [as_blue.pk, urgent.pk, roomy.pk, unlimited.pk]
        first = alice_api.get(GAMES, {"my_turn": "true"}).json()["results"][0]
    assert first["to_move"] == "blue" and first["blue"]["username"] == "alice"
    assert first["blue_seconds_left"] == 86400 + 3600  # 3 days from (start - 47h)


def test_list_errors(anon, alice_api):
    for params in ({"mine": "true"}, {"my_turn": "true"}):
        response = anon.get(GAMES, params)
        assert response.status_code == 401
        assert response.json() == {
            "code": "not_authenticated",
            "detail": "Log in to list your own games.",
        }
    response = alice_api.get(GAMES, {"status": "paused"})
    assert response.status_code == 400
    assert response.json() == {
        "code": "invalid_status",
        "detail": "status 'paused' is not one of active, finished, annulled.",
    }
    response = alice_api.get(GAMES, {"mine": "maybe"})
    assert response.status_code == 400
    assert response.json() == {
        "code": "invalid_flag",
        "detail": "mine='maybe': expected true or false.",
    }
    response = alice_api.get(GAMES, {"player": "nobody"})
    assert (response.status_code, response.json()["code"]) == (404, "user_not_found")


def test_game_list_pagination(alice, bob, anon):
    made = [services.game_start(players=[alice, bob]).pk for _ in range(5)]
    body = anon.get(GAMES, {"page_size": 2}).json()
    assert set(body) == {"next", "previous", "results"}  # no count: paged by cursor
    assert [g["id"] for g in body["results"]] == made[::-1][:2]
    assert body["previous"] is None and "cursor=" in body["next"]
    assert "page_size=2" in body["next"]
    body = anon.get(body["next"]).json()
    assert [g["id"] for g in body["results"]] == made[::-1][2:4]
    body = anon.get(body["next"]).json()
    assert [g["id"] for g in body["results"]] == [made[0]]
    assert body["next"] is None
    body = anon.get(body["previous"]).json()
    assert [g["id"] for g in body["results"]] == made[::-1][2:4]
    too_big = anon.get(GAMES, {"page_size": 500})  # refused, not silently capped at 100
    assert (too_big.status_code, too_big.json()["code"]) == (400, "invalid")
    assert len(anon.get(GAMES, {"page_size": 100}).json()["results"]) == 5


# --- legal moves and replay ------------------------------------------------------------------


def test_legal_moves(game, anon, alice_api):
    body = anon.get(f"{GAMES}{game.pk}/legal-moves/").json()
    assert (body["ply"], body["to_move"]) == (0, "orange")
    assert len(body["moves"]) == 60
    assert body["moves"][:3] == ["d5 E", "d5 E n", "d5 ES"]
    assert body["moves"] == sorted(body["moves"])
    submit(alice_api, game.pk, 0, "d5 ESW")
    body = anon.get(f"{GAMES}{game.pk}/legal-moves/").json()
    assert (body["ply"], body["to_move"]) == (1, "blue")
    assert "d5 ESW" not in body["moves"] and all(not m.startswith("d5") for m in body["moves"])


def test_positions_replay_every_ply(game, alice_api, bob_api, anon):
    submit(alice_api, game.pk, 0, "d5 ESW")
    submit(bob_api, game.pk, 1, "c5 ESW")
    url = f"{GAMES}{game.pk}/positions/"
    zero, one, two = (anon.get(f"{url}{ply}/").json() for ply in range(3))
    assert [len(p["tiles"]) for p in (zero, one, two)] == [1, 2, 3]
    assert (zero["to_move"], one["to_move"], two["to_move"]) == ("orange", "blue", "orange")
    assert {"cell": "d5", "sides": "ESW", "shape": "T", "colour": "orange"} in one["tiles"]
    assert {"cell": "c5", "sides": "ESW", "shape": "T", "colour": "blue"} in two["tiles"]
    assert one["supply"]["orange"]["T"] == 1 and one["supply"]["blue"]["T"] == 2
    assert two == anon.get(f"{GAMES}{game.pk}/").json()["position"]

    response = anon.get(f"{url}3/")
    assert response.status_code == 400
    assert response.json() == {
        "code": "invalid_ply",
        "detail": "ply 3 is outside this game: expected 0 to 2.",
    }
    assert anon.get(f"{url}-1/").status_code == 404  # not a ply at all: no such URL


def test_the_move_list(game, alice_api, bob_api, anon):
    submit(alice_api, game.pk, 0, "d5 ESW")
    submit(bob_api, game.pk, 1, "c5 ESW")
    body = anon.get(f"{GAMES}{game.pk}/moves/").json()
    assert [(t["ply"], t["side"], t["kind"], t["notation"]) for t in body] == [
        (0, "orange", "move", "d5 ESW"),
        (1, "blue", "move", "c5 ESW"),
    ]


# --- a whole game ------------------------------------------------------------------------------


def test_a_complete_game_through_the_api(alice, bob, alice_api, bob_api, anon, play_to_end):
    challenge = alice_api.post(f"{API}/challenges/", {"colour": "orange"}, format="json")
    accepted = bob_api.post(f"{API}/challenges/{challenge.json()['id']}/accept/")
    assert accepted.status_code == 201
    game_id = accepted.json()["id"]
    played = play_to_end(game_id, {"orange": alice_api, "blue": bob_api}, seed=SHORT_GAME_SEED)
    body = played["game"]
    assert (body["status"], body["result"], body["termination"]) == ("finished", "0-1", "normal")
    assert (body["ply"], body["to_move"], body["deadline"]) == (6, "", None)
    assert body["finished_at"] is not None
    assert body["position"]["is_over"] and body["position"]["board_result"] == "0-1"
    assert [t["ply"] for t in played["turns"]] == list(range(6))
    game = Game.objects.get(pk=game_id)
    assert (game.status, game.result, game.finished_at) == ("finished", "0-1", game.finished_at)
    assert game.finished_at is not None

    legal = anon.get(f"{GAMES}{game_id}/legal-moves/").json()
    assert legal == {"ply": 6, "seat_to_move": None, "to_move": None, "moves": []}
    response = submit(alice_api, game_id, 6, "d5 ESW")
    assert response.status_code == 409
    assert response.json() == {
        "code": "game_not_active",
        "detail": f"Game #{game_id} is finished; no more moves are taken.",
    }
    response = alice_api.post(f"{GAMES}{game_id}/resign/")
    assert (response.status_code, response.json()["code"]) == (409, "game_not_active")

    as_json = anon.get(f"{GAMES}{game_id}/record/")
    assert as_json.status_code == 200
    assert as_json["Content-Type"] == "application/json"
    assert as_json["Content-Disposition"] == f'attachment; filename="celtic-game-{game_id}.json"'
    record = GameRecord.from_json(as_json.content.decode())
    assert record.headers["Orange"] == "alice" and record.headers["Blue"] == "bob"
    assert record.headers["Game"] == str(game_id) and record.headers["Rated"] == "yes"
    assert [str(t) for t in record.turns] == [t["notation"] for t in played["turns"]]
    assert record.result == "0-1"
    assert record.replay().result().text == "0-1"

    as_text = anon.get(f"{GAMES}{game_id}/record/", {"as": "text"})
    assert as_text["Content-Type"] == "text/plain; charset=utf-8"
    assert as_text["Content-Disposition"].endswith(f'celtic-game-{game_id}.txt"')
    text = as_text.content.decode()
    assert '[Result "0-1"]' in text and text.rstrip().endswith("0-1")
    from_text = GameRecord.from_text(text)
    assert from_text == record
    assert from_text.replay().result().text == "0-1"


def test_automatic_passes_appear_as_rows_through_the_api(
    alice, bob, alice_api, bob_api, anon, play_to_end
):
    game = services.game_start(players=[alice, bob], rated=False)
    played = play_to_end(game.pk, {"orange": alice_api, "blue": bob_api}, seed=PASSES_GAME_SEED)
    passes = [t for t in played["turns"] if t["kind"] == "pass"]
    assert [(t["ply"], t["side"], t["notation"]) for t in passes] == [
        (16, "orange", ""),
        (18, "orange", ""),
        (20, "orange", ""),
        (22, "orange", ""),
    ]
    # each pass was recorded in the same answer as Blue's move before it
    moves = anon.get(f"{GAMES}{game.pk}/moves/").json()
    assert [m["kind"] for m in moves[15:]] == ["move", "pass"] * 4 + ["move"]
    assert played["game"]["result"] == "0-1"
    text = anon.get(f"{GAMES}{game.pk}/record/", {"as": "text"}).content.decode()
    assert "pass" in text
    assert GameRecord.from_text(text).replay().ply == 24


def test_resignation_through_the_api(game, alice_api, bob_api, carol_api, anon):
    response = carol_api.post(f"{GAMES}{game.pk}/resign/")
    assert (response.status_code, response.json()["code"]) == (403, "not_a_player")
    assert anon.post(f"{GAMES}{game.pk}/resign/").status_code == 401
    response = bob_api.post(f"{GAMES}{game.pk}/resign/")
    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["result"], body["termination"]) == (
        "finished",
        "1-0",
        "resignation",
    )
    assert body["finished_at"] is not None and body["to_move"] == ""
    record = GameRecord.from_json(anon.get(f"{GAMES}{game.pk}/record/").content.decode())
    assert record.headers["Termination"] == "resignation" and record.result == "1-0"
    assert record.replay().ply == 0
    response = alice_api.post(f"{GAMES}{game.pk}/resign/")
    assert (response.status_code, response.json()["code"]) == (409, "game_not_active")


def test_record_of_a_game_in_progress_and_bad_format(game, alice_api, anon):
    submit(alice_api, game.pk, 0, "d5 ESW")
    record = GameRecord.from_json(anon.get(f"{GAMES}{game.pk}/record/").content.decode())
    assert record.result == "*" and [str(t) for t in record.turns] == ["d5 ESW"]
    assert record.replay().ply == 1
    response = anon.get(f"{GAMES}{game.pk}/record/", {"as": "pdf"})
    assert response.status_code == 400
    assert response.json() == {
        "code": "invalid_format",
        "detail": "as='pdf': expected json or text.",
    }


# --- the game as the serializer shows it ------------------------------------------------------


_STARTED = datetime(2026, 3, 2, 9, 0, 0, 250000, tzinfo=UTC)  # a Monday


def _shown(game: Game, viewer) -> dict:
    from django.test import RequestFactory
    from django.utils import timezone

    from games import selectors
    from games.serializers import GameDetailSerializer

    game = Game.objects.with_players().get(pk=game.pk)
    moves, state = selectors.game_moves_and_position(game=game)
    request = RequestFactory().get("/")
    request.user = viewer
    context = {
        "request": request,
        "position": game.game_kind.position_data(state),
        "moves": moves,
        "clocks": selectors.game_clocks(games=[game], now=timezone.now()),
    }
    return GameDetailSerializer(game, context=context).data


@pytest.mark.parametrize("ending", ["running", "no time limit", "resigned"])
def test_a_game_is_shown_with_every_field_it_declares(ending, alice, bob, carol):
    from accounts.models import Profile
    from games.serializers import GameDetailSerializer

    Profile.objects.filter(user=bob).update(display_name="Bob the Builder")
    control = TimeControl(kind=ClockKind.NONE) if ending == "no time limit" else None
    with time_machine.travel(_STARTED, tick=False):
        game = services.game_start(players=[alice, bob], time_control=control)
    with time_machine.travel(_STARTED + timedelta(hours=1), tick=False):
        services.move_submit(game_id=game.pk, user=alice, expected_ply=0, notation="d5 ESW")
        if ending == "resigned":
            services.game_resign(game_id=game.pk, user=bob)
        shown = {viewer.username: _shown(game, viewer) for viewer in (alice, carol)}
    for seen in shown.values():
        assert list(seen) == GameDetailSerializer.Meta.fields
    assert (shown["alice"]["your_side"], shown["carol"]["your_side"]) == ("orange", None)
    seen = shown["carol"]
    assert {key: seen[key] for key in ("id", "orange", "blue", "ply", "rated", "public")} == {
        "id": game.pk,
        "orange": {"username": "alice", "display_name": "alice"},
        "blue": {"username": "bob", "display_name": "Bob the Builder"},
        "ply": 1,
        "rated": True,
        "public": True,
    }
    assert seen["created_at"] == "2026-03-02T09:00:00.250000Z"
    assert seen["moves"] == [
        {
            "ply": 0,
            "seat": 1,
            "side": "orange",
            "kind": "move",
            "notation": "d5 ESW",
            "created_at": "2026-03-02T10:00:00.250000Z",
        }
    ]
    assert seen["position"]["ply"] == 1 and seen["window_forfeit"] is False
    assert seen["time_control"]["kind"] == ("none" if ending == "no time limit" else "per_move")
    assert _state_shown(seen) == _STATES[ending]


def _state_shown(seen: dict) -> tuple:
    return tuple(
        seen[key]
        for key in (
            "status", "result", "termination", "to_move", "deadline", "orange_seconds_left",
            "blue_seconds_left", "clock", "finished_at",
        )
    )  # fmt: skip


_THREE_DAYS = 3 * 24 * 3600
_STATES = {
    "running": (
        "active", "", "", "blue", "2026-03-05T10:00:00.250000Z", _THREE_DAYS, _THREE_DAYS,
        {"seat": 2, "side": "blue", "seconds_left": _THREE_DAYS,
         "deadline": "2026-03-05T10:00:00.250000Z", "paused": None, "resumes_at": None},
        None,
    ),
    "no time limit": ("active", "", "", "blue", None, None, None, None, None),
    "resigned": (
        "finished", "1-0", "resignation", "", None, _THREE_DAYS, _THREE_DAYS, None,
        "2026-03-02T10:00:00.250000Z",
    ),
}  # fmt: skip


def test_a_player_is_shown_with_the_fields_the_schema_declares(alice, bob):
    from accounts.models import Profile
    from games.serializers import PlayerSerializer

    Profile.objects.filter(user=bob).update(display_name="Bob the Builder")
    bob.refresh_from_db()
    declared = list(PlayerSerializer().fields)  # what the OpenAPI schema shows
    assert declared == ["username", "display_name"]
    assert PlayerSerializer(alice).data == {"username": "alice", "display_name": "alice"}
    assert PlayerSerializer(bob).data == {"username": "bob", "display_name": "Bob the Builder"}
