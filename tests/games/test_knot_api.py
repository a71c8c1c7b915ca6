"""Celtic Knot through the REST API: a 4-seat game from an open seek to its finishing order
(every flip checked against the revealed seed, the ratings against openskill), the two steps
of a move, a resignation and a time-out among four (the others play on), and a moderator's
adjudication with a finishing order."""

from __future__ import annotations

import hashlib
import random
import re
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
import time_machine
from django.utils import timezone
from openskill.models import PlackettLuce
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from games import errors, services
from games.kinds.base import SeededChance
from games.models import Game, Move
from games.timeouts import game_timeouts_decide
from tests.accounts.factories import make_moderator, make_user
from tests.games.conftest import API, submit, token_client

pytestmark = pytest.mark.django_db

NAMES = ("ann", "ben", "cat", "dan")
SEED = bytes(range(32))
"""The seed of every test game here, so its flips (and length) are the same on every run."""
MAX_STEPS = 4000
"""More choices than any 4-seat game of random play needs (KNOT-RULES.md: at most ~714 turns
in 10,000 games)."""
SHORT_GAME = 194
"""random.Random(194) choosing from the sorted legal choices ends the game of SEED after
132 choices (a typical random game takes about 475): the test stays quick."""


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """New games draw SEED instead of a secret one."""
    monkeypatch.setattr(
        "games.services.start.secrets", SimpleNamespace(token_bytes=lambda n: SEED[:n])
    )


@pytest.fixture(autouse=True)
def unthrottled(monkeypatch: pytest.MonkeyPatch) -> None:
    """A whole game is more requests a minute than the API lets anyone send."""
    rates = dict.fromkeys(("anon", "user", "moves", "messages"))
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)


@pytest.fixture
def clients() -> dict[str, APIClient]:
    return {name: token_client(make_user(name)) for name in NAMES}


def four_seat_game(clients: dict[str, APIClient]) -> dict[str, Any]:
    """ann's open seek for four, filled by ben, cat and dan through the API: the game."""
    seek = clients["ann"].post(
        f"{API}/challenges/", {"kind": "knot", "seat_count": 4}, format="json"
    )
    assert seek.status_code == 201, seek.json()
    challenge_id = seek.json()["id"]
    for name in ("ben", "cat"):
        joined = clients[name].post(f"{API}/challenges/{challenge_id}/accept/")
        assert (joined.status_code, joined.json()["status"]) == (200, "open")
    started = clients["dan"].post(f"{API}/challenges/{challenge_id}/accept/")
    assert started.status_code == 201, started.json()
    return started.json()


def seat_clients(game: dict[str, Any], clients: dict[str, APIClient]) -> dict[int, APIClient]:
    return {seat["seat"]: clients[seat["user"]["username"]] for seat in game["seats"]}


def play_random(
    game_id: int, by_seat: dict[int, APIClient], rng: random.Random, *, steps: int
) -> dict[str, Any]:
    """Up to ``steps`` random choices, each from the sorted legal choices (GET legal-moves
    first, then each answer's ``legal_moves``, the same list); answers the last game body."""
    watcher = APIClient()
    body = watcher.get(f"{API}/games/{game_id}/").json()
    legal = watcher.get(f"{API}/games/{game_id}/legal-moves/").json()
    seat, ply, moves = legal["seat_to_move"], legal["ply"], legal["moves"]
    for _ in range(steps):
        if seat is None:
            break
        choice = rng.choice(moves)
        answer = submit(by_seat[seat], game_id, ply, choice)
        assert answer.status_code == 201, answer.json()
        check_answer(answer.json(), choice)
        body = answer.json()["game"]
        seat, ply, moves = body["seat_to_move"], body["ply"], answer.json()["legal_moves"]
    return body


def check_answer(answer: dict[str, Any], choice: str) -> None:
    """The answer to a choice: its step first (a square's carries its flips), the flips of the
    stack now to move, and what the seat to move may send next."""
    position = answer["game"]["position"]
    first = answer["turns"][0]["notation"].split()
    assert first[0] == choice
    if position["phase"] == "route":
        assert answer["flips"] == list(position["flips"])
        assert first[-1] == "".join(answer["flips"])
        assert answer["legal_moves"] == sorted(position["destinations"])
    else:
        assert answer["flips"] == []
    if answer["game"]["status"] != "active":
        assert answer["legal_moves"] == []


def flips_of(seed: bytes, flipping: int, coins: int) -> str:
    """KNOT-RULES.md: d = SHA-256(seed + ":" + m); coin j is T when bit 7-j of d[0] is 1."""
    first = hashlib.sha256(seed + b":" + str(flipping).encode()).digest()[0]
    return "".join("T" if first >> (7 - j) & 1 else "H" for j in range(coins))


def record_headers(text: str) -> dict[str, str]:
    return dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', text, flags=re.MULTILINE))


def record_flips(text: str) -> list[str]:
    """Every flipping of the record's turn lines, in order."""
    lines = [line for line in text.splitlines() if line and not line.startswith("[")]
    return [word for line in lines for word in line.split()[1:] if re.fullmatch(r"[HT]+", word)]


def test_a_four_seat_game_from_the_open_seek_to_the_finishing_order(clients):
    started = four_seat_game(clients)
    game_id = started["id"]
    assert (started["kind"], started["seat_count"], started["status"]) == ("knot", 4, "active")
    assert sorted(seat["user"]["username"] for seat in started["seats"]) == list(NAMES)
    commitment = hashlib.sha256(SEED).hexdigest()
    assert (started["chance_commitment"], started["chance_seed"]) == (commitment, None)

    body = play_random(
        game_id, seat_clients(started, clients), random.Random(SHORT_GAME), steps=MAX_STEPS
    )
    assert body["status"] == "finished", "the game did not end within MAX_STEPS choices"
    assert body["chance_seed"] == SEED.hex()
    places = {seat["user"]["username"]: seat["place"] for seat in body["seats"]}
    assert sorted(places.values()) == [1, 2, 3, 4]
    order = sorted(body["seats"], key=lambda seat: seat["place"])
    assert body["result"] == " ".join(str(seat["seat"]) for seat in order)

    text = APIClient().get(f"{API}/games/{game_id}/record/?as=text").content.decode()
    headers = record_headers(text)
    seed = bytes.fromhex(headers["FlipSeed"])
    assert hashlib.sha256(seed).hexdigest() == headers["FlipCommit"] == commitment
    assert headers["Result"] == body["result"]
    flips = record_flips(text)
    assert len(flips) == body["position"]["flippings"] > 0
    for m, flipped in enumerate(flips, start=1):
        assert flipped == flips_of(seed, m, len(flipped)), f"flipping {m}"
        assert flips_of(seed, m, 8) == flips_of(SEED, m, 8)  # the derivation is the engine's
    chance = SeededChance(seed)
    assert flips_of(seed, 1, 8) == "".join(
        "T" if chance.draw(1)[0] >> (7 - j) & 1 else "H" for j in range(8)
    )

    ranking = APIClient().get(f"{API}/rankings/?kind=knot&active=false").json()
    rows = ranking["results"] if isinstance(ranking, dict) else ranking
    skills = {
        row["name"]: (row["skill"]["mu"], row["skill"]["sigma"], row["games"]) for row in rows
    }
    model = PlackettLuce()
    rated = model.rate([[model.rating()] for _ in NAMES], ranks=[places[name] for name in NAMES])
    assert skills == {
        name: (pytest.approx(team[0].mu), pytest.approx(team[0].sigma), 1)
        for name, team in zip(NAMES, rated, strict=True)
    }


def test_a_square_answers_its_flips_and_destinations_then_the_destination_moves(clients):
    started = four_seat_game(clients)
    game_id, by_seat = started["id"], seat_clients(started, clients)
    legal = APIClient().get(f"{API}/games/{game_id}/legal-moves/").json()
    assert (legal["ply"], legal["seat_to_move"], legal["moves"]) == (
        0,
        1,
        ["a1", "a2", "b1", "h9", "i8", "i9"],
    )

    square = submit(by_seat[1], game_id, 0, "a1")
    assert square.status_code == 201, square.json()
    answer = square.json()
    one_coin = flips_of(SEED, 1, 1)
    assert answer["flips"] == [one_coin]
    assert [(t["seat"], t["kind"], t["notation"]) for t in answer["turns"]] == [
        (1, "move", f"a1 {one_coin}")
    ]
    game = answer["game"]
    assert (game["ply"], game["seat_to_move"], game["position"]["phase"]) == (1, 1, "route")
    assert answer["legal_moves"] == sorted(game["position"]["destinations"])
    after = APIClient().get(f"{API}/games/{game_id}/legal-moves/").json()
    assert (after["ply"], after["moves"]) == (1, answer["legal_moves"])

    wrong_seat = submit(by_seat[2], game_id, 1, answer["legal_moves"][0])
    assert (wrong_seat.status_code, wrong_seat.json()["code"]) == (409, "not_your_turn")
    nowhere = submit(by_seat[1], game_id, 1, "e5")
    assert nowhere.status_code == 400
    assert "Route: the stack on a1 moves exactly" in nowhere.json()["detail"]

    destination = answer["legal_moves"][0]
    moved = submit(by_seat[1], game_id, 1, destination).json()
    assert moved["turns"][0]["notation"].split()[0] == destination
    check_answer(moved, destination)


def test_tried_moves_draw_from_the_public_analysis_source(clients):
    """Tried moves flip coins from a source derived from the commitment (the same on every
    call; tests/games/test_knot_analysis.py checks the derivation), never the game's seed."""
    game_id = four_seat_game(clients)["id"]
    answers = [APIClient().get(f"{API}/games/{game_id}/legal-moves/?after=a1") for _ in (1, 2)]
    assert [answer.status_code for answer in answers] == [200, 200]
    assert answers[0].json() == answers[1].json() and answers[0].json()["moves"]
    position = APIClient().get(f"{API}/games/{game_id}/positions/0/?after=b1")
    assert position.status_code == 200
    assert not Move.objects.filter(game_id=game_id).exists()


def test_a_resignation_among_four_removes_that_seat_and_the_others_play_on(clients):
    started = four_seat_game(clients)
    game_id, by_seat = started["id"], seat_clients(started, clients)
    play_random(game_id, by_seat, random.Random(1), steps=6)
    before = APIClient().get(f"{API}/games/{game_id}/").json()
    leaver = next(s for s in (1, 2, 3, 4) if s != before["seat_to_move"])

    resigned = by_seat[leaver].post(f"{API}/games/{game_id}/resign/")
    assert resigned.status_code == 200, resigned.json()
    game = APIClient().get(f"{API}/games/{game_id}/").json()
    assert (game["status"], game["seat_to_move"], game["ply"]) == (
        "active", before["seat_to_move"], before["ply"] + 1,
    )  # fmt: skip
    assert game["moves"][-1] | {"created_at": None} == {
        "ply": before["ply"], "seat": leaver, "side": game["seats"][leaver - 1]["name"].lower(),
        "kind": "leave", "notation": "resign", "created_at": None,
    }  # fmt: skip
    assert game["seats"][leaver - 1]["left_at_ply"] == game["ply"]
    assert leaver not in game["position"]["playing"]
    assert game["position"]["coins"][str(leaver)] == 0

    again = by_seat[leaver].post(f"{API}/games/{game_id}/resign/")
    assert (again.status_code, again.json()["code"]) == (409, "already_left")
    seats_to_move = set()
    for _ in range(12):  # a few turns of the three others: the leaver is never to move
        body = play_random(game_id, by_seat, random.Random(2), steps=2)
        seats_to_move.add(body["seat_to_move"])
    assert leaver not in seats_to_move and len(seats_to_move) >= 2


def test_a_time_out_among_four_removes_the_seat_to_move_and_starts_the_next_clock(clients):
    started = four_seat_game(clients)
    game_id, by_seat = started["id"], seat_clients(started, clients)
    play_random(game_id, by_seat, random.Random(3), steps=4)
    game = Game.objects.get(pk=game_id)
    late, deadline = game.seat_to_move, game.deadline
    assert deadline is not None

    with time_machine.travel(deadline + timedelta(minutes=1), tick=False):
        assert game_timeouts_decide(now=timezone.now()) == [game_id]
        body = APIClient().get(f"{API}/games/{game_id}/").json()
    assert body["status"] == "active"
    assert body["moves"][-1]["kind"] == "leave" and body["moves"][-1]["notation"] == "timeout"
    assert body["seats"][late - 1]["left_at_ply"] == body["ply"]
    assert late not in body["position"]["playing"]
    assert body["seat_to_move"] not in (None, late)
    assert body["clock"]["seat"] == body["seat_to_move"]
    game.refresh_from_db()
    assert game.deadline > deadline


def test_a_moderator_adjudicates_a_knot_game_with_a_finishing_order(clients):
    started = four_seat_game(clients)
    game_id = started["id"]
    moderator = make_moderator()
    with pytest.raises(errors.DomainError, match=r"expected the seats 1\.\.4"):
        services.game_adjudicate(game_id=game_id, actor=moderator, result="1-0", reason="x")

    services.game_adjudicate(
        game_id=game_id, actor=moderator, result="2 3 1 4", reason="Abandoned by all"
    )
    body = APIClient().get(f"{API}/games/{game_id}/").json()
    assert (body["status"], body["result"], body["termination"]) == (
        "finished", "2 3 1 4", "adjudication",
    )  # fmt: skip
    assert [seat["place"] for seat in body["seats"]] == [3, 1, 2, 4]
    assert body["chance_seed"] == SEED.hex()
    text = APIClient().get(f"{API}/games/{game_id}/record/?as=text").content.decode()
    assert record_headers(text)["FlipSeed"] == SEED.hex()
