from __future__ import annotations

from typing import Any

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from accounts.signals import user_suspended
        from games.audit import ACTIONS
        from moderation.audit import audit_actions_register

        audit_actions_register(ACTIONS)
        user_suspended.connect(_close_challenges, dispatch_uid="games_close_challenges")


def _close_challenges(*, user: Any, actor: Any, reason: str, **_: Any) -> None:
    """A suspended player's open challenges and seeks close with the suspension."""
    from games.services import challenge_close_all_for_suspended

    challenge_close_all_for_suspended(user=user, actor=actor, reason=reason)
