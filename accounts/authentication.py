"""API authentication: ``Authorization: Token <key>`` (the key looked up by its SHA-256), and
HTTP Basic under the failed-login limits."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions
from rest_framework.authentication import (
    BaseAuthentication,
    BasicAuthentication,
    get_authorization_header,
)
from rest_framework.request import Request

from accounts.login_limits import client_address, lockout_message, login_lock_wait
from accounts.models import ApiToken
from accounts.selectors import api_token_get_by_key
from accounts.services import api_token_mark_used


class ApiTokenAuthentication(BaseAuthentication):
    """Authenticate with a key from ``/api/v1/accounts/tokens/``.

    Requests without a ``Token`` header fall through to the next authentication class; a
    ``Token`` header that does not work is a 401 that says why (unknown, revoked, suspended).
    """

    keyword = "Token"

    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(
                "Malformed Authorization header: expected 'Token <key>' with no spaces in the key."
            )
        try:
            key = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("Invalid API token.") from None
        return self.authenticate_key(key)

    def authenticate_key(self, key: str) -> tuple[Any, ApiToken]:
        token = api_token_get_by_key(key=key)
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid API token.")
        if token.revoked_at is not None:
            raise exceptions.AuthenticationFailed("This API token has been revoked.")
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("This account is suspended.")
        api_token_mark_used(token=token)
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return self.keyword


class LoginLocked(exceptions.Throttled):
    """429 with Retry-After: too many failed logins for the account or from the address."""

    default_code = "login_locked"


class LimitedBasicAuthentication(BasicAuthentication):
    """HTTP Basic that answers 429 ``login_locked`` (with Retry-After) instead of checking the
    password while the account or the client's address is locked, and on the failure that
    locks it. Failures count with those of the login pages (``accounts.login_limits``)."""

    def authenticate_credentials(
        self, userid: str, password: str, request: Request | None = None
    ) -> tuple[Any, None]:
        address = client_address(request) if request is not None else None
        _refuse_if_locked(username=userid, address=address)
        try:
            return super().authenticate_credentials(userid, password, request)
        except exceptions.AuthenticationFailed:
            _refuse_if_locked(username=userid, address=address)
            raise


def _refuse_if_locked(*, username: str, address: str | None) -> None:
    wait = login_lock_wait(username=username, address=address)
    if wait is not None:
        raise LoginLocked(wait=wait, detail=lockout_message(wait))
