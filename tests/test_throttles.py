"""``UserAndScopeRateThrottle``: DRF's user and scoped rates, kept under DRF's own keys, read
and written together."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.core.cache import cache
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle, UserRateThrottle

from celticsite.throttles import UserAndScopeRateThrottle
from tests.accounts.factories import make_user

pytestmark = pytest.mark.django_db

RATES = {"user": "3/minute", "moves": "2/minute"}


@pytest.fixture
def clock(monkeypatch):
    """The throttles' time, in seconds, moved by hand."""
    now = [1_000_000.0]
    monkeypatch.setattr(SimpleRateThrottle, "timer", staticmethod(lambda: now[0]))
    for throttle in (UserRateThrottle, ScopedRateThrottle):
        monkeypatch.setattr(throttle, "THROTTLE_RATES", RATES)
    cache.clear()
    yield now
    cache.clear()


def _allowed(user, scope: str | None = "moves") -> tuple[bool, float | None]:
    throttle = UserAndScopeRateThrottle()
    allowed = throttle.allow_request(
        SimpleNamespace(user=user), SimpleNamespace(throttle_scope=scope)
    )
    return allowed, throttle.wait()


def test_both_histories_are_kept_under_drf_keys(clock):
    ann = make_user("ann")
    assert _allowed(ann) == (True, None)
    clock[0] += 5
    assert _allowed(ann) == (True, None)
    assert cache.get(f"throttle_user_{ann.pk}") == [1_000_005.0, 1_000_000.0]
    assert cache.get(f"throttle_moves_{ann.pk}") == [1_000_005.0, 1_000_000.0]


def test_the_scope_refuses_with_the_wait_until_its_oldest_request_leaves_the_window(clock):
    ann = make_user("ann")
    _allowed(ann)
    clock[0] += 10
    _allowed(ann)
    clock[0] += 5
    assert _allowed(ann) == (False, 45.0)  # the first request leaves the minute in 45 s
    # refused, so counted against neither rate
    assert len(cache.get(f"throttle_user_{ann.pk}")) == 2
    clock[0] += 45
    assert _allowed(ann) == (True, None)


def test_requests_counted_by_the_plain_user_throttle_count_here_too(clock):
    ann = make_user("ann")
    request, view = SimpleNamespace(user=ann), SimpleNamespace()
    for _ in range(3):
        assert UserRateThrottle().allow_request(request, view)  # reads: the user rate only
    assert _allowed(ann) == (False, 60.0)
    assert cache.get(f"throttle_moves_{ann.pk}") is None


def test_a_view_without_a_scope_is_held_to_the_user_rate_alone(clock):
    ann, bob = make_user("ann"), make_user("bob")
    assert [_allowed(ann, scope=None)[0] for _ in range(4)] == [True, True, True, False]
    assert [_allowed(bob)[0] for _ in range(3)] == [True, True, False]  # others count apart
