"""games_start_many: a round's games in one insert, each as game_start would make it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from celticsite.errors import DomainError
from games import services
from games.clock import ClockKind, TimeControl
from games.models import Game

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_each_game_is_what_game_start_makes(alice, bob, carol):
    tc = TimeControl(kind=ClockKind.FISCHER, bank_days=5, increment_days=1, max_days=9)
    games = services.games_start_many(
        pairs=[(alice, bob), (carol, alice)], rated=False, time_control=tc, now=NOW
    )
    single = services.game_start(orange=alice, blue=bob, rated=False, time_control=tc, now=NOW)
    assert [g.pk is not None for g in games] == [True, True]
    assert [(g.orange, g.blue) for g in games] == [(alice, bob), (carol, alice)]
    for game in Game.objects.filter(pk__in=[g.pk for g in games]):
        assert (game.to_move, game.ply, game.rated) == ("orange", 0, False)
        assert game.turn_started_at == NOW
        assert game.deadline == single.deadline
        assert game.time_control == tc


def test_a_player_cannot_meet_themselves(alice, bob):
    with pytest.raises(DomainError) as caught:
        services.games_start_many(pairs=[(alice, bob), (bob, bob)], now=NOW)
    assert caught.value.code == "same_player"
    assert not Game.objects.exists()
