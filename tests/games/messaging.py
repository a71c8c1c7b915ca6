"""Helpers for the game-message tests: a message moderator and a quick way to post."""

from __future__ import annotations

from django.contrib.auth.models import Permission, User

from games import services
from games.models import Game, GameMessage
from tests.accounts.factories import make_user


def make_message_moderator(username: str = "mod") -> User:
    """Staff with the permission to change game messages (what hiding needs)."""
    user = make_user(username)
    user.is_staff = True
    user.save()
    user.user_permissions.add(
        Permission.objects.get(codename="hide_gamemessage", content_type__app_label="games"),
        Permission.objects.get(codename="view_gamemessage", content_type__app_label="games"),
        Permission.objects.get(codename="view_messagereport", content_type__app_label="games"),
        Permission.objects.get(codename="change_messagereport", content_type__app_label="games"),
    )
    return User.objects.get(pk=user.pk)  # fresh, so the permission cache is empty


def post(game: Game, author: User, body: str) -> GameMessage:
    return services.message_post(game_id=game.pk, author=author, body=body)
