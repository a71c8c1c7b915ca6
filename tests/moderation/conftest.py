from __future__ import annotations

import pytest

from tests.accounts.factories import make_moderator, make_user


@pytest.fixture
def alice(db):
    return make_user("alice")


@pytest.fixture
def moderator(db):
    return make_moderator()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """PBKDF2 at full strength makes each user take ~0.3 s; these tests do not need it."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
