"""Who plays a season besides those who register: the organiser's invitations (the way into
a private league), the invitee's answer, and the organiser adding or removing a player
before the season starts.

An invitation is a ``Membership`` with status ``invited``: it shows the invitee a private
league, and accepting it (or registering) makes it ``registered``. The organiser's three
writes are audited and need ``selectors.season_can_manage`` (the rule of every competition,
``moderation.roles.organiser_or_staff_may``). Every write locks the season row.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from leagues import audit, emails, errors, selectors
from leagues.models import Membership, Season
from leagues.services import season_locked, season_status_require
from moderation.services import audit_record

User = AbstractBaseUser

BEFORE_THE_START = (Season.Status.PLANNED, Season.Status.REGISTRATION)
# Memberships that hold a place in the season.
IN_THE_SEASON = (Membership.Status.REGISTERED, Membership.Status.PLAYING)


def user_by_username(*, username: str) -> User:
    """The user called ``username`` (any case), else ``UserNotFound``."""
    user = get_user_model().objects.filter(username__iexact=username.strip()).first()
    if user is None:
        raise errors.UserNotFound(f"There is no player called {username.strip()!r}.")
    return user


def _organiser_season(season_id: int, actor: User, *, doing: str) -> Season:
    season = season_locked(season_id)
    selectors.league_organiser_require(
        league=season.league, user=actor, permission=selectors.MOVE_PLAYERS
    )
    season_status_require(season, *BEFORE_THE_START, doing=doing)
    return season


def _joinable(season: Season, user: User, *, doing: str) -> Membership:
    """``user``'s membership to change (new if none); refused if they already play in the
    season or their account is suspended."""
    name = selectors.player_name(user=user)
    if not user.is_active:
        raise errors.InvalidLeagueSettings(
            f"You cannot {doing} {name}: the account is suspended.", code="account_suspended"
        )
    membership = season.memberships.filter(player=user).first()
    if membership is not None and membership.status in IN_THE_SEASON:
        raise errors.AlreadyRegistered(f"{name} is already registered for {season}.")
    return membership or Membership(season=season, player=user)


@transaction.atomic
def season_invite(*, season_id: int, actor: User, user: User) -> Membership:
    """The organiser invites ``user`` to the season (before it starts): the invitee sees
    the league, even a private one, and is emailed a link to accept or decline."""
    season = _organiser_season(season_id, actor, doing="invite a player")
    membership = _joinable(season, user, doing="invite")
    if membership.status == Membership.Status.INVITED and membership.pk is not None:
        name = selectors.player_name(user=user)
        raise errors.AlreadyRegistered(f"{name} is already invited to {season}.")
    membership.status = Membership.Status.INVITED
    membership.carried_over = False
    membership.save()
    audit_record(
        actor=actor, action=audit.LEAGUE_INVITE, target=membership, data={"season": season.pk}
    )
    emails.season_invitation(membership=membership, inviter=actor, added=False)
    return membership


@transaction.atomic
def season_player_add(*, season_id: int, actor: User, user: User) -> Membership:
    """The organiser registers ``user`` for the season directly (before it starts); the
    player is told by email and may cancel like anyone registered."""
    season = _organiser_season(season_id, actor, doing="add a player")
    membership = _joinable(season, user, doing="add")
    membership.status = Membership.Status.REGISTERED
    membership.carried_over = False
    membership.save()
    audit_record(
        actor=actor, action=audit.LEAGUE_ADD, target=membership, data={"season": season.pk}
    )
    emails.season_invitation(membership=membership, inviter=actor, added=True)
    return membership


@transaction.atomic
def season_player_remove(*, season_id: int, actor: User, user: User, reason: str) -> Membership:
    """The organiser removes a registered or invited player before the season starts, with
    a reason for the audit log; the player cannot register again unless added back."""
    season = _organiser_season(season_id, actor, doing="remove a player")
    reason = reason.strip()
    if not reason:
        raise errors.InvalidLeagueSettings(
            "A reason is required: say why, for the player and the audit log.",
            code="reason_required",
        )
    membership = season.memberships.filter(
        player=user, status__in=[Membership.Status.REGISTERED, Membership.Status.INVITED]
    ).first()
    if membership is None:
        raise errors.NotInSeason(
            f"{selectors.player_name(user=user)} is neither registered for nor invited to {season}."
        )
    audit_record(
        actor=actor,
        action=audit.LEAGUE_REMOVE,
        target=membership,
        reason=reason,
        data={"season": season.pk, "previous": membership.status},
    )
    membership.status = Membership.Status.REMOVED
    membership.save(update_fields=["status"])
    return membership


@transaction.atomic
def season_invitation_answer(*, season_id: int, user: User, accept: bool) -> Membership:
    """The invitee accepts (registered for the season) or declines (the invitation is gone,
    and with it a private league from their view) before the season starts."""
    season = season_locked(season_id)
    doing = "accept the invitation" if accept else "decline the invitation"
    season_status_require(season, *BEFORE_THE_START, doing=doing)
    membership = season.memberships.filter(player=user, status=Membership.Status.INVITED).first()
    if membership is None:
        raise errors.NotInvited(f"You have no invitation to {season} to answer.")
    membership.status = Membership.Status.REGISTERED if accept else Membership.Status.DECLINED
    membership.save(update_fields=["status"])
    return membership
