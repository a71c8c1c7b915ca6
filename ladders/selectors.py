"""Ladder reads: the list of ladders, a ladder's places (with whom each may challenge), its
challenges and its history."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Q, QuerySet

from ladders.errors import NotLadderOrganiser, PlayerNotFound
from ladders.models import Ladder, LadderChallenge, LadderEvent, LadderPlayer
from moderation.roles import organiser_or_staff_may

AnyUser = AbstractBaseUser | AnonymousUser

# The permission of organisers (``services.ORGANISE_PERMISSION`` is this one), and the one
# that lets staff remove players from every ladder (``services.MANAGE_PERMISSION``).
ORGANISE = "ladders.organise_ladder"
MANAGE_PLAYERS = "ladders.manage_ladder_players"


def ladder_list() -> QuerySet[Ladder]:
    """Every ladder with its number of players, by name."""
    return (
        Ladder.objects.select_related("organiser")
        .annotate(player_count=Count("players"))
        .order_by("name")
    )


def ladder_get(*, ladder_id: int) -> Ladder | None:
    return ladder_list().filter(pk=ladder_id).first()


def ladder_can_create(*, user: AnyUser | None) -> bool:
    """Active holders of the ladder organiser permission."""
    return bool(user is not None and user.is_active and user.has_perm(ORGANISE))


def ladder_creator_require(*, user: AnyUser | None) -> None:
    """``NotLadderOrganiser`` unless ``ladder_can_create``."""
    if not ladder_can_create(user=user):
        raise NotLadderOrganiser(
            "You need the ladder organiser permission to create ladders; ask an administrator.",
            code="organiser_permission_required",
        )


def ladder_can_manage(*, ladder: Ladder, user: AnyUser | None) -> bool:
    """Whether ``user`` may remove players from this ladder, by the rule of every competition
    (``organiser_or_staff_may``): its organiser while they hold ``ORGANISE``, a superuser, or
    staff holding ``MANAGE_PLAYERS``."""
    return organiser_or_staff_may(
        user=user, organiser_id=ladder.organiser_id, organise=ORGANISE, permission=MANAGE_PLAYERS
    )


def ladder_manager_require(*, ladder: Ladder, user: AnyUser | None) -> None:
    """``NotLadderOrganiser`` unless ``ladder_can_manage``: the one check the service (and so
    the API and the admin) applies, and the pages ask before offering the action."""
    if not ladder_can_manage(ladder=ladder, user=user):
        raise NotLadderOrganiser(
            f"Only the organiser of {ladder.name} (or an administrator) may remove players."
        )


@dataclass(frozen=True)
class Place:
    """One line of a ladder: who is there, and whether the viewer may challenge them."""

    place: int
    player_id: int
    name: str  # the username (the API's ``username``); pages show ``player|player_link``
    player: AbstractBaseUser
    joined_at: datetime
    last_active_at: datetime
    playing: bool
    challengeable: bool


def ladder_places(*, ladder: Ladder, viewer_id: int | None = None) -> list[Place]:
    """The ladder top first. ``challengeable`` marks the places within the viewer's range
    above them (the other limits are checked when they challenge)."""
    rows = list(
        LadderPlayer.objects.filter(ladder=ladder)
        .select_related("player", "player__profile")
        .order_by("place")
    )
    playing: set[int] = set()
    for pair in ladder.challenges.filter(status=LadderChallenge.Status.PLAYING).values_list(
        "challenger_id", "defender_id"
    ):
        playing.update(pair)
    mine = next((r.place for r in rows if r.player_id == viewer_id), None)
    return [
        Place(
            place=r.place,
            player_id=r.player_id,
            name=r.player.get_username(),
            player=r.player,
            joined_at=r.joined_at,
            last_active_at=r.last_active_at,
            playing=r.player_id in playing,
            challengeable=mine is not None and mine - ladder.challenge_range <= r.place < mine,
        )
        for r in rows
    ]


def ladder_challenges(*, ladder: Ladder, open_only: bool = False) -> QuerySet[LadderChallenge]:
    found = ladder.challenges.select_related("challenger", "defender", "winner", "game")
    return found.filter(status=LadderChallenge.Status.PLAYING) if open_only else found


@dataclass(frozen=True)
class PlayingChallenge:
    """A challenge being played, with each player's place now (a drop on time or another
    result since the challenge was made may have moved them; None: left the ladder)."""

    challenge: LadderChallenge
    challenger_place: int | None
    defender_place: int | None


def ladder_challenges_playing(*, ladder: Ladder) -> list[PlayingChallenge]:
    """The challenges being played, oldest first, with the players' current places."""
    places = dict(LadderPlayer.objects.filter(ladder=ladder).values_list("player_id", "place"))
    return [
        PlayingChallenge(
            challenge=c,
            challenger_place=places.get(c.challenger_id),
            defender_place=places.get(c.defender_id),
        )
        for c in ladder_challenges(ladder=ladder, open_only=True).order_by("created_at", "pk")
    ]


def ladder_history(*, ladder: Ladder, player_id: int | None = None) -> QuerySet[LadderEvent]:
    """The ladder's events, newest first (``player_id``: those about that player)."""
    events = ladder.events.select_related("player", "opponent", "challenge")
    if player_id is not None:
        events = events.filter(Q(player_id=player_id) | Q(opponent_id=player_id))
    return events


def player_id_by_username(*, username: str) -> int:
    """The id of the user called ``username`` (case-insensitive), or PlayerNotFound."""
    found = (
        get_user_model()
        .objects.filter(username__iexact=username.strip())
        .values_list("pk", flat=True)
        .first()
    )
    if found is None:
        raise PlayerNotFound(f"There is no player called {username!r}.")
    return found
