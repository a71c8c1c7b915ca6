from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth.models import User

from games.models import Game, GameSeat


def make_user(username: str) -> User:
    return User.objects.create_user(username=username, password="x-unused-password-9")


def at(year: int, month: int, day: int, hour: int = 12) -> datetime:
    return datetime(year, month, day, hour, tzinfo=UTC)


def finished_game(
    orange: User, blue: User, result: str, finished_at: datetime, **fields: Any
) -> Game:
    """A finished game as the games app leaves it (the rating call is the test's to make):
    ``orange`` in seat 1, ``blue`` in seat 2, each seat placed by ``result``."""
    game = Game.objects.create(
        status=Game.Status.FINISHED,
        result=result,
        finished_at=finished_at,
        turn_started_at=finished_at,
        seat_to_move=None,
        **fields,
    )
    places = {"1-0": (1, 2), "0-1": (2, 1), "1/2-1/2": (1, 1)}[result]
    GameSeat.objects.bulk_create(
        GameSeat(game=game, seat=seat, user=user, place=place)
        for seat, (user, place) in enumerate(zip((orange, blue), places, strict=True), start=1)
    )
    return game


@pytest.fixture
def users(db) -> dict[str, User]:
    return {name: make_user(name) for name in ("ann", "bob", "cy", "dee")}
