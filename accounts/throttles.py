"""Per-address budgets for the requests that send someone an email (sign-up, password reset),
shared by the API and the web pages, counted in the shared cache like every throttle."""

from __future__ import annotations

import math

from django.http import HttpRequest
from rest_framework.throttling import AnonRateThrottle


class _EmailSendingThrottle(AnonRateThrottle):
    """``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"][scope]`` when set, else ``default_rate``."""

    default_rate = ""

    def get_rate(self) -> str:
        return self.THROTTLE_RATES.get(self.scope) or self.default_rate


class PasswordResetThrottle(_EmailSendingThrottle):
    """So password resets cannot flood someone with emails."""

    scope = "password_reset"
    default_rate = "5/hour"


class SignupThrottle(_EmailSendingThrottle):
    """So sign-ups cannot flood someone's mailbox with confirmations or notices."""

    scope = "signup"
    default_rate = "10/hour"


def web_throttle_wait(request: HttpRequest, throttle_class: type[AnonRateThrottle]) -> int | None:
    """Count a web request against the API's budget: None when allowed, else the seconds to
    wait (for Retry-After)."""
    throttle = throttle_class()
    if throttle.allow_request(request, None):  # type: ignore[arg-type]
        return None
    return max(1, math.ceil(throttle.wait() or 1))


def try_again_in(wait_seconds: int) -> str:
    """The end of every "too many" message, in whole minutes (rounded up)."""
    minutes = math.ceil(wait_seconds / 60)
    return f"Try again in {minutes} minute{'s' * (minutes != 1)}."


def too_many_requests_message(wait_seconds: int) -> str:
    return f"Too many requests from your address. {try_again_in(wait_seconds)}"
