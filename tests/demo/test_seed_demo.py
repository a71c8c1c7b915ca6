"""``manage.py seed_demo``: what a newcomer finds after ``make run``."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.models import Challenge, Game, GameMessage

pytestmark = pytest.mark.django_db


def seed() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def test_seed_demo_makes_players_games_a_message_and_challenges() -> None:
    assert "Demo data created." in seed()
    users = get_user_model().objects
    assert sorted(users.values_list("username", flat=True)) == [
        "alice",
        "bob",
        "carol",
        "moderator",
    ]
    assert users.get(username="alice").check_password("celtic-demo")
    in_progress = Game.objects.get(status=Game.Status.ACTIVE)
    assert (in_progress.orange.username, in_progress.blue.username) == ("alice", "bob")
    assert in_progress.moves.exists() and in_progress.deadline is not None
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 1
    [message] = GameMessage.objects.all()
    assert (message.game, message.author.username) == (in_progress, "bob")
    assert Challenge.objects.filter(status=Challenge.Status.OPEN).count() == 2


def test_seed_demo_twice_changes_nothing() -> None:
    seed()
    counts = (Game.objects.count(), GameMessage.objects.count(), Challenge.objects.count())
    assert "Demo data already present." in seed()
    assert (Game.objects.count(), GameMessage.objects.count(), Challenge.objects.count()) == counts


def test_the_demo_moderator_is_a_member_of_moderators_not_a_superuser() -> None:
    seed()
    moderator = get_user_model().objects.get(username="moderator")
    assert (moderator.is_staff, moderator.is_superuser) == (True, False)
    assert list(moderator.groups.values_list("name", flat=True)) == ["Moderators"]
    assert moderator.has_perm("games.annul_game") and moderator.has_perm("accounts.suspend_user")
    assert not moderator.has_perm("accounts.grant_staff")
