"""Fixtures for the games tests: players, an API client per player, a started game, and a
helper that plays a whole game through the API."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from accounts.services import api_token_create
from games import services
from games.models import Game
from tests.accounts.factories import make_user

API = "/api/v1"

SHORT_GAME_SEED = 22
"""Random.Random(22) choosing from the sorted legal moves ends the game in 6 plies (0-1)."""
PASSES_GAME_SEED = 6
"""Random.Random(6) gives a 24-ply game (0-1); Orange passes at plies 16, 18, 20 and 22."""


def token_client(user: User, name: str = "tests") -> APIClient:
    """An API client that authenticates with a real ``Authorization: Token`` key."""
    _, key = api_token_create(user=user, name=name)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.fixture
def alice(db) -> User:
    return make_user("alice")


@pytest.fixture
def bob(db) -> User:
    return make_user("bob")


@pytest.fixture
def carol(db) -> User:
    """Plays in none of the games: an outsider."""
    return make_user("carol")


@pytest.fixture
def anon() -> APIClient:
    return APIClient()


@pytest.fixture
def alice_api(alice) -> APIClient:
    return token_client(alice)


@pytest.fixture
def bob_api(bob) -> APIClient:
    return token_client(bob)


@pytest.fixture
def carol_api(carol) -> APIClient:
    return token_client(carol)


@pytest.fixture
def game(alice, bob) -> Game:
    """A rated public game, alice Orange to move, three days per move."""
    return services.game_start(players=[alice, bob])


def moves_url(game_id: int) -> str:
    return f"{API}/games/{game_id}/moves/"


def submit(client: APIClient, game_id: int, ply: int, move: str, **headers: str) -> Any:
    return client.post(moves_url(game_id), {"ply": ply, "move": move}, format="json", **headers)


PlayToEnd = Callable[..., dict[str, Any]]


@pytest.fixture
def play_to_end() -> PlayToEnd:
    """Play ``game_id`` to its end through the API, each side choosing with ``rng`` from the
    sorted answer of ``/legal-moves/``; answer the last game body and every turn recorded."""

    def play(game_id: int, clients: dict[str, APIClient], *, seed: int) -> dict[str, Any]:
        rng = random.Random(seed)
        watcher = next(iter(clients.values()))
        turns: list[dict[str, Any]] = []
        body: dict[str, Any] = watcher.get(f"{API}/games/{game_id}/").json()
        for _ in range(60):  # a game has at most 24 tiles to place, plus passes
            legal = watcher.get(f"{API}/games/{game_id}/legal-moves/").json()
            if legal["to_move"] is None:
                return {"game": body, "turns": turns}
            move = rng.choice(legal["moves"])
            response = submit(clients[legal["to_move"]], game_id, legal["ply"], move)
            assert response.status_code == 201, response.json()
            turns.extend(response.json()["turns"])
            body = response.json()["game"]
        raise AssertionError("the game did not end within 60 turns")

    return play
