"""Rows for the leagues app: leagues, seasons, registrations, moves, division tables, and
the admin (read-only, with one action that does what the clock says for a season).

The world has no league: each cell builds one (and rolls it back). The opponent organises
it (holding the league and tournament organiser permissions); its season 1 is open for
registration and the player is registered. A second league, also the opponent's, is in
its first season with one division being played, for the division's table.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import Permission, User
from django.utils import timezone

from leagues import services
from leagues.models import Division, League, Membership, Season
from tests.accounts.factories import make_user
from tests.security.matrix import (
    NOBODY,
    OPPONENT,
    OUTSIDER,
    PLAYER,
    SUPERUSERS,
    AdminRow,
    ApiRow,
    delete_row,
    expect,
)
from tests.security.matrix.world import World

V1 = "/api/v1/leagues"
SEASON = f"{V1}/seasons/{{season_id}}"
LOGGED_IN = {"anonymous": 401}
# The league's organiser and superusers; anyone else logged in is refused.
ORGANISER_ONLY = expect(403, **LOGGED_IN, opponent=200, superuser=200)

LEAGUE = "Matrix League"
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
