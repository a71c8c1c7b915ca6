"""Rows for the leagues app: leagues, seasons, registrations, moves, division tables, and
the admin (read-only, with one action that does what the clock says for a season).

The world has no league: each cell builds one (and rolls it back). The opponent organises
it (holding the league and tournament organiser permissions); its season 1 is open for
registration and the player is registered. A second league, also the opponent's, is in
its first season with one division being played, for the division's table. A third, the
opponent's private league, takes registrations: the outsider is invited and the player was
added by the organiser (the rows of invitations, and of adding and removing players).

``COMPETITION_ROWS``: inviting, adding and removing a player of the private league, by the
API and the season's page, for its organiser with and without ``organise_league``, another
organiser (not staff) holding ``manage_league_players``, staff with and without it, a
player of the league, anonymous and a superuser: the rule of every competition.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import Permission, User
from django.utils import timezone

from leagues import invitations, services
from leagues.models import Division, League, Membership, Season
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
    OUTSIDER,
    PLAYER,
    STAFF,
    SUPERUSER,
    SUPERUSERS,
    AdminRow,
    ApiRow,
    CompetitionRow,
    delete_row,
    expect,
)
from tests.security.matrix.world import World

V1 = "/api/v1/leagues"
SEASON = f"{V1}/seasons/{{season_id}}"
LOGGED_IN = {"anonymous": 401}
# The league's organiser and superusers; anyone else logged in is refused.
ORGANISER_ONLY = expect(403, **LOGGED_IN, opponent=200, superuser=200)
# A private league's organiser and superusers; its players are refused, others find nothing.
PRIVATE_ORGANISER_ONLY_CREATES = expect(
    404, **LOGGED_IN, player=403, outsider=403, opponent=201, superuser=201
)

LEAGUE = "Matrix League"
PRIVATE = "Matrix Private League"
GUEST = "league_guest"
RUNNING = "Matrix Running League"
DUE = "Matrix Due League"


def _organiser(world: World) -> User:
    """The opponent, holding the permissions a league's organiser needs."""
    user = world.users[OPPONENT]
    for app_label, codename in (
        ("leagues", "organise_league"),
        ("tournaments", "organise_tournament"),
    ):
        user.user_permissions.add(
            Permission.objects.get(codename=codename, content_type__app_label=app_label)
        )
    return User.objects.get(pk=user.pk)  # fresh, so the permission cache is empty


def _league_create(world: World, name: str, *, opens_days_ago: int) -> League:
    return services.league_create(
        organiser=_organiser(world),
        name=name,
        first_registration_opens_at=timezone.now() - timedelta(days=opens_days_ago),
    )


def league(world: World) -> League:
    """The league in registration, the player registered (built once per cell)."""
    found = League.objects.filter(name=LEAGUE).first()
    if found is None:
        found = _league_create(world, LEAGUE, opens_days_ago=1)
        services.season_register(season_id=found.seasons.get().pk, user=world.users[PLAYER])
    return found


def season(world: World) -> Season:
    return league(world).seasons.get()


def division(world: World) -> Division:
    """The one division of a league whose first season has started (built once per cell)."""
    found = Division.objects.filter(season__league__name=RUNNING).first()
    if found is None:
        running = _league_create(world, RUNNING, opens_days_ago=15)  # starts after 14 days
        first = running.seasons.get()
        players = [world.users[PLAYER], world.users[OPPONENT], world.users[OUTSIDER]]
        for user in [*players, make_user("league_fourth")]:
            services.season_register(season_id=first.pk, user=user)
        services.season_advance(season_id=first.pk)
        found = Division.objects.get(season=first)
    return found


def private_season(world: World) -> Season:
    """The opponent's private league in registration: the outsider invited, the player
    added by the organiser, ``league_guest`` a user with nothing to do with it."""
    found = Season.objects.filter(league__name=PRIVATE).first()
    if found is None:
        organiser = _organiser(world)
        found = services.league_create(
            organiser=organiser,
            name=PRIVATE,
            first_registration_opens_at=timezone.now() - timedelta(days=1),
            public=False,
        ).seasons.get()
        invitations.season_invite(season_id=found.pk, actor=organiser, user=world.users[OUTSIDER])
        invitations.season_player_add(season_id=found.pk, actor=organiser, user=world.users[PLAYER])
        make_user(GUEST)
    return found


def _private_ids(world: World) -> dict[str, Any]:
    return {"season_id": private_season(world).pk}


def _due_season(world: World) -> Season:
    """A season whose registration should have opened: the admin action opens it."""
    due = _league_create(world, DUE, opens_days_ago=-30).seasons.get()  # opens in 30 days
    Season.objects.filter(pk=due.pk).update(registration_opens_at=timezone.now())
    return Season.objects.get(pk=due.pk)


def _ids(world: World) -> dict[str, Any]:
    return {"league_id": league(world).pk, "season_id": season(world).pk}


API_ROWS = [
    ApiRow("GET", f"{V1}/", expect(200)),
    ApiRow(
        "POST",
        f"{V1}/",
        # Organisers only: the opponent holds the permissions, superusers hold them all.
        expect(403, **LOGGED_IN, opponent=201, superuser=201),
        body=lambda world: {
            "name": "Another League",
            # Season 1 opens within a year (a later or past date is refused: docs/LEAGUES.md).
            "first_registration_opens_at": (timezone.now() + timedelta(days=30)).isoformat(),
        },
        ids=_ids,  # builds the world's league, and so gives the opponent the permissions
    ),
    ApiRow("GET", f"{V1}/{{league_id}}/", expect(200), ids=_ids),
    ApiRow(
        "PATCH",
        f"{V1}/{{league_id}}/",
        ORGANISER_ONLY,
        body={"description": "Tuesdays at the club"},
        ids=_ids,
    ),
    ApiRow("GET", f"{V1}/{{league_id}}/history/", expect(200), ids=_ids),
    ApiRow("GET", f"{SEASON}/", expect(200), ids=_ids),
    ApiRow(
        "POST",
        f"{SEASON}/register/",
        expect(201, **LOGGED_IN, player=409),  # the player already is
        body={},
        ids=_ids,
    ),
    # Only the player is registered: anyone else is told they are not.
    ApiRow(
        "POST", f"{SEASON}/cancel-registration/", expect(409, **LOGGED_IN, player=200), ids=_ids
    ),
    ApiRow(
        "POST",
        f"{SEASON}/carry-over/",
        expect(409, **LOGGED_IN, player=200),
        body={"carry_over": False},
        ids=_ids,
    ),
    ApiRow(
        "POST",
        f"{SEASON}/move/",
        ORGANISER_ONLY,
        body=lambda world: {"player_id": world.users[PLAYER].pk, "tier": 2, "reason": "Matrix"},
        ids=_ids,
    ),
    # The private league: the organiser (opponent) and superusers invite, add and remove; its
    # players (the player added, the outsider invited) are refused; those who do not see it
    # (staff and moderators without a leagues or tournaments permission) find nothing.
    ApiRow(
        "POST",
        f"{SEASON}/invite/",
        PRIVATE_ORGANISER_ONLY_CREATES,
        body={"username": GUEST},
        ids=_private_ids,
    ),
    ApiRow(
        "POST",
        f"{SEASON}/add-player/",
        PRIVATE_ORGANISER_ONLY_CREATES,
        body={"username": GUEST},
        ids=_private_ids,
    ),
    ApiRow(
        "POST",
        f"{SEASON}/remove-player/",
        expect(404, **LOGGED_IN, player=403, outsider=403, opponent=200, superuser=200),
        body=lambda world: {"username": world.users[PLAYER].username, "reason": "Matrix"},
        ids=_private_ids,
    ),
    # Only the outsider holds an invitation; the others who see the league have none.
    ApiRow(
        "POST",
        f"{SEASON}/accept-invitation/",
        expect(404, **LOGGED_IN, outsider=200, player=409, opponent=409, superuser=409),
        ids=_private_ids,
    ),
    ApiRow(
        "POST",
        f"{SEASON}/decline-invitation/",
        expect(404, **LOGGED_IN, outsider=200, player=409, opponent=409, superuser=409),
        ids=_private_ids,
    ),
    ApiRow("GET", f"{V1}/invitations/", expect(200, **LOGGED_IN), ids=_private_ids),
    ApiRow(
        "GET",
        f"{V1}/divisions/{{division_id}}/",
        expect(200),
        ids=lambda world: {"division_id": division(world).pk},
    ),
]


def _membership(world: World) -> Membership:
    return season(world).memberships.get(player=world.users[PLAYER])


ADMIN_ROWS = [
    # Only the superuser sees seasons in the admin (staff hold no leagues permission).
    AdminRow(
        "leagues.season",
        "advance",
        SUPERUSERS,
        _due_season,
        lambda due: due.status == Season.Status.REGISTRATION,
        asks=False,
    ),
    # Leagues change through their services; the admin deletes nothing.
    delete_row("leagues.league", league, NOBODY),
    delete_row("leagues.season", season, NOBODY),
    delete_row("leagues.division", division, NOBODY),
    delete_row("leagues.membership", _membership, NOBODY),
]


# --- The private league's roles: who invites, adds and removes players -------------------------


def _grant(user: User, *codenames: str) -> User:
    for codename in codenames:
        user.user_permissions.add(
            Permission.objects.get(codename=codename, content_type__app_label="leagues")
        )
    return User.objects.get(pk=user.pk)  # fresh, so the permission cache is empty


def _actor(world: World, role: str) -> User | None:
    organiser = private_season(world).league.organiser
    if role == ANONYMOUS:
        return None
    if role == ORGANISER:
        return User.objects.get(pk=organiser.pk)
    if role == LAPSED_ORGANISER:
        organiser.user_permissions.clear()
        return User.objects.get(pk=organiser.pk)
    if role == OTHER_ORGANISER:  # not staff: sees only the leagues they organise or play in
        rival = _grant(make_user("league_rival"), "organise_league", "manage_league_players")
        return rival
    if role == ARBITER:
        arbiter = make_user("league_arbiter")
        arbiter.is_staff = True
        arbiter.save()
        return _grant(arbiter, "manage_league_players")
    return world.users[role]  # PLAYER (added to the season), STAFF, SUPERUSER


def _status_of(world: World, username: str) -> str | None:
    found = private_season(world).memberships.filter(player__username=username).first()
    return found.status if found is not None else None


MAY_MANAGE = frozenset({ORGANISER, ARBITER, SUPERUSER})
# A private league is a 404 to those who do not see it: staff without a leagues or
# tournaments permission, and another organiser (not staff) who has no part in it.
HIDDEN = {STAFF: 404, OTHER_ORGANISER: 404}
API_STATUSES = {ANONYMOUS: 401, PLAYER: 403, LAPSED_ORGANISER: 403, **HIDDEN}
PAGE_STATUSES = {**dict.fromkeys(COMPETITION_ROLES, 302), **HIDDEN}  # back to the page


def _player_rows(action: str, api_path: str, body: Any, changed: Any, created: int) -> list:
    return [
        CompetitionRow(
            f"private league: {action} (API)",
            "POST",
            lambda world: f"{V1}/seasons/{private_season(world).pk}/{api_path}/",
            {**API_STATUSES, ORGANISER: created, ARBITER: created, SUPERUSER: created},
            _actor,
            body=body,
            api=True,
            changed=changed,
            changes_for=MAY_MANAGE,
        ),
        CompetitionRow(
            f"private league: {action} (the season's page)",
            "POST",
            lambda world: f"/leagues/seasons/{private_season(world).pk}/players/{action}/",
            PAGE_STATUSES,
            _actor,
            body=body,
            changed=changed,
            changes_for=MAY_MANAGE,
        ),
    ]


COMPETITION_ROWS = [
    *_player_rows(
        "invite",
        "invite",
        {"username": GUEST},
        lambda world: _status_of(world, GUEST) == Membership.Status.INVITED,
        201,
    ),
    *_player_rows(
        "add",
        "add-player",
        {"username": GUEST},
        lambda world: _status_of(world, GUEST) == Membership.Status.REGISTERED,
        201,
    ),
    *_player_rows(
        "remove",
        "remove-player",
        lambda world: {"username": world.users[PLAYER].username, "reason": "Matrix"},
        lambda world: _status_of(world, world.users[PLAYER].username) == Membership.Status.REMOVED,
        200,
    ),
]
