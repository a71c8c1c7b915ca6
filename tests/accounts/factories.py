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


# What ``make_moderator`` may do: suspend and reactivate users, see every game, annul and
# adjudicate (not hide messages: tests/games/messaging.py has a message moderator).
MODERATOR_PERMISSIONS = (
    "auth.view_user",
    "auth.change_user",
    "accounts.suspend_user",
    "accounts.reactivate_user",
    "games.view_game",
    "games.annul_game",
    "games.adjudicate_game",
)


def make_staff(username: str, *permissions: str) -> User:
    """Active staff holding exactly ``permissions`` (``app_label.codename``), no group."""
    user = make_user(username)
    user.is_staff = True
    user.save()
    return grant_permissions(user, *permissions)


def grant_permissions(user: User, *permissions: str) -> User:
    """``user`` read afresh (so the permission cache is empty) after being given
    ``permissions`` (``app_label.codename``)."""
    for name in permissions:
        app_label, codename = name.split(".")
        user.user_permissions.add(
            Permission.objects.get(content_type__app_label=app_label, codename=codename)
        )
    return User.objects.get(pk=user.pk)


def make_moderator(username: str = "mod") -> User:
    """Staff who may suspend users, see, annul or adjudicate games; not a superuser."""
    return make_staff(username, *MODERATOR_PERMISSIONS)


def make_superuser(username: str = "root") -> User:
    return User.objects.create_superuser(username, f"{username}@example.org", PASSWORD)
