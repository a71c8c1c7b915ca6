"""The read every write to a game starts with (``games.services.common._game_locked``): the
game, its players with their profiles, and, for a move, whether it has queued lines or a
player away."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from accounts.models import Profile, Vacation
from accounts.services import vacation_start
from games import errors, services
from games.models import Game
from games.services.common import _game_locked

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob) -> Game:
    return services.game_start(players=[alice, bob])


def test_the_flags_say_whether_a_game_has_lines_and_players_away(game, alice, bob):
    now = timezone.now()
    with transaction.atomic():
        found = _game_locked(game.pk, flags_at=now)
    assert (found.has_lines, found.has_vacations) == (False, False)

    services.conditional_line_create(
        game_id=game.pk, user=bob, expected_ply=0, moves=["d5 E", "e4 N"]
    )
    vacation_start(user=alice, days=1)
    with transaction.atomic():
        found = _game_locked(game.pk, flags_at=now)
    assert (found.has_lines, found.has_vacations) == (True, True)
    # a vacation that ends before the moment asked about does not count
    later = now + timedelta(days=2)  # alice's one day is over by then
    assert Vacation.objects.get(user=alice).ends_at < later
    with transaction.atomic():
        assert not _game_locked(game.pk, flags_at=later).has_vacations


def test_the_players_come_with_their_profiles_in_one_more_query(
    game, bob, django_assert_num_queries
):
    Profile.objects.filter(user=bob).update(display_name="Robert", notify_turn=False)
    with transaction.atomic(), django_assert_num_queries(2):  # the game, then both players
        found = _game_locked(game.pk)
        assert found.user_at(2).profile.display_name == "Robert"
        assert found.user_at(2).profile.notify_turn is False
        assert found.user_at(1).username == "alice"


def test_a_game_that_does_not_exist_is_not_found():
    with pytest.raises(errors.GameNotFound, match=r"There is no game #999999\."):
        _game_locked(999_999)
