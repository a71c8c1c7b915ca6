"""Fixtures for the notification tests: players with addresses and a game between them."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from games import services as game_services
from games.models import Game
from notifications.services import outbox_muted
from tests.accounts.factories import make_user


@pytest.fixture(autouse=True)
def _site_url(settings):
    settings.SITE_URL = "https://celtic.example"


@pytest.fixture
def alice(db) -> User:
    return make_user("alice", display_name="Alice A.", time_zone="Europe/Dublin")


@pytest.fixture
def bob(db) -> User:
    return make_user("bob")


def game_start_quietly(**arguments: Any) -> Game:
    """``game_start`` without its emails (it tells the first mover it is their turn): for
    tests of what comes next."""
    with outbox_muted():
        return game_services.game_start(**arguments)


@pytest.fixture
def game(alice, bob) -> Game:
    """A rated game, alice Orange to move, three days per move; its start queued no email.

    Read afresh, as the next request would: its seats and their profiles are read on first
    use, so a test's ``set_profile`` before that is seen."""
    return Game.objects.get(pk=game_start_quietly(players=[alice, bob]).pk)


def set_profile(user: User, **fields: object) -> None:
    profile = user.profile
    for name, value in fields.items():
        setattr(profile, name, value)
    profile.save()
