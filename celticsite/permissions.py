"""Who may call an API view, said once for every app.

A view states ``permission_classes``: DRF's ``AllowAny`` (reading open to anyone, where the
selector decides what is visible), DRF's ``IsAuthenticated`` (every method needs a login),
or ``ReadOpenWriteLoggedIn`` below for a view that is read by anyone and written by users.
No view overrides ``get_permissions``.
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS, IsAuthenticated
from rest_framework.request import Request


class ReadOpenWriteLoggedIn(IsAuthenticated):
    """Reading (GET, HEAD, OPTIONS) is open to anyone; every other method the view answers
    (e.g. POST to a list, PATCH to a detail) needs a logged-in user. A method the view does
    not answer stays open, so it is refused with 405 rather than 401."""

    def has_permission(self, request: Request, view: Any) -> bool:
        method = request.method or ""
        if method in SAFE_METHODS or not hasattr(view, method.lower()):
            return True
        return super().has_permission(request, view)


__all__ = ["ReadOpenWriteLoggedIn"]
