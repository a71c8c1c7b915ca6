"""Helpers to make users for the accounts and moderation tests."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Permission, User

from accounts.services import user_create

PASSWORD = "correct-horse-battery-9"


def make_user(username: str = "alice", **kwargs: Any) -> User:
    kwargs.setdefault("email", f"{username}@example.org")
    kwargs.setdefault("password", PASSWORD)
    return user_create(username=username, **kwargs)


def make_moderator(username: str = "mod") -> User:
    """Staff, allowed to change users, not a superuser."""
    user = make_user(username)
    user.is_staff = True
    user.save()
    user.user_permissions.add(
        Permission.objects.get(codename="change_user", content_type__app_label="auth"),
        Permission.objects.get(codename="view_user", content_type__app_label="auth"),
    )
    return User.objects.get(pk=user.pk)  # fresh, so the permission cache is empty


def make_superuser(username: str = "root") -> User:
    return User.objects.create_superuser(username, f"{username}@example.org", PASSWORD)
