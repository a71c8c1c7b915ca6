"""The API's throttles are DRF's own: the user's rate on every request, and on a move or a
game message also its scope's rate (moves, messages), each history under DRF's keys in the
shared cache. Each throttle counts every request it lets through."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle, UserRateThrottle

from games import services
from tests.accounts.factories import make_user
from tests.games.conftest import API, moves_url, submit, token_client

pytestmark = pytest.mark.django_db

RATES = {"anon": "60/minute", "user": "4/minute", "moves": "2/minute", "messages": "2/minute"}
T0 = 1_000_000.0


@pytest.fixture
def clock(monkeypatch):
    """The throttles' time, in seconds, moved by hand."""
    now = [T0]
    monkeypatch.setattr(SimpleRateThrottle, "timer", staticmethod(lambda: now[0]))
    for throttle in (UserRateThrottle, ScopedRateThrottle):
        monkeypatch.setattr(throttle, "THROTTLE_RATES", RATES)
    return now


@pytest.fixture
def players():
    alice, bob = make_user("alice"), make_user("bob")
    game = services.game_start(players=[alice, bob])
    return game, (alice, token_client(alice)), (bob, token_client(bob))


def _message(client, game, text: str) -> int:
    return client.post(f"{API}/games/{game.pk}/messages/", {"body": text}).status_code


def test_a_move_is_counted_under_the_user_key_and_the_moves_key(clock, players):
    game, (alice, alice_api), _ = players
    assert submit(alice_api, game.pk, 0, "d5 ESW").status_code == 201
    clock[0] += 5
    assert alice_api.get(moves_url(game.pk)).status_code == 200  # a read: the user's rate only
    assert cache.get(f"throttle_user_{alice.pk}") == [T0 + 5, T0]
    assert cache.get(f"throttle_moves_{alice.pk}") == [T0]


def test_the_moves_rate_refuses_with_the_wait_until_its_oldest_move_leaves_the_window(
    clock, players
):
    game, (_, alice_api), (_, bob_api) = players
    assert submit(alice_api, game.pk, 0, "d5 ESW").status_code == 201
    clock[0] += 10
    assert submit(bob_api, game.pk, 1, "c5 ESW").status_code == 201  # bob counts apart
    assert submit(alice_api, game.pk, 2, "a1 N").status_code == 400  # counted, though refused
    clock[0] += 5
    refused = submit(alice_api, game.pk, 2, "e4 N")
    assert refused.status_code == 429
    assert refused.json() == {
        "code": "throttled",
        "detail": "Request was throttled. Expected available in 45 seconds.",
    }
    assert refused["Retry-After"] == "45"  # the first move leaves the minute in 45 s
    clock[0] += 45
    assert submit(alice_api, game.pk, 2, "e4 N").status_code == 201


def test_reads_count_against_a_move_s_user_budget(clock, players):
    game, (alice, alice_api), _ = players
    for _ in range(4):
        assert alice_api.get(moves_url(game.pk)).status_code == 200
    refused = submit(alice_api, game.pk, 0, "d5 ESW")
    assert refused.status_code == 429
    assert refused["Retry-After"] == "60"
    # the moves rate had room, and counted it; the user's refused it, and did not
    assert cache.get(f"throttle_moves_{alice.pk}") == [T0]
    assert len(cache.get(f"throttle_user_{alice.pk}")) == 4


def test_a_move_refused_by_its_scope_still_counts_against_the_user_rate(clock, players):
    game, (alice, alice_api), _ = players
    for ply in (0, 0, 0):  # two counted by the moves rate, the third refused by it
        submit(alice_api, game.pk, ply, "a1 N")
    assert len(cache.get(f"throttle_moves_{alice.pk}")) == 2
    assert len(cache.get(f"throttle_user_{alice.pk}")) == 3
    assert alice_api.get(moves_url(game.pk)).status_code == 200  # the fourth
    assert alice_api.get(moves_url(game.pk)).status_code == 429


def test_messages_have_their_own_rate_and_share_the_user_s(clock, players):
    game, (_, alice_api), (_, bob_api) = players
    assert [_message(alice_api, game, text) for text in "abc"] == [201, 201, 429]
    assert submit(alice_api, game.pk, 0, "d5 ESW").status_code == 201  # moves count apart
    assert _message(bob_api, game, "mine") == 201
    assert alice_api.get(moves_url(game.pk)).status_code == 429  # 4 for the user: spent
