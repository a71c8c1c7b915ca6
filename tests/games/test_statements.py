"""The statements every write to a game runs (``games.statements``) answer what the ORM
would: the same instances, with the same related objects in hand."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.forms.models import model_to_dict
from django.utils import timezone

from accounts.models import Profile, Vacation
from accounts.services import vacation_start
from games import services, statements
from games.clock import ClockKind, TimeControl
from games.models import Game, Move
from tests.games.conftest import submit, token_client

pytestmark = pytest.mark.django_db


def _columns(obj) -> dict:
    """Every concrete column of ``obj`` (``model_to_dict`` leaves out the uneditable ones)."""
    return {field.attname: getattr(obj, field.attname) for field in obj._meta.concrete_fields}


@pytest.fixture
def played(alice, bob) -> Game:
    """A Fischer game (both banks are durations) with two turns."""
    clock = TimeControl(kind=ClockKind.FISCHER, bank_days=10, increment_days=2, max_days=20)
    game = services.game_start(orange=alice, blue=bob, time_control=clock)
    submit(token_client(alice), game.pk, 0, "d5 ESW")
    submit(token_client(bob), game.pk, 1, "c5 ESW")
    return Game.objects.get(pk=game.pk)


def test_the_locked_game_is_the_game_the_orm_reads(played):
    found = statements.game_for_update(played.pk)
    assert isinstance(found, Game)
    assert _columns(found) == _columns(played)
    assert found.orange_time_left == played.orange_time_left is not None  # a duration
    assert found._state.adding is False and found._state.db == "default"


def test_a_game_that_does_not_exist_is_none():
    assert statements.game_for_update(999_999) is None


def test_the_flags_say_whether_a_game_has_lines_and_players_away(played, alice, bob):
    now = timezone.now()
    found = statements.game_for_update(played.pk, flags_at=now)
    assert (found.has_lines, found.has_vacations) == (False, False)

    services.conditional_line_create(
        game_id=played.pk, user=bob, expected_ply=2, moves=["b5 E", "c4 N"]
    )
    vacation_start(user=alice, days=1)
    found = statements.game_for_update(played.pk, flags_at=now)
    assert (found.has_lines, found.has_vacations) == (True, True)
    # a vacation that ends before the moment asked about does not count
    later = now + timedelta(days=2)  # alice's one day is over by then
    assert Vacation.objects.get(user=alice).ends_at < later
    assert not statements.game_for_update(played.pk, flags_at=later).has_vacations


def test_players_come_with_their_profiles(alice, bob, django_assert_num_queries):
    Profile.objects.filter(user=bob).update(display_name="Robert", notify_turn=False)
    with django_assert_num_queries(1):
        players = statements.players_by_id([alice.pk, bob.pk])
        assert players[bob.pk].profile.display_name == "Robert"
        assert players[bob.pk].profile.notify_turn is False
        assert players[bob.pk].profile.user is players[bob.pk]
    users = get_user_model().objects.select_related("profile").in_bulk([alice.pk, bob.pk])
    assert set(players) == {alice.pk, bob.pk}
    for pk, user in users.items():
        assert _columns(players[pk]) == _columns(user)
        assert model_to_dict(players[pk].profile) == model_to_dict(user.profile)


def test_a_player_without_a_profile_has_none_as_select_related_would(alice, bob):
    Profile.objects.filter(user=bob).delete()
    player = statements.players_by_id([bob.pk])[bob.pk]
    with pytest.raises(Profile.DoesNotExist):
        player.profile  # noqa: B018 - the access is the check


def test_turns_are_the_orm_turns_in_order_each_with_its_game(played, django_assert_num_queries):
    with django_assert_num_queries(1):
        turns = statements.turns(played)
        assert all(turn.game is played for turn in turns)
    expected = list(played.moves.order_by("ply"))
    assert [_columns(turn) for turn in turns] == [_columns(turn) for turn in expected]
    assert [turn.notation for turn in turns] == ["d5 ESW", "c5 ESW"]


def test_a_turn_inserted_is_the_row_create_would_write(played):
    before = timezone.now()
    turn = statements.turn_insert(Move(game=played, ply=2, side="orange", kind="move",
                                       notation="e4 N"))  # fmt: skip
    assert turn.pk is not None and turn._state.adding is False
    stored = Move.objects.get(pk=turn.pk)
    assert _columns(stored) == _columns(turn)
    assert stored.created_at >= before  # filled in as auto_now_add does


def test_saving_columns_writes_those_and_no_others(played):
    game = Game.objects.get(pk=played.pk)
    game.ply, game.to_move, game.deadline = 7, "blue", None
    game.orange_time_left = timedelta(days=3, hours=5)
    game.result = "1-0"  # changed in memory, not among the columns saved
    statements.game_columns_save(game, ["ply", "to_move", "deadline", "orange_time_left"])
    stored = Game.objects.get(pk=played.pk)
    assert (stored.ply, stored.to_move, stored.deadline) == (7, "blue", None)
    assert stored.orange_time_left == timedelta(days=3, hours=5)
    assert stored.result == played.result == ""
