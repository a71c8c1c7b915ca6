from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth.models import User

from games.models import Game


def make_user(username: str) -> User:
    return User.objects.create_user(username=username, password="x-unused-password-9")


def at(year: int, month: int, day: int, hour: int = 12) -> datetime:
    return datetime(year, month, day, hour, tzinfo=UTC)


def finished_game(
    orange: User, blue: User, result: str, finished_at: datetime, **fields: Any
) -> Game:
    """A finished game as the games app leaves it (the rating call is the test's to make)."""
    return Game.objects.create(
        orange=orange,
        blue=blue,
        status=Game.Status.FINISHED,
        result=result,
        finished_at=finished_at,
        turn_started_at=finished_at,
        to_move="",
        **fields,
    )


@pytest.fixture
def users(db) -> dict[str, User]:
    return {name: make_user(name) for name in ("ann", "bob", "cy", "dee")}
