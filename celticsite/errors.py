"""Domain errors raised by services and translated to HTTP answers at the edge.

Services raise a subclass of :class:`DomainError`; the API exception handler turns it into a
JSON body ``{"code": ..., "detail": ...}`` with the class's status, and web views show the
message. Services never know about HTTP beyond this one status number.
"""

from __future__ import annotations

from typing import Any, ClassVar


class DomainError(Exception):
    """A request that the domain refuses, with a message meant for the user."""

    status: ClassVar[int] = 400
    code: ClassVar[str] = "invalid"

    def __init__(self, detail: str, *, code: str | None = None, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        if code is not None:
            self.code = code  # type: ignore[misc]
        self.extra = extra

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "detail": self.detail, **self.extra}


class NotPermitted(DomainError):
    status = 403
    code = "permission_denied"


class NotFound(DomainError):
    status = 404
    code = "not_found"


class Conflict(DomainError):
    """The request was valid when written but the world has moved on (stale ply, race)."""

    status = 409
    code = "conflict"
