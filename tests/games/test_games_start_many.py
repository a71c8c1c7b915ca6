"""games_start_many: a round's games in one insert, each as game_start would make it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Profile, Vacation
from celticsite.errors import DomainError
from games import services
from games.clock import ClockKind, TimeControl
from games.models import Game
from tests.accounts.factories import make_user
from tests.seats import to_move

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_each_game_is_what_game_start_makes(alice, bob, carol):
    tc = TimeControl(kind=ClockKind.FISCHER, bank_days=5, increment_days=1, max_days=9)
    games = services.games_start_many(
        pairs=[(alice, bob), (carol, alice)], rated=False, time_control=tc, now=NOW
    )
    single = services.game_start(players=[alice, bob], rated=False, time_control=tc, now=NOW)
    assert [g.pk is not None for g in games] == [True, True]
    assert [(g.user_at(1), g.user_at(2)) for g in games] == [(alice, bob), (carol, alice)]
    for game in Game.objects.filter(pk__in=[g.pk for g in games]):
        assert (to_move(game), game.ply, game.rated) == ("orange", 0, False)
        assert game.turn_started_at == NOW
        assert game.deadline == single.deadline
        assert game.time_control == tc


def test_a_player_cannot_meet_themselves(alice, bob):
    with pytest.raises(DomainError) as caught:
        services.games_start_many(pairs=[(alice, bob), (bob, bob)], now=NOW)
    assert caught.value.code == "same_player"
    assert not Game.objects.exists()


def _fresh(users: list[User]) -> list[User]:
    """The users read again, as a round's players arrive (no profile cached on them)."""
    by_pk = User.objects.in_bulk([u.pk for u in users])
    return [by_pk[u.pk] for u in users]


def _field(size: int, prefix: str = "player") -> list[User]:
    users = [make_user(f"{prefix}{i}") for i in range(size)]
    for i, user in enumerate(users):
        Profile.objects.filter(user=user).update(time_zone=ZONES[i % len(ZONES)])
        Vacation.objects.create(
            user=user,
            started_at=NOW + timedelta(days=1),
            ends_at=NOW + timedelta(days=1, hours=10 * (i + 1)),
        )
    return users


ZONES = ["UTC", "Pacific/Auckland", "America/Los_Angeles"]
PAUSED = TimeControl(days_per_move=3, weekends_off=True, vacation_allowed=True)


@pytest.mark.outbox_unrendered  # the worker renders the emails, not the request
def test_pauses_are_read_once_for_all_players():
    small, big = _field(4, "small"), _field(20, "big")
    two_oranges = list(zip(_fresh(small[::2]), _fresh(small[1::2]), strict=True))
    ten_oranges = list(zip(_fresh(big[::2]), _fresh(big[1::2]), strict=True))

    with CaptureQueriesContext(connection) as two:
        services.games_start_many(pairs=two_oranges, time_control=PAUSED, now=NOW)
    with CaptureQueriesContext(connection) as ten:
        services.games_start_many(pairs=ten_oranges, time_control=PAUSED, now=NOW)

    # time zones, vacations, the insert of the games and of their seats, the seats read
    # back with players and profiles; then the first movers' your-turn emails, published
    # as the games start: the dedupe keys already taken, one insert (in a savepoint: two
    # statements more)
    assert len(ten) == len(two) == 9


def test_each_orange_keeps_their_own_weekends_and_vacations():
    players = _field(6)
    pairs = list(zip(_fresh(players[::2]), _fresh(players[1::2]), strict=True))

    games = services.games_start_many(pairs=pairs, time_control=PAUSED, now=NOW)
    singles = [
        services.game_start(players=[orange, blue], time_control=PAUSED, now=NOW)
        for orange, blue in _fresh_pairs(pairs)
    ]

    assert [g.deadline for g in games] == [g.deadline for g in singles]
    assert len({g.deadline for g in games}) == 3  # zones and vacations differ per player


def _fresh_pairs(pairs: list[tuple[User, User]]) -> list[tuple[User, User]]:
    return list(zip(_fresh([o for o, _ in pairs]), _fresh([b for _, b in pairs]), strict=True))
