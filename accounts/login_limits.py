"""Limits on failed logins, per account and per client address, counted in the shared cache.

Every password check goes through ``django.contrib.auth.authenticate`` (the login page, the
admin's, HTTP Basic on the API), so one signal receiver counts the failures and one
authentication backend (``accounts.backends.LoginLimitBackend``) refuses to check a password
while a limit holds. The login page and the API check first to answer 429 with Retry-After.

Failures are counted in fixed windows of ``CELTIC_LOGIN_COOLOFF_MINUTES``. Reaching a limit
locks the account (or address) until that many minutes after the failure that reached it; the
lock is not extended by attempts made while it holds, so it always ends. Each failure claims a
numbered slot with ``cache.add``, which is atomic on Redis and on the embedded file cache, so
parallel guesses cannot share one count. Successful logins write nothing.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils import timezone
from rest_framework.throttling import BaseThrottle

from accounts.throttles import try_again_in

KEY_PREFIX = "login-failures"


def client_address(request: Any) -> str | None:
    """The client's address: REMOTE_ADDR, or with ``CELTIC_TRUSTED_PROXIES`` = N the Nth
    address from the right of X-Forwarded-For (the same rule as the API throttles, whose
    ``NUM_PROXIES`` is that setting). None when unknown (e.g. the test client's ``login``)."""
    return BaseThrottle().get_ident(request) or None


def _key(kind: str, value: str) -> str:
    digest = hashlib.sha256(value.encode()).hexdigest()[:32]
    return f"{KEY_PREFIX}:{kind}:{digest}"


def _limited_keys(*, username: str | None, address: str | None) -> Iterator[tuple[str, int]]:
    """The cache key and allowed failures of each limit that applies."""
    if username:
        yield (
            _key("account", username.strip().casefold()),
            settings.CELTIC_LOGIN_FAILURES_PER_ACCOUNT,
        )
    if address:
        yield _key("address", address), settings.CELTIC_LOGIN_FAILURES_PER_ADDRESS


def _cooloff_seconds() -> int:
    return settings.CELTIC_LOGIN_COOLOFF_MINUTES * 60


def login_lock_wait(*, username: str | None, address: str | None) -> int | None:
    """Seconds until a login for ``username`` from ``address`` may be tried again; None when
    neither is locked. One cache read."""
    lock_keys = [f"{key}:locked" for key, _ in _limited_keys(username=username, address=address)]
    if not lock_keys:
        return None
    now = timezone.now().timestamp()
    unlock_times = cache.get_many(lock_keys).values()
    wait = max((unlock_at - now for unlock_at in unlock_times), default=0)
    return math.ceil(wait) if wait > 0 else None


def login_failure_record(*, username: str | None, address: str | None) -> None:
    """Count one failed login; lock the account or address that reaches its limit."""
    now = timezone.now().timestamp()
    window = _cooloff_seconds()
    for key, allowed in _limited_keys(username=username, address=address):
        if _failure_number(f"{key}:{int(now // window)}", allowed=allowed, window=window) >= (
            allowed
        ):
            # ``add``: a lock in force is never extended, so it ends ``window`` after it began.
            cache.add(f"{key}:locked", now + window, timeout=window)


def _failure_number(window_key: str, *, allowed: int, window: int) -> int:
    """Claim the next free slot 1..allowed in this window; returns its number."""
    start = (cache.get(window_key) or 0) + 1
    for number in range(start, allowed + 1):
        if cache.add(f"{window_key}:{number}", 1, timeout=window):
            cache.set(window_key, number, timeout=window)
            return number
    return allowed


def login_failed_receiver(
    sender: object, credentials: dict[str, Any], request: HttpRequest | None = None, **_: Any
) -> None:
    """``user_login_failed``: count the failure, unless a lock refused it unchecked."""
    if request is None:
        return
    username = credentials.get("username")
    address = client_address(request)
    if login_lock_wait(username=username, address=address) is None:
        login_failure_record(username=username, address=address)


def lockout_message(wait_seconds: int) -> str:
    reason = "Too many failed logins for this account or from your address."
    return f"{reason} {try_again_in(wait_seconds)}"
