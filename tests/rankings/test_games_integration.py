"""The games app's services move the ratings: resign, annul, adjudicate."""

from __future__ import annotations

import pytest

from games import services as games
from rankings.models import PlayerRating, RatedResult
from tests.accounts.factories import make_moderator
from tests.rankings.conftest import at

pytestmark = pytest.mark.django_db


def _elo() -> dict[str, float]:
    return dict(PlayerRating.objects.values_list("player__name", "elo"))


def test_resignation_annulment_and_adjudication(users):
    ann, bob = users["ann"], users["bob"]
    moderator = make_moderator()
    game = games.game_start(players=[ann, bob], now=at(2025, 3, 1))
    games.game_resign(game_id=game.pk, user=bob, now=at(2025, 3, 2))
    assert _elo() == {"ann": 1520.0, "bob": 1480.0}

    games.game_adjudicate(game_id=game.pk, actor=moderator, result="1/2-1/2", reason="Misclick")
    assert _elo() == {"ann": 1500.0, "bob": 1500.0}

    games.game_annul(game_id=game.pk, actor=moderator, reason="Played twice")
    assert _elo() == {}
    assert RatedResult.objects.get(game=game).annulled


def test_unrated_games_do_not_count(users):
    game = games.game_start(players=[users["ann"], users["bob"]], rated=False)
    games.game_resign(game_id=game.pk, user=users["ann"])
    assert not RatedResult.objects.exists()
