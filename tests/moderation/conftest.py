from __future__ import annotations

import pytest

from tests.accounts.factories import make_moderator, make_user


@pytest.fixture
def alice(db):
    return make_user("alice")


@pytest.fixture
def moderator(db):
    return make_moderator()
