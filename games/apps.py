from __future__ import annotations

from typing import Any

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        """Close a suspended player's challenges; keep running games' clocks right when a
        player's pauses change (accounts knows nothing of games)."""
        from accounts.signals import pause_change_wrapper_register, user_suspended
        from games.audit import ACTIONS
        from games.services import clock_pauses_changing
        from moderation.audit import audit_actions_register

        audit_actions_register(ACTIONS)
        user_suspended.connect(_close_challenges, dispatch_uid="games_close_challenges")
        pause_change_wrapper_register("games.deadlines", clock_pauses_changing)


def _close_challenges(*, user: Any, actor: Any, reason: str, **_: Any) -> None:
    """A suspended player's open challenges and seeks close with the suspension."""
    from games.services import challenge_close_all_for_suspended

    challenge_close_all_for_suspended(user=user, actor=actor, reason=reason)
