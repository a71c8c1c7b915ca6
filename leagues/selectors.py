"""League reads: lists, seasons, division tables with possible places, the history.

A division's table is its round robin's standings (points and the league's tie-breaks) with
each player's best and worst final place still possible (``tournaments`` computes both),
marked with the promotion and relegation places and whether a move is already decided.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from celtictext import and_join
from leagues import errors
from leagues.models import Division, League, Membership, Season
from leagues.placement import DivisionRules, Movement
from moderation.roles import organiser_or_staff_may
from tournaments import selectors as tournament_selectors
from tournaments.models import TournamentGame
from tournaments.standings import TiebreakValue

AnyUser = AbstractBaseUser | AnonymousUser

# The permissions of organisers (``services.ORGANISE_PERMISSION`` etc. are these).
ORGANISE = "leagues.organise_league"
MOVE_PLAYERS = "leagues.manage_league_players"


def _visible(user: AnyUser | None) -> Q:
    """Public leagues; private ones to their organiser and players (invited ones too, not
    those who declined or were removed), and to those who may act
    on every league or every event (its divisions are events): superusers, and active staff
    holding the move permission or one that shows them every tournament."""
    if user is None or not user.is_authenticated:
        return Q(public=True)
    if tournament_selectors.tournament_sees_every_event(user=user) or (
        user.is_active and user.is_staff and user.has_perm(MOVE_PLAYERS)
    ):
        return Q()
    theirs = (
        Membership.objects.filter(player=user)
        .exclude(status__in=[Membership.Status.DECLINED, Membership.Status.REMOVED])
        .values("season__league_id")
    )
    return Q(public=True) | Q(organiser=user) | Q(pk__in=theirs)


def league_list(*, user: AnyUser | None = None) -> QuerySet[League]:
    """Leagues ``user`` may see, by name."""
    return League.objects.filter(_visible(user)).select_related("organiser").distinct()


def league_get(*, league_id: int, user: AnyUser | None = None) -> League:
    league = league_list(user=user).filter(pk=league_id).first()
    if league is None:
        raise errors.LeagueNotFound(f"There is no league #{league_id}.")
    return league


def season_get(*, season_id: int, user: AnyUser | None = None) -> Season:
    season = (
        Season.objects.select_related("league", "league__organiser")
        .filter(pk=season_id, league__in=league_list(user=user))
        .first()
    )
    if season is None:
        raise errors.SeasonNotFound(f"There is no league season #{season_id}.")
    return season


def division_get(*, division_id: int, user: AnyUser | None = None) -> Division:
    division = (
        Division.objects.select_related("season__league", "tournament")
        .filter(pk=division_id, season__league__in=league_list(user=user))
        .first()
    )
    if division is None:
        raise errors.DivisionNotFound(f"There is no league division #{division_id}.")
    return division


def league_can_create(*, user: AnyUser | None) -> bool:
    """Holders of the league and the tournament organiser permissions (each division is a
    tournament its organiser runs)."""
    return bool(
        user is not None
        and user.is_active
        and user.has_perm(ORGANISE)
        and user.has_perm(tournament_selectors.ORGANISE)
    )


def league_creator_require(*, user: AnyUser | None) -> None:
    """``NotLeagueOrganiser`` unless ``league_can_create``."""
    if not league_can_create(user=user):
        raise errors.NotLeagueOrganiser(
            "You need the league and the tournament organiser permissions to create leagues "
            "(each division is a tournament you run); ask an administrator.",
            code="organiser_permission_required",
        )


def league_can_organise(
    *, league: League, user: AnyUser | None, permission: str = ORGANISE
) -> bool:
    """Whether ``user`` may change this league's rules (``ORGANISE``) or move its players
    (``MOVE_PLAYERS``), by the rule of every competition (``organiser_or_staff_may``): its
    organiser, a superuser, or staff holding ``permission`` for every league."""
    return organiser_or_staff_may(
        user=user, organiser_id=league.organiser_id, organise=ORGANISE, permission=permission
    )


def league_organiser_require(
    *, league: League, user: AnyUser | None, permission: str = ORGANISE
) -> None:
    """``NotLeagueOrganiser`` unless ``league_can_organise``."""
    if not league_can_organise(league=league, user=user, permission=permission):
        raise errors.NotLeagueOrganiser(
            f"Only the organiser of {league.name} (or an administrator) may do this."
        )


def league_seasons(*, league: League) -> QuerySet[Season]:
    return league.seasons.order_by("-number")


def season_current(*, league: League) -> Season | None:
    """The season being played, else the one taking registrations, else the latest."""
    seasons = league.seasons.order_by("-number")
    for status in (Season.Status.RUNNING, Season.Status.REGISTRATION):
        found = seasons.filter(status=status).first()
        if found is not None:
            return found
    return seasons.first()


# The memberships of a season's players (not invitations, cancellations or removals).
PLAYERS = (Membership.Status.REGISTERED, Membership.Status.PLAYING, Membership.Status.FINISHED)


def season_memberships(*, season: Season) -> QuerySet[Membership]:
    """Players registered, playing or finished, by registration."""
    return season.memberships.filter(status__in=PLAYERS).select_related(
        "player", "player__profile", "division"
    )


def season_invitations(*, season: Season) -> QuerySet[Membership]:
    """Invitations not answered yet, by when they were made."""
    return season.memberships.filter(status=Membership.Status.INVITED).select_related(
        "player", "player__profile"
    )


def invitations_of(*, user: AnyUser | None) -> QuerySet[Membership]:
    """``user``'s invitations still open: not answered, the season not started."""
    if user is None or not user.is_authenticated:
        return Membership.objects.none()
    return Membership.objects.filter(
        player=user,
        status=Membership.Status.INVITED,
        season__status__in=[Season.Status.PLANNED, Season.Status.REGISTRATION],
    ).select_related("season__league__organiser", "player")


def player_name(*, user: AbstractBaseUser) -> str:
    """The name a player shows (their display name, else the username)."""
    return tournament_selectors.player_name(user=user)


def season_membership_of(*, season: Season, user: AnyUser | None) -> Membership | None:
    if user is None or not user.is_authenticated:
        return None
    return season.memberships.filter(player=user).first()


def season_can_manage(*, season: Season, user: AnyUser | None) -> bool:
    """The league's organiser (holding the organiser permission), a superuser, or staff
    allowed to move players in every league: ``league_can_organise`` for moving players."""
    return league_can_organise(league=season.league, user=user, permission=MOVE_PLAYERS)


def league_rules(*, league: League) -> DivisionRules:
    """The league's division rules as the placement functions take them."""
    return DivisionRules(
        target_size=league.division_size,
        min_size=league.division_min_size,
        promotion=_movement(league.promotion_count, league.promotion_percent),
        relegation=_movement(league.relegation_count, league.relegation_percent),
        rookie_division=league.rookie_division,
    )


def _movement(count: int | None, percent: int | None) -> Movement:
    if count is not None:
        return Movement(count=count)
    return Movement(share=Fraction(percent or 0, 100))


# --- Division tables ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TableLine:
    """One player's line: place, points, tie-breaks, possible places and the move.

    ``zone`` is where the place stands now (``promotion``, ``relegation`` or empty): empty
    for everyone until the division has a result, and for a place shared across the zone's
    edge;
    ``decided`` is a move already certain whatever the games left (``promoted``,
    ``relegated``, ``stays``) or empty; ``outcome`` is the move once the season is over.
    """

    place: int
    name: str
    player: Any
    points: Fraction
    tiebreaks: dict[str, TiebreakValue]
    withdrawn: bool
    best: int | None
    worst: int | None
    zone: str
    decided: str
    outcome: str


@dataclass(frozen=True)
class DivisionTable:
    division: Division
    tiebreaks: tuple[str, ...]
    promoted: int
    relegated: int
    lines: list[TableLine] = field(default_factory=list)


def division_table(*, division: Division) -> DivisionTable:
    """The division's table as it stands (final once its round robin finished)."""
    standings, rows = tournament_selectors.tournament_standings_with_places(
        tournament=division.tournament
    )
    size = len(rows)
    bottom = (
        division.season.divisions.filter(rookie=False)
        .order_by("-tier")
        .values_list("tier", flat=True)
        .first()
        or division.tier
    )
    up, down = league_rules(league=division.season.league).movers(
        size,
        top=division.tier == 1 and not division.rookie,
        bottom=division.rookie or division.tier == bottom,
    )
    outcomes = dict(division.memberships.values_list("player_id", "outcome"))
    results = division.tournament.games.exclude(result=TournamentGame.Result.PENDING).exists()
    shared = Counter(row.rank for row in rows)
    lines = []
    for row in rows:
        places = row.places
        best, worst = (places.best, places.worst) if places is not None else (None, None)
        lines.append(
            TableLine(
                place=row.rank,
                name=row.name,
                player=row.player,
                points=row.points,
                tiebreaks=row.tiebreaks,
                withdrawn=row.withdrawn,
                best=best,
                worst=worst,
                zone=_zone(row.rank, shared[row.rank], size=size, up=up, down=down)
                if results
                else "",
                decided=_decided(best, worst, size=size, up=up, down=down),
                outcome=outcomes.get(row.player.pk if row.player else None, ""),
            )
        )
    return DivisionTable(
        division=division, tiebreaks=standings.tiebreaks, promoted=up, relegated=down, lines=lines
    )


def _zone(place: int, sharing: int, *, size: int, up: int, down: int) -> str:
    """The zone a place stands in now. A place ``sharing`` players share counts as the places
    from ``place`` to ``place + sharing - 1``: marked only when all of them are in the zone
    (a tie across the zone's edge does not yet say who is in)."""
    if place + sharing - 1 <= up:
        return "promotion"
    if place > size - down:
        return "relegation"
    return ""


def _decided(best: int | None, worst: int | None, *, size: int, up: int, down: int) -> str:
    """A move is decided when every place still possible gives it (ties counted against the
    player, so a decided promotion cannot be lost on tie-breaks)."""
    if best is None or worst is None:
        return ""
    if worst <= up:
        return "promoted"
    if best > size - down:
        return "relegated"
    if best > up and worst <= size - down:
        return "stays"
    return ""


def season_tables(*, season: Season) -> list[DivisionTable]:
    """Every division's table, top division first, rookie divisions last."""
    return [
        division_table(division=d)
        for d in season.divisions.select_related("tournament", "season__league").order_by(
            "rookie", "tier", "group"
        )
    ]


# --- History -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeasonWinners:
    season: Season
    winners: list[tuple[str, str, Any]]  # (division name, winner's name, winner or None)


@dataclass(frozen=True)
class PathStep:
    season_number: int
    division: str
    place: int | None
    outcome: str


@dataclass(frozen=True)
class PlayerPath:
    player: Any
    name: str
    steps: list[PathStep]


def league_history(*, league: League) -> tuple[list[SeasonWinners], list[PlayerPath]]:
    """Each season's division winners (newest first; players level after every tie-break
    share the division, all named), and each player's path through the tiers season by
    season (players by name)."""
    winners = []
    for season in league.seasons.order_by("-number").prefetch_related("divisions__tournament"):
        found = []
        for division in sorted(season.divisions.all(), key=lambda d: (d.rookie, d.tier, d.group)):
            players = [entry.player for entry in division.tournament.winners]
            names = [tournament_selectors.player_name(user=player) for player in players]
            found.append((division.name, and_join(names) or "—", players))
        if found:
            winners.append(SeasonWinners(season=season, winners=found))
    paths: dict[int, PlayerPath] = {}
    memberships = (
        Membership.objects.filter(season__league=league, division__isnull=False)
        .select_related("player", "division", "season")
        .order_by("season__number")
    )
    for member in memberships:
        assert member.division is not None
        path = paths.get(member.player_id)
        if path is None:
            name = tournament_selectors.player_name(user=member.player)
            path = paths[member.player_id] = PlayerPath(member.player, name, [])
        path.steps.append(
            PathStep(
                season_number=member.season.number,
                division=member.division.name,
                place=member.final_place,
                outcome=member.outcome,
            )
        )
    return winners, sorted(paths.values(), key=lambda p: p.name.lower())
