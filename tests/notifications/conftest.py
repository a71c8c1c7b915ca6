"""Fixtures for the notification tests: players with addresses and a game between them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games import services as game_services
from games.models import Game
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


@pytest.fixture
def game(alice, bob) -> Game:
    """A rated game, alice Orange to move, three days per move."""
    return game_services.game_start(orange=alice, blue=bob)


def set_profile(user: User, **fields: object) -> None:
    profile = user.profile
    for name, value in fields.items():
        setattr(profile, name, value)
    profile.save()
