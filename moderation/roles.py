"""The moderators group: who moderates, and with which permissions, defined in one place.

``moderators_group_sync()`` (moderation.services) makes the group hold exactly
``MODERATOR_PERMISSIONS``; it runs after every ``migrate`` and from ``seed_demo``, so a
permission added here reaches the group on the next deployment.
"""

from __future__ import annotations

MODERATORS_GROUP = "Moderators"

# ``app_label.codename``. Moderators look at players, games and mail, and act through the
# audited admin actions; they do not edit rows, grant staff or change groups.
MODERATOR_PERMISSIONS: tuple[str, ...] = (
    # users: look, suspend, reactivate, revoke their API tokens
    "auth.view_user",
    "accounts.view_profile",
    "accounts.suspend_user",
    "accounts.reactivate_user",
    "accounts.view_apitoken",
    "accounts.revoke_apitoken",
    # games: look, annul, adjudicate; messages: look, hide, and the reports about them
    "games.view_game",
    "games.view_move",
    "games.view_challenge",
    "games.annul_game",
    "games.adjudicate_game",
    "games.view_gamemessage",
    "games.hide_gamemessage",
    "games.view_messagereport",
    # the audit log of all of the above
    "moderation.view_auditentry",
)
