"""League writes: create a league, register for a season, start it, move a player, end it.

A season's divisions are round robins of the tournaments app, created and started through
``tournaments.services``; their games, withdrawals, adjudications and final standings are
the tournaments'. Placement and promotion are the pure functions of ``leagues.placement``.
Every write runs in ``transaction.atomic()`` with the season row locked; the beat's
``leagues_advance`` is safe to run any number of times.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from celticsite.errors import DomainError
from games.clock import TimeControl
from games.kinds.pairs import kind_problem
from leagues import audit, emails, errors, selectors
from leagues.models import Division, League, Membership, Season
from leagues.placement import (
    FinalTable,
    How,
    Newcomer,
    Returning,
    Seat,
    season_moves,
    season_placement,
)
from moderation.services import audit_record
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import Entry, Tournament
from tournaments.standings import EDITIONS

User = AbstractBaseUser
logger = logging.getLogger(__name__)

ORGANISE_PERMISSION = selectors.ORGANISE
MOVE_PERMISSION = selectors.MOVE_PLAYERS

# The rules an organiser chooses; ``league_create`` takes them.
RULE_FIELDS: tuple[str, ...] = (
    "description",
    "kind",
    "division_size",
    "division_min_size",
    "promotion_count",
    "promotion_percent",
    "relegation_count",
    "relegation_percent",
    "rookie_division",
    "tiebreaks",
    "tiebreak_edition",
    "withdrawal_policy",
    "rated",
    "public",
    "season_days",
    "registration_days",
)

# The range of each numeric rule: (lowest, highest, unit). A division is a round robin with
# all its games at once, so 30 players already means 29 games each at the same time; a
# season or its registration beyond these would keep players waiting a year or more.
RULE_LIMITS: dict[str, tuple[int, int, str]] = {
    "division_size": (3, 30, "players"),
    "division_min_size": (3, 30, "players"),
    "promotion_percent": (0, 49, "percent of the division"),
    "relegation_percent": (0, 49, "percent of the division"),
    "season_days": (7, 365, "days"),
    "registration_days": (1, 90, "days"),
}


# The deepest division an organiser may place a player in (a lower one means the bottom).
MAX_TIER = 100


def rule_limit_problem(field: str, value: int | None) -> str | None:
    """What is wrong with ``value`` for the numeric rule ``field`` (None: within range)."""
    low, high, unit = RULE_LIMITS[field]
    if value is None or low <= value <= high:
        return None
    return f"From {low} to {high} {unit}, not {value}."


# How far from now an organiser may set season 1's opening: a time within the last day
# counts as now (it opens at once); further back, registration would be over before anyone
# saw it and the season would cancel itself. Ahead, a year (a later date also overflowed).
FIRST_OPENING_GRACE = timedelta(days=1)
FIRST_OPENING_AHEAD = timedelta(days=366)


def first_opening_refusal(*, opens_at: datetime, now: datetime) -> str | None:
    """What is wrong with season 1's opening time as an organiser gives it (None: fine)."""
    earliest, latest = now - FIRST_OPENING_GRACE, now + FIRST_OPENING_AHEAD
    expected = (
        f"expected a time from {_shown(earliest)} (a time within the last day opens "
        f"registration at once) to {_shown(latest)}, at most {FIRST_OPENING_AHEAD.days} "
        "days ahead"
    )
    if opens_at > latest:
        return f"{_shown(opens_at)} is too far ahead: {expected}."
    if opens_at < earliest:
        return f"{_shown(opens_at)} is in the past: {expected}."
    return None


def _shown(moment: datetime) -> str:
    """In the zone of the request (the player's on a page, UTC in the API)."""
    return f"{timezone.localtime(moment):%Y-%m-%d %H:%M %Z}"


# --- Loading and permissions ----------------------------------------------------------------


def season_locked(season_id: int) -> Season:
    """The season, its row locked for the transaction; ``SeasonNotFound`` if none."""
    try:
        return Season.objects.select_for_update().select_related("league").get(pk=season_id)
    except Season.DoesNotExist:
        raise errors.SeasonNotFound(f"There is no league season #{season_id}.") from None


# How a sentence says where a season stands ("season 2 is ...").
SEASON_STATES = {
    Season.Status.PLANNED: "not open for registration yet",
    Season.Status.REGISTRATION: "open for registration",
    Season.Status.RUNNING: "under way",
    Season.Status.FINISHED: "over",
    Season.Status.CANCELLED: "cancelled",
}


def season_status_require(season: Season, *allowed: str, doing: str) -> None:
    """``WrongSeasonStatus`` (saying where the season stands) unless in ``allowed``."""
    if season.status not in allowed:
        before_start = {Season.Status.PLANNED, Season.Status.REGISTRATION}
        when = (
            "before the season starts"
            if set(allowed) == before_start
            else "while the season is "
            + " or ".join(SEASON_STATES[Season.Status(s)] for s in allowed)
        )
        raise errors.WrongSeasonStatus(
            f"You cannot {doing} now: {season} is {SEASON_STATES[Season.Status(season.status)]}. "
            f"That is possible only {when}."
        )


# --- Create ------------------------------------------------------------------------------------


@transaction.atomic
def league_create(
    *,
    organiser: User,
    name: str,
    first_registration_opens_at: datetime,
    time_control: TimeControl | None = None,
    now: datetime | None = None,
    **rules: Any,
) -> League:
    """A new league (rules: ``RULE_FIELDS``) and its first season, whose registration opens
    at ``first_registration_opens_at`` (at once if that has come). Every rule is checked
    together; ``InvalidLeagueSettings.extra['errors']`` names each bad one."""
    now = now or timezone.now()
    selectors.league_creator_require(user=organiser)
    unknown = sorted(set(rules) - set(RULE_FIELDS))
    if unknown:
        raise errors.InvalidLeagueSettings(
            f"Unknown rule(s): {', '.join(unknown)}. Known: {', '.join(RULE_FIELDS)}.",
            code="unknown_setting",
        )
    league = League(organiser=organiser, name=name.strip(), **rules)
    if league.promotion_count is None and league.promotion_percent is None:
        league.promotion_count = 2
    if league.relegation_count is None and league.relegation_percent is None:
        league.relegation_count = 2
    if time_control is not None:
        for field, value in League.time_control_columns(time_control).items():
            setattr(league, field, value)
    _validate(league)
    _first_opening_validate(first_registration_opens_at, now=now)
    league.save()
    _season_create(league, number=1, registration_opens_at=first_registration_opens_at, now=now)
    return league


@transaction.atomic
def league_update(
    *, league_id: int, actor: User, time_control: TimeControl | None = None, **changes: Any
) -> League:
    """Change a league's name or rules (``RULE_FIELDS``); a season already started keeps
    the divisions and games it has, the next start uses the new rules."""
    league = League.objects.select_for_update().filter(pk=league_id).first()
    if league is None:
        raise errors.LeagueNotFound(f"There is no league #{league_id}.")
    selectors.league_organiser_require(league=league, user=actor)
    unknown = sorted(set(changes) - {"name", *RULE_FIELDS})
    if unknown:
        raise errors.InvalidLeagueSettings(
            f"Unknown rule(s): {', '.join(unknown)}. Known: name, {', '.join(RULE_FIELDS)}.",
            code="unknown_setting",
        )
    for field, value in changes.items():
        setattr(league, field, value.strip() if field == "name" else value)
    if time_control is not None:
        for field, value in League.time_control_columns(time_control).items():
            setattr(league, field, value)
    _validate(league)
    league.save()
    return league


def _validate(league: League) -> None:
    problems: dict[str, str] = {}
    if not league.name:
        problems["name"] = "A name is required."
    elif League.objects.filter(name__iexact=league.name).exclude(pk=league.pk).exists():
        problems["name"] = f"There is already a league called {league.name!r}."
    for field in RULE_LIMITS:
        problem = rule_limit_problem(field, getattr(league, field))
        if problem:
            problems[field] = problem
    if "division_size" not in problems and league.division_size < league.division_min_size:
        problems["division_size"] = (
            f"At least the smallest division ({league.division_min_size} players), "
            f"not {league.division_size}."
        )
    _movement_validate(league, problems)
    tiebreaks_problem = tournament_selectors.tiebreak_codes_problem(codes=league.tiebreaks)
    if tiebreaks_problem:
        problems["tiebreaks"] = tiebreaks_problem
    kind_refusal = kind_problem(league.kind)
    if kind_refusal:
        problems["kind"] = kind_refusal
    if league.tiebreak_edition not in EDITIONS:
        problems["tiebreak_edition"] = f"One of {', '.join(EDITIONS)} (FIDE C.07 editions)."
    if league.withdrawal_policy not in Tournament.WithdrawalPolicy.values:
        problems["withdrawal_policy"] = f"One of {', '.join(Tournament.WithdrawalPolicy.values)}."
    try:
        _ = league.time_control
    except ValueError as exc:
        problems["time_control"] = str(exc)
    if problems:
        summary = "; ".join(f"{field}: {text}" for field, text in problems.items())
        raise errors.InvalidLeagueSettings(f"Invalid rules: {summary}", errors=problems)


def _movement_validate(league: League, problems: dict[str, str]) -> None:
    """Promotion and relegation: a count or a percent, and a count at most half the
    smallest division (so that a division never sends everyone up or down)."""
    most = league.division_min_size // 2
    for kind in ("promotion", "relegation"):
        count, percent = getattr(league, f"{kind}_count"), getattr(league, f"{kind}_percent")
        if (count is None) == (percent is None):
            problems[f"{kind}_count"] = "Give either a count or a percent, not both."
        elif count is not None and not 0 <= count <= most:
            problems[f"{kind}_count"] = (
                f"From 0 to {most} players (half the smallest division), not {count}."
            )


def _first_opening_validate(opens_at: datetime, *, now: datetime) -> None:
    """Refuse an opening beyond ``FIRST_OPENING_AHEAD`` for every caller (the season's dates
    are computed from it). A past one is refused where an organiser gives it (the API and
    the page, ``first_opening_refusal``): demo data and the tests start leagues back then."""
    if opens_at > now + FIRST_OPENING_AHEAD:
        problem = first_opening_refusal(opens_at=opens_at, now=now)
        raise errors.InvalidLeagueSettings(
            f"Invalid rules: first_registration_opens_at: {problem}",
            errors={"first_registration_opens_at": problem},
        )


def _season_create(
    league: League, *, number: int, registration_opens_at: datetime, now: datetime
) -> Season:
    starts_at = registration_opens_at + timedelta(days=league.registration_days)
    season = Season.objects.create(
        league=league,
        number=number,
        registration_opens_at=registration_opens_at,
        starts_at=starts_at,
        ends_at=starts_at + timedelta(days=league.season_days),
    )
    _registration_open_if_due(season, now=now)
    return season


def _registration_open_if_due(season: Season, *, now: datetime) -> bool:
    if season.status != Season.Status.PLANNED or season.registration_opens_at > now:
        return False
    season.status = Season.Status.REGISTRATION
    season.save(update_fields=["status"])
    emails.season_open(
        season=season, players=_previous_players(season), registered=_registered_ids(season)
    )
    return True


def _previous_players(season: Season) -> list[Any]:
    """Everyone who played the season before (told that the next one is open)."""
    return [
        m.player
        for m in Membership.objects.filter(
            season__league=season.league,
            season__number=season.number - 1,
            status=Membership.Status.FINISHED,
        ).select_related("player")
    ]


def _registered_ids(season: Season) -> set[int]:
    return set(
        season.memberships.filter(status=Membership.Status.REGISTERED).values_list(
            "player_id", flat=True
        )
    )


# --- Registration ------------------------------------------------------------------------------


# A player with no membership, or one of these, may register (an invited one accepts so).
REGISTERABLE = (
    Membership.Status.CANCELLED,
    Membership.Status.INVITED,
    Membership.Status.DECLINED,
)


@transaction.atomic
def season_register(*, season_id: int, user: User, this_season_only: bool = False) -> Membership:
    """``user`` plays this season (accepting an invitation if they have one);
    ``this_season_only`` keeps them out of the next one."""
    season = season_locked(season_id)
    season_status_require(season, Season.Status.REGISTRATION, doing="register")
    membership = season.memberships.filter(player=user).first()
    if membership is not None and membership.status == Membership.Status.REMOVED:
        raise errors.RemovedFromSeason(
            f"The organiser removed you from {season}; ask them to add you again."
        )
    if membership is not None and membership.status not in REGISTERABLE:
        raise errors.AlreadyRegistered(f"You are already registered for {season}.")
    membership = membership or Membership(season=season, player=user)
    membership.status = Membership.Status.REGISTERED
    membership.this_season_only = this_season_only
    membership.save()
    return membership


@transaction.atomic
def season_registration_cancel(*, season_id: int, user: User) -> Membership:
    """``user`` will not play this season after all (until the season starts)."""
    season = season_locked(season_id)
    season_status_require(season, Season.Status.REGISTRATION, doing="cancel a registration")
    membership = _membership_of(season, user, Membership.Status.REGISTERED)
    membership.status = Membership.Status.CANCELLED
    membership.save(update_fields=["status"])
    return membership


@transaction.atomic
def season_carry_over_set(*, season_id: int, user: User, carry_over: bool) -> Membership:
    """Whether ``user`` is carried into the next season (False: this season only)."""
    season = season_locked(season_id)
    season_status_require(
        season,
        Season.Status.REGISTRATION,
        Season.Status.RUNNING,
        doing="change whether you play next season",
    )
    membership = _membership_of(
        season, user, Membership.Status.REGISTERED, Membership.Status.PLAYING
    )
    membership.this_season_only = not carry_over
    membership.save(update_fields=["this_season_only"])
    return membership


def _membership_of(season: Season, user: User, *statuses: str) -> Membership:
    membership = season.memberships.filter(player=user, status__in=statuses).first()
    if membership is None:
        raise errors.NotInSeason(f"You are not registered for {season}.")
    return membership


@transaction.atomic
def season_player_move(
    *, season_id: int, actor: User, player_id: int, tier: int | None, reason: str
) -> Membership:
    """The organiser places a registered player in ``tier`` (None: as the rules say) before
    the season starts. Audited with the reason."""
    season = season_locked(season_id)
    selectors.league_organiser_require(league=season.league, user=actor, permission=MOVE_PERMISSION)
    season_status_require(
        season, Season.Status.PLANNED, Season.Status.REGISTRATION, doing="move a player"
    )
    reason = reason.strip()
    if not reason:
        raise errors.InvalidLeagueSettings(
            "A reason is required: say why, for the player and the audit log.",
            code="reason_required",
        )
    if tier is not None and not 1 <= tier <= MAX_TIER:
        raise errors.InvalidLeagueSettings(
            f"The division must be from 1 (the top one) to {MAX_TIER}, not {tier}.",
            code="invalid_tier",
        )
    membership = season.memberships.filter(
        player_id=player_id, status=Membership.Status.REGISTERED
    ).first()
    if membership is None:
        raise errors.NotInSeason(f"Player #{player_id} is not registered for {season}.")
    audit_record(
        actor=actor,
        action=audit.LEAGUE_MOVE,
        target=membership,
        reason=reason,
        data={"season": season.pk, "previous": membership.tier_requested, "tier": tier},
    )
    membership.tier_requested = tier
    membership.save(update_fields=["tier_requested"])
    return membership


# --- Season start ------------------------------------------------------------------------------


def _season_start(season: Season, *, now: datetime) -> None:
    """Place the registered players and start each division's round robin."""
    league = season.league
    members = list(
        season.memberships.filter(status=Membership.Status.REGISTERED).select_related("player")
    )
    divisions = _placement(season, members)
    if not divisions:
        season.status = Season.Status.CANCELLED
        season.status_note = f"Too few players registered ({len(members)}) to make a division."
        season.finished_at = now
        season.save(update_fields=["status", "status_note", "finished_at"])
        _season_retry(season, members, now=now)
        return
    by_player = {m.player_id: m for m in members}
    season.status = Season.Status.RUNNING
    season.started_at = now
    season.save(update_fields=["status", "started_at"])
    for seats in divisions:
        first = seats[0]
        group = 1 + season.divisions.filter(rookie=True).count() if first.rookie else 1
        division = Division(season=season, tier=first.tier, group=group, rookie=first.rookie)
        division.tournament = tournament_services.tournament_round_robin_start_with(
            organiser=league.organiser,
            name=f"{league.name} · season {season.number} · {division.name}",
            players=[by_player[seat.player_id].player for seat in seats],
            time_control=league.time_control,
            now=now,
            description=f"{division.name} of {league.name}, season {season.number}.",
            kind=league.kind,
            rated=league.rated,
            public=league.public,
            tiebreaks=list(league.tiebreaks),
            tiebreak_edition=league.tiebreak_edition,
            withdrawal_policy=league.withdrawal_policy,
            ends_at=season.ends_at,
        )
        division.save()
        for seat in seats:
            member = by_player[seat.player_id]
            member.division = division
            member.placed_how = seat.how.value
            member.status = Membership.Status.PLAYING
        Membership.objects.bulk_update(
            [by_player[s.player_id] for s in seats], ["division", "placed_how", "status"]
        )
        emails.division_placed(division=division)


def _season_retry(season: Season, members: list[Membership], *, now: datetime) -> None:
    """After a season too small to play, the next one opens at once with the players who
    registered (unless they chose this season only); with nobody registered the league
    rests (no next season)."""
    keep = [m for m in members if not m.this_season_only]
    if not keep:
        return
    following = _season_create(
        season.league, number=season.number + 1, registration_opens_at=now, now=now
    )
    Membership.objects.bulk_create(
        Membership(season=following, player_id=m.player_id, carried_over=True) for m in keep
    )


def _placement(season: Season, members: list[Membership]) -> list[list[Seat]]:
    """The divisions of the season: the rules' placement, then the organiser's moves."""
    earlier = {
        m.player_id: m
        for m in Membership.objects.filter(
            season__league=season.league,
            season__number__lt=season.number,
            status=Membership.Status.FINISHED,
            next_tier__isnull=False,
            player_id__in=[m.player_id for m in members],
        )
        .select_related("division")
        .order_by("season__number")
    }  # the latest finished season of each player wins
    ratings = tournament_selectors.player_ratings(
        users=[m.player for m in members], kind=season.league.kind
    )
    returning, newcomers = [], []
    for order, member in enumerate(members):
        last = earlier.get(member.player_id)
        if last is not None and last.division is not None and last.next_tier is not None:
            returning.append(
                Returning(
                    member.player_id, last.next_tier, last.division.tier, last.final_place or 0
                )
            )
        else:
            newcomers.append(Newcomer(member.player_id, ratings.get(member.player_id), order))
    divisions = season_placement(returning, newcomers, selectors.league_rules(league=season.league))
    return _organiser_moves(divisions, {m.player_id: m.tier_requested for m in members})


def _organiser_moves(
    divisions: list[list[Seat]], requested: dict[int, int | None]
) -> list[list[Seat]]:
    """Move each player the organiser placed into the division of that tier (the bottom
    one if the tier does not exist this season), keeping at least two in every division."""
    regular = [d for d in divisions if d and not d[0].rookie]
    for player_id, tier in requested.items():
        if tier is None or not regular:
            continue
        source = next(d for d in divisions if any(s.player_id == player_id for s in d))
        target = regular[min(tier, len(regular)) - 1]
        if source is target:
            continue
        if len(source) <= 2:
            logger.warning("Player %s not moved: their division would be left with one.", player_id)
            continue
        source[:] = [s for s in source if s.player_id != player_id]
        target.append(Seat(player_id, target[0].tier, False, How.ORGANISER))
    return divisions


# --- Season end --------------------------------------------------------------------------------


def _season_over(season: Season) -> bool:
    return not season.divisions.exclude(
        tournament__status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED]
    ).exists()


def _season_end(season: Season, *, now: datetime) -> Season:
    """Store each player's place and move, open the next season, and tell everyone."""
    tables = []
    left: set[int] = set()
    for division in season.divisions.select_related("tournament"):
        entries = list(division.tournament.entries.filter(seed__isnull=False))
        gone = {Entry.Status.WITHDRAWN, Entry.Status.REMOVED}
        left |= {e.player_id for e in entries if e.status in gone and e.player_id}
        entries.sort(key=lambda e: (e.status in gone, e.final_rank or 999, e.seed or 0))
        tables.append(
            FinalTable(
                tier=division.tier,
                players=tuple(e.player_id for e in entries if e.player_id),
                rookie=division.rookie,
            )
        )
    moves = season_moves(tables, selectors.league_rules(league=season.league))
    members = list(season.memberships.filter(status=Membership.Status.PLAYING))
    for member in members:
        move = moves.get(member.player_id)
        member.status = Membership.Status.FINISHED
        if move is not None:
            member.final_place = move.place
            member.outcome = move.outcome.value
            member.next_tier = move.next_tier
    Membership.objects.bulk_update(members, ["status", "final_place", "outcome", "next_tier"])
    season.status = Season.Status.FINISHED
    season.finished_at = now
    season.save(update_fields=["status", "finished_at"])
    following = _season_create(
        season.league,
        number=season.number + 1,
        registration_opens_at=max(season.ends_at, now),
        now=now,
    )
    carried = [
        Membership(season=following, player_id=m.player_id, carried_over=True)
        for m in members
        if not m.this_season_only and m.player_id not in left
    ]
    Membership.objects.bulk_create(carried)
    emails.season_end(season=season, next_season=following)
    return following


# --- The clock ---------------------------------------------------------------------------------


def seasons_due(*, now: datetime) -> list[int]:
    """Ids of seasons the beat should look at (``season_advance`` decides what is due)."""
    return list(
        Season.objects.filter(
            Q(status=Season.Status.PLANNED, registration_opens_at__lte=now)
            | Q(status=Season.Status.REGISTRATION, starts_at__lte=now)
            | Q(status=Season.Status.RUNNING)
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )


@transaction.atomic
def season_advance(*, season_id: int, now: datetime | None = None) -> dict[str, Any]:
    """Do what the clock says for one season; safe to run any number of times: open its
    registration on its date, start it on its date, end it once every division finished."""
    now = now or timezone.now()
    season = season_locked(season_id)
    done: dict[str, Any] = {}
    if _registration_open_if_due(season, now=now):
        done["registration_opened"] = True
    if season.status == Season.Status.REGISTRATION and season.starts_at <= now:
        _season_start(season, now=now)
        done["started"] = season.status == Season.Status.RUNNING
    elif season.status == Season.Status.RUNNING and _season_over(season):
        done["next_season"] = _season_end(season, now=now).pk
    return done


def leagues_advance(*, now: datetime, ids: Iterable[int] | None = None) -> dict[int, Any]:
    """Advance each due season in a transaction of its own; returns what each did. A season
    that cannot move on is logged and reported without holding up the others."""
    report: dict[int, Any] = {}
    for season_id in ids if ids is not None else seasons_due(now=now):
        try:
            done = season_advance(season_id=season_id, now=now)
        except DomainError as exc:
            logger.warning("League season %s cannot move on: %s", season_id, exc.detail)
            done = {"error": exc.code}
        if done:
            report[season_id] = done
    return report
