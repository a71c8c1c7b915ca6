"""Fixtures for the leagues tests: an organiser, players, a clock, and helpers that play a
division's games through the games services."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import Permission, User

from games.models import Game
from leagues.models import Division
from leagues.tasks import advance_leagues
from tests.accounts.factories import make_user
from tests.tournaments.conftest import commit, finish  # noqa: F401 (commit is a fixture)
from tournaments.tasks import advance_tournaments

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # a Monday
DAY = timedelta(days=1)


def grant(user: User, *codenames: str) -> User:
    for codename in codenames:
        user.user_permissions.add(
            Permission.objects.get(codename=codename, content_type__app_label="leagues")
        )
    return User.objects.get(pk=user.pk)  # fresh, so the permission cache is empty


@pytest.fixture
def organiser(db) -> User:
    """Organises leagues, and so the round robins of their divisions."""
    user = grant(make_user("leagueorg"), "organise_league")
    user.user_permissions.add(
        Permission.objects.get(
            codename="organise_tournament", content_type__app_label="tournaments"
        )
    )
    return User.objects.get(pk=user.pk)


@pytest.fixture
def clock() -> Iterator[Callable[[datetime], None]]:
    """``clock(moment)`` sets the time (it stands still between calls)."""
    travel = time_machine.travel(T0, tick=False)
    traveller = travel.start()
    yield traveller.move_to
    travel.stop()


@pytest.fixture
def beat(commit) -> Callable[[], None]:  # noqa: F811
    """Both beats, as the worker runs them every minute (leagues after tournaments)."""

    def run() -> None:
        with commit():
            advance_tournaments()
            advance_leagues()

    return run


def play_division(
    division: Division,
    order: Sequence[User],
    *,
    commit: Callable[[], Any],  # noqa: F811
    skip: tuple[User, User] | None = None,
) -> None:
    """Play every running game of ``division``: the player earlier in ``order`` wins. The
    game between the two players of ``skip`` is left running."""
    rank = {user.pk: index for index, user in enumerate(order)}
    games = Game.objects.filter(
        tournament_link__tournament=division.tournament, status=Game.Status.ACTIVE
    ).order_by("pk")
    for game in games:
        if skip and set(game.seat_users()) == set(skip):
            continue
        first, second = (rank[user.pk] for user in game.seat_users())
        result = "1-0" if first < second else "0-1"
        finish(game, result, commit=commit)
