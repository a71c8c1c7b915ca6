"""The game lists are paged by cursor: following `next` visits every game once, also while
games are being started, whatever the filter; a damaged cursor gets a clear 400."""

from __future__ import annotations

import base64
import itertools

import pytest
from django.utils import timezone

from games import services
from games.clock import ClockKind, TimeControl
from games.models import Game
from tests.accounts.factories import make_user
from tests.games.conftest import API, token_client

pytestmark = pytest.mark.django_db

GAMES = f"{API}/games/"
_numbers = itertools.count()

CLOCKS = [
    TimeControl(days_per_move=2),
    TimeControl(kind=ClockKind.NONE),  # no deadline: last in my_turn
    TimeControl(days_per_move=1),
    TimeControl(days_per_move=5),
]


def _start(alice, index: int) -> Game:
    """A game of alice against a new player; she is orange (to move) in every other one."""
    rival = make_user(f"rival{next(_numbers)}")
    orange, blue = (alice, rival) if index % 2 else (rival, alice)
    return services.game_start(players=[orange, blue], time_control=CLOCKS[index % 4])


def _walk(client, params: dict, *, between=lambda: None) -> list[int]:
    """The ids on every page, following `next` from the first page; `between` runs after
    each page (e.g. starts a game)."""
    body = client.get(GAMES, params).json()
    seen = [game["id"] for game in body["results"]]
    while body["next"]:
        between()
        response = client.get(body["next"])
        assert response.status_code == 200, response.content
        body = response.json()
        seen += [game["id"] for game in body["results"]]
    return seen


LISTS = {
    "every visible game": {},
    "mine": {"mine": "true"},
    "my turn": {"my_turn": "true"},
    "a player's games": {"player": "alice"},
    "active": {"status": "active"},
}


@pytest.mark.parametrize("params", LISTS.values(), ids=LISTS.keys())
def test_next_links_visit_every_game_once_while_games_start(alice, params):
    for index in range(11):
        _start(alice, index)
    client = token_client(alice)
    before = _walk(client, {**params, "page_size": 100})
    assert len(before) == len(set(before)) >= 5
    added = itertools.count(11)

    seen = _walk(client, {**params, "page_size": 2}, between=lambda: _start(alice, next(added)))

    assert len(seen) == len(set(seen)), "a game was shown twice"
    assert set(before) <= set(seen), "a game was skipped"
    after = _walk(client, {**params, "page_size": 100})  # the order of the list as it is now
    assert seen == [game_id for game_id in after if game_id in set(seen)]


def test_games_started_in_the_same_instant_are_each_shown_once(alice):
    made = [_start(alice, index).pk for index in range(7)]
    Game.objects.update(created_at=timezone.now())  # ties on the cursor's column

    seen = _walk(token_client(alice), {"mine": "true", "page_size": 2})

    assert seen == sorted(made, reverse=True)


def test_the_previous_link_walks_back(alice):
    made = [_start(alice, index).pk for index in range(5)]
    client = token_client(alice)
    first = client.get(GAMES, {"page_size": 2}).json()
    second = client.get(first["next"]).json()
    assert [g["id"] for g in client.get(second["previous"]).json()["results"]] == [
        made[4],
        made[3],
    ]


def _cursor(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


@pytest.mark.parametrize(
    "cursor",
    [
        "not base64!",
        _cursor("o=-3"),  # a negative offset
        _cursor("r=x"),  # direction not 0 or 1
        _cursor("p=yesterday"),  # not a time
        _cursor("p=2025-13-45 00:00:00"),  # not a date
        "é",
    ],
)
@pytest.mark.parametrize("params", [{}, {"my_turn": "true"}], ids=["all", "my turn"])
def test_a_malformed_cursor_is_a_clear_400(alice, cursor, params):
    _start(alice, 1)
    response = token_client(alice).get(GAMES, {**params, "cursor": cursor})

    assert response.status_code == 400
    assert response.json() == {
        "code": "invalid_cursor",
        "detail": "The cursor is invalid (changed, cut short or from another list): start "
        "again from the first page, without a cursor, and follow the next links.",
    }
