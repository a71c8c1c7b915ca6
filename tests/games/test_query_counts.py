"""Query counts of the game lists, pages, detail and a move: fixed, whatever the number of
games (4 or 30), so a page costs the same at the size of a real federation."""

from __future__ import annotations

import itertools

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.services import vacation_start
from games import services
from games.clock import TimeControl
from games.models import ConditionalLine
from notifications.models import OutboxEmail
from tests.accounts.factories import make_user
from tests.games.conftest import API, submit, token_client

pytestmark = [pytest.mark.django_db, pytest.mark.outbox_unrendered]

_numbers = itertools.count()


def _games_of(alice, count: int) -> list:
    """`count` running games of alice against new players, half of them waiting for her
    (some with weekends off); every opponent is on vacation, so clocks have pauses."""
    games = []
    for index in range(count):
        rival = make_user(f"rival{next(_numbers)}")
        weekends = TimeControl(days_per_move=3, weekends_off=index % 3 == 0)
        orange, blue = (alice, rival) if index % 2 else (rival, alice)
        game = services.game_start(players=[orange, blue], time_control=weekends)
        games.append(game)
        vacation_start(user=rival, days=1)
    return games


def _queries(client, url: str, params: dict | None = None) -> int:
    client.get(url, params)  # warm: sessions, caches
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, params)
    assert response.status_code == 200, response.content[:300]
    return len(captured)


PAGES = {
    "api: every visible game": (f"{API}/games/", {}),
    "api: mine": (f"{API}/games/", {"mine": "true"}),
    "api: my turn": (f"{API}/games/", {"my_turn": "true"}),
    "api: a player's games": (f"{API}/games/", {"player": "alice"}),
    "api: active": (f"{API}/games/", {"status": "active"}),
    "page: home": ("/", {}),
    "page: a player's games": ("/players/alice/", {}),
}


def _counts(alice, games: int) -> dict[str, int]:
    _games_of(alice, games)
    api = token_client(alice, name=f"lists {next(_numbers)}")
    web = Client()
    web.force_login(alice)
    counts = {}
    for name, (url, params) in PAGES.items():
        counts[name] = _queries(api if name.startswith("api") else web, url, params)
        if name.startswith("api"):  # a page further on, by its cursor: the same cost
            following = api.get(url, {**params, "page_size": 1}).json()["next"]
            counts[f"{name}, next page"] = _queries(api, following)
    return counts


def test_game_lists_cost_the_same_for_4_and_30_games(alice):
    four = _counts(alice, 4)  # 2 of them her turn: a next page on every list
    thirty = _counts(alice, 26)  # 30 in all
    assert four == thirty
    assert four == {
        # token, page, its seats with players and profiles, vacations of the page's movers
        # (no count)
        "api: every visible game": 4,
        "api: every visible game, next page": 4,  # a page by cursor costs the same
        "api: mine": 4,
        "api: mine, next page": 4,
        "api: my turn": 4,
        "api: my turn, next page": 4,
        "api: a player's games": 5,  # ... and the player
        "api: a player's games, next page": 5,
        "api: active": 4,
        "api: active, next page": 4,
        # ... and the ratings shown beside the names, and the seats, read once per table
        "page: home": 14,
        # the player page: ratings per kind, chart, games with their seats, events
        "page: a player's games": 11,
    }


def test_game_detail_api_and_page(alice, bob):
    game = services.game_start(players=[alice, bob])
    api = token_client(alice)
    web = Client()
    web.force_login(alice)
    for ply, move in enumerate(["d5 ESW", "c5 ESW"]):
        player = (alice, bob)[ply % 2]
        services.move_submit(game_id=game.pk, user=player, expected_ply=ply, notation=move)
    # token; the game; its seats with players and profiles; its moves (once); the mover's
    # vacations
    assert _queries(api, f"{API}/games/{game.pk}/") == 5
    # session, user and profile; the game and its seats, twice (the page, then the messages'
    # visibility check); its moves; vacations; messages; the two players' ratings beside
    # their names; the viewer's private notes
    assert _queries(web, f"/games/{game.pk}/") == 13


TRANSACTION_CONTROL = {"BEGIN", "BEGIN IMMEDIATE", "COMMIT"}


def _statements(captured: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in captured.captured_queries if q["sql"] not in TRANSACTION_CONTROL]


@pytest.mark.django_db(transaction=True)  # the move's own transaction, as in production
def test_a_move_takes_9_statements(alice, bob, monkeypatch):
    queued: list[int] = []  # the email goes to a worker after the commit, not in the request
    monkeypatch.setattr("notifications.services.enqueue_send", queued.append)

    def no_rendering(name: str, *args: object, **kwargs: object) -> str:
        raise AssertionError(f"the move request rendered the email template {name}")

    # the worker renders the email and draws its board; the request only stores its context
    monkeypatch.setattr("notifications.services.render_to_string", no_rendering)
    monkeypatch.setattr("notifications.position.position_svg", no_rendering)
    game = services.game_start(players=[alice, bob])
    alice_api, bob_api = token_client(alice), token_client(bob)
    assert submit(alice_api, game.pk, 0, "d5 ESW").status_code == 201
    bob_api.get(f"{API}/games/{game.pk}/")  # bob's token was used a moment ago
    with CaptureQueriesContext(connection) as captured:
        response = submit(bob_api, game.pk, 1, "c5 ESW")
    assert response.status_code == 201, response.json()
    statements = _statements(captured)
    # token; lock (which also tells who may see the game, and whether anyone is on vacation
    # or has queued a line: no one here, so neither is read); both players with their
    # profiles; moves read once; insert; game update; the your-turn email (its dedupe key
    # checked, the insert, which ignores a key taken meanwhile, and its id read back); the
    # answer reuses the moves, position and clock the move computed
    assert len(statements) == 9, "\n".join(sql[:120] for sql in statements)
    assert len(queued) == 3  # alice's first turn (the start), bob's (after her move), hers
    row = OutboxEmail.objects.get(pk=queued[-1])
    assert (row.subject, row.body_text, row.board_svg, row.rendered_at) == ("", "", "", None)
    assert row.context["ply"] == 2

    body = response.json()["game"]
    assert [turn["notation"] for turn in body["moves"]] == ["d5 ESW", "c5 ESW"]
    assert body["position"]["ply"] == 2
    assert body["clock"]["side"] == "orange"
    assert body["clock"]["seconds_left"] == 3 * 24 * 3600


@pytest.mark.django_db(transaction=True)
def test_a_move_reads_vacations_and_lines_only_when_there_are_some(alice, bob, monkeypatch):
    monkeypatch.setattr("notifications.services.enqueue_send", lambda outbox_id: None)
    game = services.game_start(players=[alice, bob])
    services.conditional_line_create(
        game_id=game.pk, user=bob, expected_ply=0, moves=["d5 E", "e4 N"]
    )
    vacation_start(user=bob, days=1)  # away when his turn comes: his clock starts paused
    alice_api = token_client(alice)
    alice_api.get(f"{API}/games/{game.pk}/")
    with CaptureQueriesContext(connection) as captured:
        response = submit(alice_api, game.pk, 0, "d5 ESW")  # not the move bob's line awaits
    assert response.status_code == 201, response.json()
    statements = _statements(captured)
    # the 9 of a plain move, the vacations, and the lines: read (locked), and the one that
    # can no longer match deleted
    assert len(statements) == 12, "\n".join(sql[:120] for sql in statements)
    assert sum('FROM "accounts_vacation"' in sql for sql in statements) == 2  # flag and read
    assert sum('FROM "games_conditionalline"' in sql for sql in statements) == 3
    assert not ConditionalLine.objects.filter(game=game).exists()
    bob_clock = response.json()["game"]["clock"]
    assert (bob_clock["side"], bob_clock["paused"]) == ("blue", "vacation")


def test_a_games_seats_are_read_once_and_again_after_refresh_from_db():
    alice, bob = make_user("seats_alice"), make_user("seats_bob")
    started = services.game_start(players=[alice, bob])
    game = type(started).objects.get(pk=started.pk)

    with CaptureQueriesContext(connection) as first:
        assert [seat.user for seat in game.seat_list] == [alice, bob]
    with CaptureQueriesContext(connection) as again:
        game.user_to_move(), game.seat_of(bob), game.seat_list
    game.seat_row(2).time_left = None  # a change made through the game is seen by its readers
    assert game.seat_time_left(2) is None
    game.refresh_from_db()
    with CaptureQueriesContext(connection) as after_refresh:
        assert game.seat_time_left(2) is not None  # read again from the database

    assert (len(first), len(again), len(after_refresh)) == (1, 0, 1)
