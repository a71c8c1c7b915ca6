"""``Authorization: Token <key>`` for the API, with the key looked up by its SHA-256."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.request import Request

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
