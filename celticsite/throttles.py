"""The user's rate and a view's scoped rate (moves, messages), counted in one cache round trip.

DRF's ``UserRateThrottle`` and ``ScopedRateThrottle`` each read and write their history:
four round trips to Redis for a move. This throttle keeps the same two histories under the
same keys (so it counts with the plain user throttle of every other request) and reads and
writes both at once. A request either throttle refuses counts against neither.
"""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.throttling import (
    BaseThrottle,
    ScopedRateThrottle,
    SimpleRateThrottle,
    UserRateThrottle,
)


class UserAndScopeRateThrottle(BaseThrottle):
    """``UserRateThrottle`` and ``ScopedRateThrottle`` in one: the view's ``throttle_scope``
    names the second rate (none: only the user's)."""

    def __init__(self) -> None:
        self._wait: float | None = None

    def allow_request(self, request: Request, view: Any) -> bool:
        limits = [throttle for throttle in _throttles(view) if throttle.rate is not None]
        keys = {throttle.get_cache_key(request, view): throttle for throttle in limits}
        if not keys:
            return True
        cache = SimpleRateThrottle.cache
        now = SimpleRateThrottle.timer()
        stored = cache.get_many(list(keys))
        histories, waits = {}, []
        for key, throttle in keys.items():
            history = [at for at in stored.get(key, []) if at > now - throttle.duration]
            if len(history) >= throttle.num_requests:
                waits.append(throttle.duration - (now - history[-1]))
            histories[key] = [now, *history]
        if waits:
            self._wait = max(waits)
            return False
        longest = max(throttle.duration for throttle in keys.values())
        cache.set_many(histories, longest)  # a history outlasting its window is trimmed on read
        return True

    def wait(self) -> float | None:
        return self._wait


def _throttles(view: Any) -> list[SimpleRateThrottle]:
    found: list[SimpleRateThrottle] = [UserRateThrottle()]
    scope = getattr(view, ScopedRateThrottle.scope_attr, None)
    if scope:
        scoped = ScopedRateThrottle()
        scoped.scope = scope
        scoped.rate = scoped.get_rate()
        scoped.num_requests, scoped.duration = scoped.parse_rate(scoped.rate)
        found.append(scoped)
    return found
