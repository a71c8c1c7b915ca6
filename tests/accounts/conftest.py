from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.accounts.factories import make_user


@pytest.fixture(autouse=True)
def _fresh_throttle_cache():
    """The API throttles count requests in the cache; start each test from zero."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def alice(db):
    return make_user("alice", display_name="Alice A.", country="IE", time_zone="Europe/Dublin")


@pytest.fixture
def bob(db):
    return make_user("bob")


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """PBKDF2 at full strength makes each user take ~0.3 s; these tests do not need it."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
