"""Reads for accounts."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from accounts.models import ApiToken, Profile, api_token_hash


def profile_get(*, user: AbstractBaseUser) -> Profile:
    """The user's profile, created with defaults if missing (e.g. after ``createsuperuser``)."""
    try:
        return user.profile  # type: ignore[attr-defined]
    except Profile.DoesNotExist:
        profile, _ = Profile.objects.get_or_create(user=user)
        return profile


def api_token_list(*, user: AbstractBaseUser) -> QuerySet[ApiToken]:
    """The user's tokens that still work, newest first."""
    return ApiToken.objects.filter(user=user, revoked_at=None)


def api_token_get_by_key(*, key: str) -> ApiToken | None:
    """The token (revoked or not) whose raw key is ``key``, with its user, or ``None``."""
    return ApiToken.objects.select_related("user").filter(key_hash=api_token_hash(key)).first()
