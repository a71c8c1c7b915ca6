"""One round of an event through the REST API only: create, publish, register, start, play
the round's games through the games API, see the next round start and the standings."""

from __future__ import annotations

import random

import pytest

from notifications.models import OutboxEmail
from tests.accounts.factories import make_user
from tests.games.conftest import token_client
from tests.tournaments.conftest import grant
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

API = "/api/v1"
T = f"{API}/tournaments"


def play_to_the_end(client_of, game_id: int, *, commit, seed: int) -> dict:
    """Both players move at random (from the legal-moves endpoint) until the game ends."""
    rng = random.Random(seed)
    while True:
        game = client_of["anon"].get(f"{API}/games/{game_id}/").json()
        if game["status"] != "active":
            return game
        legal = client_of["anon"].get(f"{API}/games/{game_id}/legal-moves/").json()
        mover = game[legal["to_move"]]["username"]
        with commit():
            answer = client_of[mover].post(
                f"{API}/games/{game_id}/moves/",
                {"ply": legal["ply"], "move": rng.choice(legal["moves"])},
                format="json",
            )
        assert answer.status_code == 201, answer.json()


def test_one_round_of_a_round_robin_through_the_api(commit, api_client):
    organiser = grant(make_user("orga"), "organise_tournament")
    players = [make_user(name) for name in ("ann", "ben", "cai", "dee")]
    client_of = {user.username: token_client(user) for user in [organiser, *players]}
    client_of["anon"] = api_client
    orga = client_of["orga"]

    created = orga.post(
        f"{T}/",
        {
            "name": "Samhain Cup",
            "format": "round_robin",
            "entry_code": "knot",
            "tiebreaks": ["de", "sb", "win"],
            "time_control": {"kind": "per_move", "days_per_move": 5},
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    event = created.json()
    assert (event["status"], event["entry_code"], event["can_manage"]) == ("draft", "knot", True)
    assert event["rules"]["tiebreaks"] == ["de", "sb", "win"]
    assert event["time_control"]["days_per_move"] == 5
    url = f"{T}/{event['id']}/"
    assert api_client.get(url).status_code == 404  # a draft is the organiser's alone

    assert orga.post(f"{url}open-registration/").json()["status"] == "registration"
    listed = api_client.get(f"{T}/?status=open").json()["results"]
    assert [(t["name"], t["needs_entry_code"]) for t in listed] == [("Samhain Cup", True)]
    wrong = client_of["ann"].post(f"{url}register/", {"entry_code": "loop"}, format="json")
    assert (wrong.status_code, wrong.json()["code"]) == (403, "entry_code_wrong")
    for user in players:
        answer = client_of[user.username].post(f"{url}register/", {"entry_code": "knot"})
        assert (answer.status_code, answer.json()["status"]) == (201, "approved")

    with commit():
        started = orga.post(f"{url}start/")
    assert started.status_code == 200, started.json()
    detail = started.json()
    assert detail["status"] == "running" and detail["rounds_planned"] == 3
    first, second, third = detail["rounds"]
    assert (first["status"], second["status"], third["status"]) == ("running", "planned", "planned")
    assert len(first["games"]) == 2 and all(g["game_id"] for g in first["games"])
    assert sorted(e["seed"] for e in detail["entries"]) == [1, 2, 3, 4]
    assert OutboxEmail.objects.filter(event="tournament_round").count() == 4

    # board 1 is played out move by move; on board 2 Orange moves once and Blue resigns
    board1, board2 = first["games"]
    finished = play_to_the_end(client_of, board1["game_id"], commit=commit, seed=7)
    assert finished["status"] == "finished"
    game2 = api_client.get(f"{API}/games/{board2['game_id']}/").json()
    orange2, blue2 = game2["orange"]["username"], game2["blue"]["username"]
    legal = api_client.get(f"{API}/games/{board2['game_id']}/legal-moves/").json()
    with commit():
        client_of[orange2].post(
            f"{API}/games/{board2['game_id']}/moves/",
            {"ply": 0, "move": legal["moves"][0]},
            format="json",
        )
    with commit():
        resigned = client_of[blue2].post(f"{API}/games/{board2['game_id']}/resign/")
    assert resigned.json()["result"] == "1-0"

    after = api_client.get(url).json()
    first, second, _ = after["rounds"]
    assert first["status"] == "complete"
    assert [g["result"] for g in first["games"]] == [finished["result"], "1-0"]
    assert second["status"] == "running" and len(second["games"]) == 2
    # every player meets a new opponent in round 2
    met = {frozenset((g["orange_entry_id"], g["blue_entry_id"])) for g in first["games"]}
    assert not met & {
        frozenset((g["orange_entry_id"], g["blue_entry_id"])) for g in second["games"]
    }

    standings = api_client.get(f"{url}standings/").json()
    assert standings["tiebreaks"] == ["de", "sb", "win"] and standings["edition"] == "2026"
    rows = standings["rows"]
    assert len(rows) == 4 and sum(row["points"] for row in rows) == 2
    assert rows[0]["points"] >= rows[-1]["points"]
    assert all(set(row["tiebreaks"]) == {"de", "sb", "win"} for row in rows)
    assert all(row["best_place"] == 1 and row["places_exact"] for row in rows)  # 2 rounds left
    assert not any(row["clinched"] or row["eliminated"] for row in rows)
    assert {row["username"] for row in rows} == {"ann", "ben", "cai", "dee"}
    [table] = api_client.get(f"{url}crosstable/").json()
    assert [row["cells"][row["number"] - 1] for row in table["rows"]] == ["x"] * 4
    assert sum(row["points"] for row in table["rows"]) == 2
    running = api_client.get(f"{T}/?status=running").json()["results"]
    assert [t["name"] for t in running] == ["Samhain Cup"]
    assert Tournament.objects.get(pk=event["id"]).rounds.filter(status="complete").count() == 1
