"""Authentication backends."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from accounts.login_limits import client_address, login_lock_wait


class LoginLimitBackend(ModelBackend):
    """Django's ``ModelBackend`` that refuses to check a password while failed logins lock the
    account or the client's address: on every login form (the admin's too) and HTTP Basic
    alike. The ``PermissionDenied`` stops ``authenticate`` at once."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> AbstractBaseUser | None:
        if request is not None and login_lock_wait(
            username=username, address=client_address(request)
        ):
            raise PermissionDenied("Locked after too many failed logins.")
        return super().authenticate(request, username=username, password=password, **kwargs)
