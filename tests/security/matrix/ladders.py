"""Rows for the ladders app: ladders, joining, leaving, challenges, removals, and the admin
(read-only, with an audited action to remove players).

The world has no ladder: each cell builds one (and rolls it back). The opponent organises
it (holding the ladder organiser permission) and is not on it; ``ladder_top`` holds place
1 and the player place 2, so the player may challenge ``ladder_top``.

``COMPETITION_ROWS``: removing the player, by the API, the ladder's page and the admin,
for the ladder's organiser with and without ``organise_ladder``, another organiser (not
staff) holding ``manage_ladder_players``, staff with and without it, a player of the ladder
(``ladder_top``), anonymous and a superuser: the rule of every competition.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Permission, User
from django.urls import reverse

from ladders import services
from ladders.models import Ladder, LadderChallenge, LadderEvent, LadderPlayer
from tests.accounts.factories import make_user
from tests.security.matrix import (
    ANONYMOUS,
    ARBITER,
    COMPETITION_ROLES,
    LAPSED_ORGANISER,
    NOBODY,
    OPPONENT,
    ORGANISER,
    OTHER_ORGANISER,
    PLAYER,
    STAFF,
    SUPERUSER,
    SUPERUSERS,
    AdminRow,
    ApiRow,
    CompetitionRow,
    delete_row,
    deleted,
    expect,
)
from tests.security.matrix.world import World

V1 = "/api/v1/ladders"
LADDER = f"{V1}/{{ladder_id}}"
LOGGED_IN = {"anonymous": 401}
NAME = "Matrix Ladder"
TOP = "ladder_top"


def ladder(world: World) -> Ladder:
    """The opponent's ladder, ``ladder_top`` then the player (built once per cell)."""
    found = Ladder.objects.filter(name=NAME).first()
    if found is None:
        organiser = world.users[OPPONENT]
        organiser.user_permissions.add(
            Permission.objects.get(codename="organise_ladder", content_type__app_label="ladders")
        )
        organiser = User.objects.get(pk=organiser.pk)  # fresh, so the permission cache is empty
        found = services.ladder_create(organiser=organiser, name=NAME)
        services.ladder_join(ladder_id=found.pk, user=make_user(TOP))
        services.ladder_join(ladder_id=found.pk, user=world.users[PLAYER])
    return found


def _ids(world: World) -> dict[str, Any]:
    return {"ladder_id": ladder(world).pk}


def _place(world: World) -> LadderPlayer:
    return ladder(world).players.get(player=world.users[PLAYER])


def _challenge(world: World) -> LadderChallenge:
    """The player's challenge to ``ladder_top``, being played."""
    found = ladder(world).challenges.first()
    if found is None:
        top = User.objects.get(username=TOP)
        found = services.ladder_challenge(
            ladder_id=ladder(world).pk, challenger=world.users[PLAYER], defender_id=top.pk
        )
    return found


def _event(world: World) -> LadderEvent:
    return ladder(world).events.order_by("pk").first()  # type: ignore[return-value]


API_ROWS = [
    ApiRow("GET", f"{V1}/", expect(200)),
    ApiRow(
        "POST",
        f"{V1}/",
        # Organisers only: the opponent holds the permission, superusers hold them all.
        expect(403, **LOGGED_IN, opponent=201, superuser=201),
        body={"name": "Another Ladder"},
        ids=_ids,  # builds the world's ladder, and so gives the opponent the permission
    ),
    ApiRow("GET", f"{LADDER}/", expect(200), ids=_ids),
    ApiRow("GET", f"{LADDER}/history/", expect(200), ids=_ids),
    ApiRow("POST", f"{LADDER}/join/", expect(201, **LOGGED_IN, player=409), ids=_ids),
    # Only the player is on the ladder: anyone else is told they are not.
    ApiRow("POST", f"{LADDER}/leave/", expect(409, **LOGGED_IN, player=204), ids=_ids),
    ApiRow(
        "POST",
        f"{LADDER}/challenges/",
        expect(409, **LOGGED_IN, player=201),
        body={"opponent": TOP},
        ids=_ids,
    ),
    ApiRow(
        "POST",
        f"{LADDER}/remove/",
        # The ladder's organiser and superusers (staff need ladders.manage_ladder_players).
        expect(403, **LOGGED_IN, opponent=200, superuser=200),
        body=lambda world: {"player": world.users[PLAYER].username, "reason": "Matrix"},
        ids=_ids,
    ),
]

ADMIN_ROWS = [
    # Only the superuser holds ladders.manage_ladder_players (or organises ladders) among
    # the roles that reach the admin. The reason comes with the action's form; without it
    # the first POST is refused and changes nothing.
    AdminRow(
        "ladders.ladderplayer",
        "remove",
        SUPERUSERS,
        _place,
        deleted,
        {"reason": "Matrix"},
        asks=False,
    ),
    # Ladders change through their services; the admin deletes nothing.
    delete_row("ladders.ladder", ladder, NOBODY),
    delete_row("ladders.ladderplayer", _place, NOBODY),
    delete_row("ladders.ladderchallenge", _challenge, NOBODY),
    delete_row("ladders.ladderevent", _event, NOBODY),
]


# --- The ladder's roles: who removes the player -------------------------------------------


def _grant(user: User, *codenames: str) -> User:
    for codename in codenames:
        user.user_permissions.add(
            Permission.objects.get(codename=codename, content_type__app_label="ladders")
        )
    return User.objects.get(pk=user.pk)  # fresh, so the permission cache is empty


def _actor(world: World, role: str) -> User | None:
    organiser = ladder(world).organiser
    if role == ANONYMOUS:
        return None
    if role == ORGANISER:
        return User.objects.get(pk=organiser.pk)
    if role == LAPSED_ORGANISER:
        organiser.user_permissions.clear()
        return User.objects.get(pk=organiser.pk)
    if role == OTHER_ORGANISER:
        rival = _grant(make_user("rival"), "organise_ladder", "manage_ladder_players")
        services.ladder_create(organiser=rival, name="Rival Ladder")
        return rival
    if role == ARBITER:
        arbiter = make_user("ladder_arbiter")
        arbiter.is_staff = True
        arbiter.save()
        return _grant(arbiter, "manage_ladder_players")
    if role == PLAYER:
        return User.objects.get(username=TOP)
    return world.users[role]  # STAFF, SUPERUSER


def _removed(world: World) -> bool:
    return not ladder(world).players.filter(player=world.users[PLAYER]).exists()


MAY_REMOVE = frozenset({ORGANISER, ARBITER, SUPERUSER})
NOT_STAFF = {
    ANONYMOUS: 302,
    PLAYER: 302,
    ORGANISER: 302,
    LAPSED_ORGANISER: 302,
    OTHER_ORGANISER: 302,
}
REASON = "Matrix"

COMPETITION_ROWS = [
    CompetitionRow(
        "ladder: remove a player (API)",
        "POST",
        lambda world: f"{V1}/{ladder(world).pk}/remove/",
        {
            ANONYMOUS: 401,
            PLAYER: 403,
            STAFF: 403,
            ORGANISER: 200,
            LAPSED_ORGANISER: 403,
            OTHER_ORGANISER: 403,
            ARBITER: 200,
            SUPERUSER: 200,
        },
        _actor,
        body=lambda world: {"player": world.users[PLAYER].username, "reason": REASON},
        api=True,
        changed=_removed,
        changes_for=MAY_REMOVE,
    ),
    CompetitionRow(
        "ladder: remove a player (the ladder's page)",
        "POST",  # back to the ladder's page (anonymous: to the login), refused or done
        lambda world: f"/ladders/{ladder(world).pk}/remove/",
        dict.fromkeys(COMPETITION_ROLES, 302),
        _actor,
        body=lambda world: {"player": world.users[PLAYER].pk, "reason": REASON},
        changed=_removed,
        changes_for=MAY_REMOVE,
    ),
    CompetitionRow(
        "ladder: the admin's list of places",
        "GET",  # the admin sends whoever is not staff to its login
        lambda world: reverse("admin:ladders_ladderplayer_changelist"),
        {**NOT_STAFF, STAFF: 403, ARBITER: 200, SUPERUSER: 200},
        _actor,
    ),
    CompetitionRow(
        "ladder: remove a player (the admin's action)",
        "POST",
        lambda world: reverse("admin:ladders_ladderplayer_changelist"),
        {**NOT_STAFF, STAFF: 403, ARBITER: 302, SUPERUSER: 302},
        _actor,
        body=lambda world: {
            "action": "remove",
            "_selected_action": [_place(world).pk],
            "reason": REASON,
        },
        changed=_removed,
        changes_for=frozenset({ARBITER, SUPERUSER}),
    ),
]
