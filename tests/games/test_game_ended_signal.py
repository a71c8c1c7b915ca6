"""games.signals.game_ended: sent once after the commit wherever a game ends, never before
and never when the transaction rolls back."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.db import transaction

from games import services
from games.models import Game
from games.signals import game_ended
from games.timeouts import game_timeouts_decide
from tests.accounts.factories import make_superuser

pytestmark = pytest.mark.django_db


@pytest.fixture
def received() -> Iterator[list[int]]:
    ids: list[int] = []

    def receiver(sender: object, *, game_id: int, **kwargs: object) -> None:
        ids.append(game_id)

    game_ended.connect(receiver, dispatch_uid="test-game-ended")
    yield ids
    game_ended.disconnect(dispatch_uid="test-game-ended")


def test_resignation_announces_after_commit(
    game, bob, received, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.game_resign(game_id=game.pk, user=bob)
        assert received == []  # not before the commit
    assert len(callbacks) >= 1
    assert received == [game.pk]


def test_annul_adjudicate_and_timeouts_announce(
    alice, bob, received, django_capture_on_commit_callbacks
):
    moderator = make_superuser()
    games = [services.game_start(orange=alice, blue=bob) for _ in range(3)]
    with django_capture_on_commit_callbacks(execute=True):
        services.game_annul(game_id=games[0].pk, actor=moderator, reason="test")
        services.game_adjudicate(game_id=games[1].pk, actor=moderator, result="1-0", reason="t")
        game_timeouts_decide(now=games[2].deadline + timedelta(minutes=1))
    assert received == [games[0].pk, games[1].pk, games[2].pk]
    assert Game.objects.get(pk=games[2].pk).status == Game.Status.ANNULLED


def test_nothing_is_announced_when_the_transaction_rolls_back(
    game, bob, received, django_capture_on_commit_callbacks
):
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        services.game_resign(game_id=game.pk, user=bob)
        raise RuntimeError("boom")
    assert received == []
    assert Game.objects.get(pk=game.pk).is_active
