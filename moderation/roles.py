"""Roles: the moderators group (who moderates, with which permissions) and the one rule for
who runs a competition, each defined in one place.

``moderators_group_sync()`` (moderation.services) makes the group hold exactly
``MODERATOR_PERMISSIONS``; it runs after every ``migrate`` and from ``seed_demo``, so a
permission added here reaches the group on the next deployment.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

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
    # mail: read the outbox (what was sent to whom, and why a send failed), not change it
    "notifications.view_outboxemail",
    # the audit log of all of the above
    "moderation.view_auditentry",
)


def organiser_or_staff_may(
    *,
    user: AbstractBaseUser | AnonymousUser | None,
    organiser_id: int | None,
    organise: str,
    permission: str,
) -> bool:
    """The one rule for running a competition (a tournament, a league, a ladder): its
    organiser while they hold ``organise``, a superuser, or staff holding ``permission`` for
    every competition of its kind. Never ``organise`` alone: it lets a user run their own
    competitions only, and a non-staff holder of ``permission`` runs nobody else's."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    if user.pk == organiser_id:
        return user.has_perm(organise)
    return permission != organise and user.is_staff and user.has_perm(permission)
