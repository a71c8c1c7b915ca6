"""Fixtures for the ladders tests: an organiser, a clock, and helpers that play challenge
games through the games services."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import Permission, User

from ladders import services
from ladders.models import Ladder
from tests.accounts.factories import make_user
from tests.tournaments.conftest import commit, finish, first_move  # noqa: F401 (fixture)

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # a Monday
DAY = timedelta(days=1)


def grant(user: User, *codenames: str) -> User:
    for codename in codenames:
        user.user_permissions.add(
            Permission.objects.get(codename=codename, content_type__app_label="ladders")
        )
    return User.objects.get(pk=user.pk)  # fresh, so the permission cache is empty


@pytest.fixture
def organiser(db) -> User:
    return grant(make_user("ladderorg"), "organise_ladder")


@pytest.fixture
def clock() -> Iterator[Callable[[datetime], None]]:
    """``clock(moment)`` sets the time (it stands still between calls)."""
    travel = time_machine.travel(T0, tick=False)
    traveller = travel.start()
    yield traveller.move_to
    travel.stop()


@pytest.fixture
def make_ladder(organiser) -> Callable[..., Ladder]:
    def make(name: str = "Club Ladder", **settings: Any) -> Ladder:
        return services.ladder_create(organiser=organiser, name=name, **settings)

    return make


def names(ladder: Ladder) -> list[str]:
    """The ladder's order, top first, as usernames."""
    return [
        row.player.username for row in ladder.players.select_related("player").order_by("place")
    ]
