from __future__ import annotations

import pytest

from tests.accounts.factories import make_user


@pytest.fixture
def alice(db):
    return make_user("alice", display_name="Alice A.", country="IE", time_zone="Europe/Dublin")


@pytest.fixture
def bob(db):
    return make_user("bob")
