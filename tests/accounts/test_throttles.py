"""Throttles and failed-login limits: one shared count, client addresses from trusted proxies
only, and a clear 429 with Retry-After when a limit is reached."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from django.core.cache import cache
from django.core.cache.backends.redis import RedisCache
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import login_limits
from accounts.services import api_token_create
from celticsite.cache import AtomicFileCache, FailOpenRedisCache
from tests.accounts.factories import PASSWORD, make_user
from tests.accounts.test_api import basic_header, token_header

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
RESET = "/api/v1/accounts/password-reset/"
TOKENS = "/api/v1/accounts/tokens/"
LOGIN = reverse("accounts:login")
COOLOFF_SECONDS = 15 * 60


@pytest.fixture
def small_limits(settings):
    settings.CELTIC_LOGIN_FAILURES_PER_ACCOUNT = 3
    settings.CELTIC_LOGIN_FAILURES_PER_ADDRESS = 5
    settings.CELTIC_LOGIN_COOLOFF_MINUTES = 15


@pytest.fixture
def trusted_proxies(settings):
    def use(count: int) -> None:
        settings.CELTIC_TRUSTED_PROXIES = count
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": count}

    return use


def _settings_value(expression: str, **env: str) -> str:
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_", "REDIS_", "CELTIC_CACHE"))
    }
    code = f"from django.conf import settings; print({expression})"
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return result.stdout.strip().splitlines()[-1]  # after the shell's own banner


# --- The shared cache -------------------------------------------------------------------------


def test_the_embedded_cache_is_files_in_the_var_directory_shared_by_every_process(tmp_path):
    cache = _settings_value("settings.CACHES['default']", CELTIC_VAR_DIR=str(tmp_path))

    assert "'BACKEND': 'celticsite.cache.AtomicFileCache'" in cache
    assert f"'LOCATION': '{tmp_path / 'cache'}'" in cache
    assert "'MAX_ENTRIES': 50000" in cache


def test_the_file_cache_lets_exactly_one_of_racing_adds_claim_a_key(tmp_path):
    shared = AtomicFileCache(str(tmp_path), {})
    start = threading.Barrier(8)

    def claim(number: int) -> bool:
        start.wait()
        return shared.add("slot", number, timeout=60)

    with ThreadPoolExecutor(max_workers=8) as pool:
        claimed = list(pool.map(claim, range(8)))

    assert claimed.count(True) == 1
    assert shared.get("slot") == claimed.index(True)
    assert [name.suffix for name in tmp_path.iterdir()] == [".djcache"]  # no temp files left


def test_the_file_cache_add_keeps_a_live_key_and_replaces_an_expired_one(tmp_path):
    shared = AtomicFileCache(str(tmp_path), {})
    start = timezone.now()

    with time_machine.travel(start, tick=False):
        assert shared.add("lock", "first", timeout=60) is True
        assert shared.add("lock", "second", timeout=60) is False
        assert shared.get("lock") == "first"
    with time_machine.travel(start + timedelta(seconds=61), tick=False):
        assert shared.add("lock", "third", timeout=60) is True
        assert shared.get("lock") == "third"


def test_throttled_api_requests_cost_no_cache_queries(alice, django_assert_num_queries):
    client = APIClient()
    client.force_authenticate(alice)

    with django_assert_num_queries(0):
        assert client.post(RESET, {"email": "nobody@example.org"}).status_code == 202


def test_with_redis_the_cache_is_redis_under_its_own_prefix():
    cache = _settings_value(
        "settings.CACHES['default']",
        REDIS_URL="redis://127.0.0.1:6379/0",
        CELTIC_CACHE_URL="redis://127.0.0.1:6379/3",
    )

    assert "'BACKEND': 'celticsite.cache.FailOpenRedisCache'" in cache
    assert issubclass(FailOpenRedisCache, RedisCache)  # Django's own, failing open
    assert "'LOCATION': 'redis://127.0.0.1:6379/3'" in cache
    assert "'KEY_PREFIX': 'celtic'" in cache


def test_two_clients_share_one_throttle_count(alice):
    first, second = APIClient(), APIClient()
    for _ in range(3):
        assert first.post(RESET, {"email": "alice@example.org"}).status_code == 202
    for _ in range(2):
        assert second.post(RESET, {"email": "alice@example.org"}).status_code == 202

    response = second.post(RESET, {"email": "alice@example.org"})

    assert response.status_code == 429
    assert response.json()["code"] == "throttled"
    assert 0 < int(response["Retry-After"]) <= 3600


# --- Client addresses ---------------------------------------------------------------------


def test_without_trusted_proxies_x_forwarded_for_is_ignored(api_client, alice, trusted_proxies):
    trusted_proxies(0)
    for n in range(5):
        response = api_client.post(
            RESET, {"email": "alice@example.org"}, HTTP_X_FORWARDED_FOR=f"198.51.100.{n}"
        )
        assert response.status_code == 202

    response = api_client.post(
        RESET, {"email": "alice@example.org"}, HTTP_X_FORWARDED_FOR="198.51.100.99"
    )

    assert response.status_code == 429


def test_with_one_trusted_proxy_the_client_is_the_rightmost_address(
    api_client, alice, trusted_proxies
):
    trusted_proxies(1)
    for n in range(5):  # what the client wrote itself (left) does not matter
        response = api_client.post(
            RESET,
            {"email": "alice@example.org"},
            HTTP_X_FORWARDED_FOR=f"10.9.9.{n}, 203.0.113.7",
        )
        assert response.status_code == 202

    same = api_client.post(
        RESET, {"email": "alice@example.org"}, HTTP_X_FORWARDED_FOR="10.9.9.9, 203.0.113.7"
    )
    other = api_client.post(
        RESET, {"email": "alice@example.org"}, HTTP_X_FORWARDED_FOR="203.0.113.7, 203.0.113.8"
    )

    assert same.status_code == 429
    assert other.status_code == 202


# --- Failed logins on the web -------------------------------------------------------------


def _login(client, username: str, password: str, **extra: str):
    return client.post(LOGIN, {"username": username, "password": password}, **extra)


def test_failed_logins_lock_the_account_with_retry_after(client, alice, small_limits):
    assert _login(client, "alice", "wrong-1").status_code == 200
    assert _login(client, "alice", "wrong-2").status_code == 200

    locked = _login(client, "alice", "wrong-3")

    assert locked.status_code == 429
    assert locked["Retry-After"] == str(COOLOFF_SECONDS)
    assert b"Too many failed logins" in locked.content
    assert b"Try again in 15 minutes" in locked.content
    # While locked, even the right password is not checked, from any address.
    again = _login(client, "ALICE", PASSWORD, REMOTE_ADDR="192.0.2.50")
    assert again.status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_account_lock_ends_after_the_cool_off(client, alice, small_limits):
    start = timezone.now()
    with time_machine.travel(start, tick=False) as traveller:
        for n in range(3):
            _login(client, "alice", f"wrong-{n}")
        traveller.shift(timedelta(minutes=10))
        still = _login(client, "alice", PASSWORD)
        assert still.status_code == 429
        assert still["Retry-After"] == str(5 * 60)

        traveller.shift(timedelta(minutes=5, seconds=1))
        response = _login(client, "alice", PASSWORD)

    assert response.status_code == 302
    assert int(client.session["_auth_user_id"]) == alice.pk


def test_failures_from_one_address_lock_that_address_for_every_account(client, small_limits):
    carol = make_user("carol")
    for n in range(5):  # under the per-account limit for each name
        _login(client, f"nobody-{n}", "guess")

    locked = _login(client, "carol", PASSWORD)
    elsewhere = _login(client, "carol", PASSWORD, REMOTE_ADDR="192.0.2.77")

    assert locked.status_code == 429
    assert b"Too many failed logins" in locked.content
    assert elsewhere.status_code == 302
    assert int(client.session["_auth_user_id"]) == carol.pk


def test_a_locked_account_does_not_lock_others(client, alice, small_limits):
    make_user("carol")
    for n in range(3):
        _login(client, "alice", f"wrong-{n}")

    assert _login(client, "carol", PASSWORD).status_code == 302


def test_spoofed_x_forwarded_for_does_not_escape_the_address_limit(
    client, small_limits, trusted_proxies
):
    trusted_proxies(0)
    make_user("carol")
    for n in range(5):
        _login(client, f"nobody-{n}", "guess", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}")

    response = _login(client, "carol", PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.200")

    assert response.status_code == 429


def test_behind_one_proxy_the_forwarded_address_is_limited(client, small_limits, trusted_proxies):
    trusted_proxies(1)
    make_user("carol")
    for n in range(5):
        _login(client, f"nobody-{n}", "guess", HTTP_X_FORWARDED_FOR=f"1.2.3.{n}, 203.0.113.7")

    same = _login(client, "carol", PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.7")
    other = _login(client, "carol", PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.7, 203.0.113.8")

    assert same.status_code == 429
    assert other.status_code == 302


def test_admin_login_respects_the_lock(client, small_limits):
    carol = make_user("carol")
    carol.is_staff = True
    carol.save()
    for n in range(3):
        _login(client, "carol", f"wrong-{n}")

    response = client.post(
        reverse("admin:login"), {"username": "carol", "password": PASSWORD}, follow=True
    )

    assert response.status_code == 429
    assert response["Retry-After"] == str(COOLOFF_SECONDS)
    assert b"Too many failed logins for this account or from your address." in response.content
    assert b"Please enter the correct username and password" not in response.content
    assert "_auth_user_id" not in client.session


def test_the_admin_login_failure_that_locks_says_so(client, small_limits):
    carol = make_user("carol")
    carol.is_staff = True
    carol.save()
    for n in range(2):
        refused = client.post(reverse("admin:login"), {"username": "carol", "password": f"w{n}"})
        assert refused.status_code == 200
        assert b"Please enter the correct username and password" in refused.content

    locking = client.post(reverse("admin:login"), {"username": "carol", "password": "w2"})

    assert locking.status_code == 429
    assert locking["Retry-After"] == str(COOLOFF_SECONDS)
    assert b"Too many failed logins" in locking.content
    assert b"Try again in 15 minutes." in locking.content


def test_the_admin_login_works_when_not_locked(client):
    carol = make_user("carol")
    carol.is_staff = True
    carol.save()

    response = client.post(reverse("admin:login"), {"username": "carol", "password": PASSWORD})

    assert response.status_code == 302
    assert "_auth_user_id" in client.session


# --- Failed logins on the API (HTTP Basic) ------------------------------------------------


def test_basic_auth_failures_lock_with_the_json_error_format(api_client, alice, small_limits):
    assert api_client.get(TOKENS, **basic_header("alice", "wrong-1")).status_code == 401
    assert api_client.get(TOKENS, **basic_header("alice", "wrong-2")).status_code == 401

    locked = api_client.get(TOKENS, **basic_header("alice", "wrong-3"))
    right = api_client.get(TOKENS, **basic_header("alice", PASSWORD))

    assert locked.status_code == 429
    assert locked["Retry-After"] == str(COOLOFF_SECONDS)
    body = locked.json()
    assert body["code"] == "login_locked"
    assert body["detail"].startswith("Too many failed logins for this account or from your address")
    assert right.status_code == 429
    assert right.json()["code"] == "login_locked"


def test_web_and_api_failures_count_together(client, api_client, alice, small_limits):
    _login(client, "alice", "wrong-1")
    _login(client, "alice", "wrong-2")

    response = api_client.get(TOKENS, **basic_header("alice", "wrong-3"))

    assert response.status_code == 429


def test_an_api_token_still_works_while_the_password_is_locked(api_client, alice, small_limits):
    _, key = api_token_create(user=alice, name="cli")
    for n in range(3):
        api_client.get(TOKENS, **basic_header("alice", f"wrong-{n}"))

    assert api_client.get(TOKENS, **token_header(key)).status_code == 200


def test_successful_logins_are_not_counted(client, alice, small_limits):
    for _ in range(6):
        assert _login(client, "alice", PASSWORD).status_code == 302
        client.post(reverse("accounts:logout"))


# --- Emails sent on request: the web pages share the API's budgets ---------------------------


def test_web_password_reset_shares_the_api_budget_per_address(client, api_client, alice):
    for _ in range(3):
        assert api_client.post(RESET, {"email": "alice@example.org"}).status_code == 202
    for _ in range(2):
        assert (
            client.post(reverse("accounts:password_reset"), {"email": "x@example.org"}).status_code
            == 302
        )

    response = client.post(reverse("accounts:password_reset"), {"email": "alice@example.org"})

    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 3600
    assert b"Too many requests from your address" in response.content


def test_web_signup_is_limited_per_address(client):
    for n in range(10):
        data = {
            "username": f"user{n}",
            "email": f"user{n}@example.org",
            "password": PASSWORD,
            "password_confirm": PASSWORD,
            "time_zone": "UTC",
        }
        assert client.post(reverse("accounts:signup"), data).status_code == 302

    response = client.post(reverse("accounts:signup"), {**data, "username": "one-more"})

    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 3600
    assert b"Too many requests from your address" in response.content


def test_parallel_failures_cannot_share_one_count(small_limits):
    """Requests that read the count at the same moment still claim different slots."""
    start = timezone.now()
    window_key = f"{login_limits._key('account', 'alice')}:{int(start.timestamp() // 900)}"
    with time_machine.travel(start, tick=False):
        login_limits.login_failure_record(username="alice", address=None)
        login_limits.login_failure_record(username="alice", address=None)
        cache.set(window_key, 0, timeout=900)  # a third request read the count before both
        assert login_limits.login_lock_wait(username="alice", address=None) is None
        login_limits.login_failure_record(username="alice", address=None)

        assert login_limits.login_lock_wait(username="ALICE", address=None) == COOLOFF_SECONDS
