"""Site-wide middleware."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone


class UserTimeZoneMiddleware:
    """Show the pages in the logged-in player's own time zone (their profile's ``time_zone``).

    Deadlines and move times on the pages then read as the player's local time. The API is left
    in UTC: its clients authenticate after the middleware runs (tokens), and its answers should
    not change with a browser session, so ``/api/`` keeps the default zone.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        zone = _user_zone(request)
        if zone is None:
            return self.get_response(request)
        with timezone.override(zone):
            return self.get_response(request)


def _user_zone(request: HttpRequest) -> zoneinfo.ZoneInfo | None:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or request.path.startswith("/api/"):
        return None
    profile = getattr(user, "profile", None)
    try:
        return zoneinfo.ZoneInfo(profile.time_zone) if profile is not None else None
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None  # a zone removed from the host's database since it was chosen: use UTC
