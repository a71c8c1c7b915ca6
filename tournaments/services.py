"""Tournament writes: create, register, start, pair, withdraw, adjudicate, finish.

Every write runs in ``transaction.atomic()`` with the tournament row locked
(``select_for_update``), so a registration, a game ending and the beat task cannot race
each other into a double start or a double round. Games are created and ended through the
games services; emails are outbox rows sent after the commit (``notifications.events``).
Every service is keyword-only and safe to call twice where a task may call it twice.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from celticsite.errors import DomainError
from games import audit as games_audit
from games import services as game_services
from games.clock import TimeControl
from games.models import Game
from games.models import Result as GameResult
from moderation.models import AuditEntry
from moderation.services import audit_record
from notifications import events as notification_events
from tournaments import audit, errors, selectors
from tournaments.models import Bye, Entry, KnockoutMatch, Round, Tournament, TournamentGame
from tournaments.pairing.base import Pair, PairingError, RoundPairing
from tournaments.pairing.knockout import (
    BracketMatch,
    MatchDecision,
    MatchGame,
    MatchPolicy,
    TieDecider,
    decide_match,
    knockout_bracket,
    knockout_next_round,
    knockout_rounds,
)
from tournaments.pairing.sections import snake_sections
from tournaments.plugins import pairing_formats, pairing_system_for
from tournaments.records import RESULT_OF_OUTCOMES, SectionField, section_fields
from tournaments.standings import EDITIONS
from tournaments.standings.records import Colour, Outcome, PlayerRecord
from tournaments.trf import TrfTournament

User = AbstractBaseUser
logger = logging.getLogger(__name__)
Result = TournamentGame.Result

ORGANISE_PERMISSION = selectors.ORGANISE
ADJUDICATE_PERMISSION = selectors.ADJUDICATE
MANAGE_ENTRIES_PERMISSION = selectors.MANAGE_ENTRIES

# The settings an organiser chooses; ``tournament_create`` and ``tournament_update`` take them.
SETTING_FIELDS: tuple[str, ...] = (
    "name",
    "description",
    "format",
    "cycles",
    "rounds_planned",
    "section_size",
    "rated",
    "public",
    "window_forfeit",
    "registration_mode",
    "entry_code",
    "registration_opens_at",
    "registration_closes_at",
    "min_players",
    "max_players",
    "rating_min",
    "rating_max",
    "min_finished_games",
    "max_running_games",
    "start_mode",
    "starts_at",
    "round_start_mode",
    "round_interval_days",
    "round_duration_days",
    "ends_at",
    "knockout_extra_pairs",
    "knockout_decider",
    "withdrawal_policy",
    "tiebreaks",
    "tiebreak_edition",
    "late_entry_last_round",
    "late_entry_bye",
    "half_point_byes_max",
    "forfeits_to_withdraw",
    "accelerated",
)

# Settings that only a Swiss event uses, with the value every other format keeps.
SWISS_ONLY_DEFAULTS: dict[str, Any] = {
    "late_entry_last_round": None,
    "half_point_byes_max": 0,
    "forfeits_to_withdraw": None,
    "accelerated": False,
}


# --- Loading and permissions ----------------------------------------------------------------


def _tournament_locked(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise errors.TournamentNotFound(f"There is no tournament #{tournament_id}.") from None


def _require_status(tournament: Tournament, *allowed: str, doing: str) -> None:
    if tournament.status not in allowed:
        names = " or ".join(Tournament.Status(s).label.lower() for s in allowed)
        raise errors.WrongStatus(
            f"Cannot {doing}: {tournament.name} is {tournament.get_status_display().lower()}, "
            f"not {names}."
        )


def _require_manager(tournament: Tournament, actor: User, *, permission: str) -> None:
    """The event's organiser while they hold the organiser permission, a superuser, or staff
    holding ``permission`` (the entries or adjudicate one) for every event: the rule of
    ``selectors.tournament_can_manage``, which the API and pages apply too."""
    selectors.tournament_manager_require(tournament=tournament, user=actor, permission=permission)


def _require_reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise errors.InvalidSettings(
            "A reason is required: say why, for the players and the audit log.",
            code="reason_required",
        )
    return reason


# --- Create and update ------------------------------------------------------------------------


@transaction.atomic
def tournament_create(
    *,
    organiser: User,
    name: str,
    time_control: TimeControl | None = None,
    **settings: Any,
) -> Tournament:
    """A new tournament in draft, with the given settings (see ``SETTING_FIELDS``).

    Only users with the ``tournaments.organise_tournament`` permission may organise. Every
    setting is validated together; ``InvalidSettings.extra['errors']`` names each bad one.
    """
    if not (organiser.is_active and organiser.has_perm(ORGANISE_PERMISSION)):
        raise errors.NotOrganiser(
            "You need the organiser permission to create tournaments; ask an administrator.",
            code="organiser_permission_required",
        )
    _reject_unknown(settings)
    tournament = Tournament(organiser=organiser, name=name.strip(), **settings)
    if time_control is not None:
        _set_time_control(tournament, time_control)
    _validate(tournament)
    tournament.save()
    return tournament


@transaction.atomic
def tournament_update(
    *,
    tournament_id: int,
    actor: User,
    time_control: TimeControl | None = None,
    **changes: Any,
) -> Tournament:
    """Change settings of a tournament that has not started (draft or registration)."""
    tournament = _tournament_locked(tournament_id)
    _require_manager(tournament, actor, permission=ORGANISE_PERMISSION)
    _require_status(
        tournament, Tournament.Status.DRAFT, Tournament.Status.REGISTRATION, doing="change it"
    )
    _reject_unknown(changes)
    for field, value in changes.items():
        setattr(tournament, field, value.strip() if field == "name" else value)
    if time_control is not None:
        _set_time_control(tournament, time_control)
    _validate(tournament)
    tournament.save()
    return tournament


@transaction.atomic
def tournament_round_robin_start_with(
    *,
    organiser: User,
    name: str,
    players: Sequence[User],
    time_control: TimeControl,
    now: datetime | None = None,
    **settings: Any,
) -> Tournament:
    """A round robin of ``players`` chosen by another app (a league's division), started at
    once with all its games at once; there is no registration.

    The caller has decided who plays and authorised ``organiser``, who runs the event like
    any other (withdrawals, adjudication). ``settings`` are those of ``tournament_create``;
    the format, the start and the rounds are fixed here.
    """
    _reject_unknown(settings)
    settings.update(
        format=Tournament.Format.ROUND_ROBIN,
        start_mode=Tournament.StartMode.BY_ORGANISER,
        round_start_mode=Tournament.RoundStartMode.ALL_AT_ONCE,
        min_players=2,
        status=Tournament.Status.REGISTRATION,
    )
    tournament = Tournament(organiser=organiser, name=name.strip(), **settings)
    _set_time_control(tournament, time_control)
    _validate(tournament)
    tournament.save()
    Entry.objects.bulk_create(
        Entry(
            tournament=tournament,
            player=player,
            name=selectors.player_name(user=player),
            status=Entry.Status.APPROVED,
        )
        for player in players
    )
    _start(tournament, now=now or timezone.now(), automatic=False)
    return tournament


def _reject_unknown(settings: dict[str, Any]) -> None:
    unknown = sorted(set(settings) - set(SETTING_FIELDS))
    if unknown:
        raise errors.InvalidSettings(
            f"Unknown setting(s): {', '.join(unknown)}. Known: {', '.join(SETTING_FIELDS)}.",
            code="unknown_setting",
        )


def _set_time_control(tournament: Tournament, tc: TimeControl) -> None:
    for field, value in Tournament.time_control_columns(tc).items():
        setattr(tournament, field, value)


def _validate(t: Tournament) -> None:
    """Check every setting and the rules that tie them together; raise all problems at once."""
    problems: dict[str, str] = {}
    for field in (
        "format",
        "registration_mode",
        "start_mode",
        "round_start_mode",
        "knockout_decider",
        "withdrawal_policy",
    ):
        choices = Tournament._meta.get_field(field).choices or []
        allowed = [value for value, _ in choices]
        if getattr(t, field) not in allowed:
            problems[field] = f"{getattr(t, field)!r} is not one of {', '.join(allowed)}."
    if not t.name:
        problems["name"] = "A name is required."
    elif Tournament.objects.filter(name__iexact=t.name).exclude(pk=t.pk).exists():
        problems["name"] = f"There is already a tournament called {t.name!r}."
    if t.cycles not in (1, 2):
        problems["cycles"] = "1 (single round robin) or 2 (double)."
    if t.min_players < 2:
        problems["min_players"] = "At least 2."
    if t.max_players is not None and t.max_players < t.min_players:
        problems["max_players"] = f"At least the minimum ({t.min_players}), or empty."
    if t.rating_min is not None and t.rating_max is not None and t.rating_min > t.rating_max:
        problems["rating_max"] = f"At least the minimum rating ({t.rating_min}), or empty."
    if (
        t.registration_opens_at
        and t.registration_closes_at
        and t.registration_closes_at <= t.registration_opens_at
    ):
        problems["registration_closes_at"] = "After registration opens."
    if t.start_mode == Tournament.StartMode.AT_DATE and t.starts_at is None:
        problems["starts_at"] = "Required when the event starts automatically at a date."
    if t.start_mode == Tournament.StartMode.WHEN_FULL and t.max_players is None:
        problems["max_players"] = "Required when the event starts as soon as it is full."
    if t.starts_at and t.registration_closes_at and t.registration_closes_at > t.starts_at:
        problems["registration_closes_at"] = "No later than the start date."
    if t.ends_at and t.starts_at and t.ends_at <= t.starts_at:
        problems["ends_at"] = "After the start date."
    if t.format == Tournament.Format.SWISS and not t.rounds_planned:
        problems["rounds_planned"] = "A Swiss event needs its number of rounds."
    problems.update(_swiss_problems(t))
    if t.section_size is not None and t.format != Tournament.Format.ROUND_ROBIN:
        problems["section_size"] = "Only a round robin is split into sections."
    if t.section_size is not None and t.section_size < 3:
        problems["section_size"] = "At least 3 players per section, or empty."
    if (
        t.round_start_mode == Tournament.RoundStartMode.ALL_AT_ONCE
        and t.format != Tournament.Format.ROUND_ROBIN
    ):
        problems["round_start_mode"] = (
            "Only a round robin can start all its games at once: later rounds of a "
            f"{t.get_format_display().lower()} depend on earlier results."
        )
    if t.round_start_mode == Tournament.RoundStartMode.ON_DATES and not t.round_interval_days:
        problems["round_interval_days"] = "Required when rounds start on their dates."
    pairable = pairing_formats() | {Tournament.Format.KNOCKOUT}
    if "format" not in problems and t.format not in pairable:
        problems["format"] = f"No pairing system is installed for {t.format!r} yet."
    if not isinstance(t.tiebreaks, list) or not all(isinstance(c, str) for c in t.tiebreaks):
        problems["tiebreaks"] = "A list of tie-break codes, e.g. ['SB', 'DE']."
    else:
        unknown = selectors.tiebreak_codes_unknown(codes=t.tiebreaks)
        if unknown:
            problems["tiebreaks"] = f"Unknown tie-break(s): {', '.join(unknown)}."
    if t.tiebreak_edition not in EDITIONS:
        problems["tiebreak_edition"] = f"One of {', '.join(EDITIONS)} (FIDE C.07 editions)."
    try:
        _ = t.time_control  # builds a TimeControl, which checks the clock settings
    except ValueError as exc:
        problems["time_control"] = str(exc)
    if problems:
        summary = "; ".join(f"{field}: {text}" for field, text in problems.items())
        raise errors.InvalidSettings(f"Invalid settings: {summary}", errors=problems)


def _swiss_problems(t: Tournament) -> dict[str, str]:
    """The Swiss settings: late entries, byes, forfeits, acceleration (Swiss events only)."""
    problems: dict[str, str] = {}
    if t.format != Tournament.Format.SWISS:
        for field, default in SWISS_ONLY_DEFAULTS.items():
            if getattr(t, field) != default:
                problems[field] = "Only a Swiss event uses this setting."
        return problems
    last = t.late_entry_last_round
    if last is not None and not (2 <= last <= (t.rounds_planned or 0)):
        problems["late_entry_last_round"] = (
            f"A round from 2 to the number of rounds ({t.rounds_planned}), or empty."
        )
    if t.late_entry_bye not in (Bye.Kind.ZERO, Bye.Kind.HALF):
        problems["late_entry_bye"] = "Z (no points) or H (half a point) per missed round."
    if t.half_point_byes_max > (t.rounds_planned or 0):
        problems["half_point_byes_max"] = f"At most the number of rounds ({t.rounds_planned})."
    if t.forfeits_to_withdraw is not None and t.forfeits_to_withdraw < 1:
        problems["forfeits_to_withdraw"] = "At least 1, or empty."
    return problems


# --- Registration -----------------------------------------------------------------------------


@transaction.atomic
def tournament_registration_open(*, tournament_id: int, actor: User) -> Tournament:
    """Publish a draft: players may register (from ``registration_opens_at`` if set)."""
    tournament = _tournament_locked(tournament_id)
    _require_manager(tournament, actor, permission=ORGANISE_PERMISSION)
    _require_status(tournament, Tournament.Status.DRAFT, doing="open registration")
    _validate(tournament)
    tournament.status = Tournament.Status.REGISTRATION
    tournament.save(update_fields=["status"])
    return tournament


def _refuse(code: str, detail: str) -> errors.RegistrationRefused:
    return errors.RegistrationRefused(detail, code=code)


@transaction.atomic
def tournament_register(
    *, tournament_id: int, user: User, entry_code: str = "", now: datetime | None = None
) -> Entry:
    """``user`` enters the tournament, or accepts the organiser's invitation.

    Checks, each with its own error code: the registration window (``registration_not_open``,
    ``registration_closed``), invitation only (``invitation_required``), the entry code
    (``entry_code_wrong``), the rating limits (``rating_too_low``, ``rating_too_high``), the
    finished games required (``too_few_finished_games``), the running-games cap
    (``too_many_running_games``) and the field size (``tournament_full``). Invited players
    skip the code, rating and finished-games checks (the organiser chose them). In an event
    with approval the entry waits for the organiser; otherwise it is registered at once, and
    an event that starts when full starts with the last place taken. A running Swiss takes
    late entries until its ``late_entry_last_round`` is paired (``late_entry_closed`` after).
    """
    now = now or timezone.now()
    tournament = _tournament_locked(tournament_id)
    if tournament.status == Tournament.Status.RUNNING:
        return _late_register(tournament, user=user, entry_code=entry_code)
    existing = tournament.entries.filter(player=user).first()
    invited = existing is not None and existing.status == Entry.Status.INVITED
    if existing is not None and not invited and existing.status != Entry.Status.DECLINED:
        raise errors.AlreadyRegistered(
            f"You are already in {tournament.name} ({existing.get_status_display().lower()})."
        )
    _check_window(tournament, now=now)
    if not invited:
        _check_eligibility(tournament, user=user, entry_code=entry_code)
    _check_running_games(tournament, user=user)
    pending = tournament.registration_mode == Tournament.RegistrationMode.APPROVAL and not invited
    if not pending:
        _check_room(tournament)
    entry = existing or Entry(tournament=tournament, player=user)
    entry.name = selectors.player_name(user=user)
    entry.status = Entry.Status.PENDING if pending else Entry.Status.APPROVED
    entry.save()
    if not pending:
        _start_if_full(tournament, now=now)
    return entry


def _late_register(tournament: Tournament, *, user: User, entry_code: str) -> Entry:
    """A late entry to a running Swiss: seated at once (or waiting for approval), with a
    bye of the event's kind for every round already paired."""
    existing = tournament.entries.filter(player=user).first()
    if existing is not None and existing.status != Entry.Status.DECLINED:
        raise errors.AlreadyRegistered(
            f"You are already in {tournament.name} ({existing.get_status_display().lower()})."
        )
    _late_round_open(tournament)
    _check_eligibility(tournament, user=user, entry_code=entry_code)
    _check_running_games(tournament, user=user)
    pending = tournament.registration_mode == Tournament.RegistrationMode.APPROVAL
    if not pending:
        _check_room(tournament)
    entry = existing or Entry(tournament=tournament, player=user)
    entry.name = selectors.player_name(user=user)
    entry.status = Entry.Status.PENDING
    entry.save()
    if not pending:
        _late_seat(tournament, entry)
    return entry


def _late_round_open(tournament: Tournament) -> Round:
    """The round a late entrant would start in; refused when late entries are over."""
    nxt = tournament.rounds.filter(status=Round.Status.PLANNED).order_by("number").first()
    last = tournament.late_entry_last_round
    if tournament.format != Tournament.Format.SWISS or last is None:
        raise _refuse("registration_closed", f"{tournament} has started: it takes no late entries.")
    if nxt is None or nxt.number > last:
        raise _refuse(
            "late_entry_closed",
            f"{tournament} took late entries until round {last} was paired.",
        )
    return nxt


def _late_seat(tournament: Tournament, entry: Entry) -> None:
    """Give a late entrant the next starting number (the others keep theirs), their rating,
    and a bye (the event's ``late_entry_bye``) for each round already paired."""
    first = _late_round_open(tournament)
    last_seed = tournament.entries.filter(seed__isnull=False).order_by("-seed").first()
    rating = selectors.player_ratings(users=[entry.player]) if entry.player else {}
    entry.seed = (last_seed.seed if last_seed and last_seed.seed else 0) + 1
    entry.rating_at_start = rating.get(entry.player_id) if entry.player_id else None
    entry.joined_round = first.number
    entry.status = Entry.Status.ACTIVE
    entry.save(update_fields=["seed", "rating_at_start", "joined_round", "status"])
    Bye.objects.bulk_create(
        Bye(round=rnd, entry=entry, kind=tournament.late_entry_bye)
        for rnd in tournament.rounds.filter(number__lt=first.number)
    )


def _check_window(tournament: Tournament, *, now: datetime) -> None:
    if tournament.status != Tournament.Status.REGISTRATION or (
        tournament.registration_opens_at and now < tournament.registration_opens_at
    ):
        when = (
            f" It opens on {tournament.registration_opens_at:%Y-%m-%d %H:%M} UTC."
            if tournament.registration_opens_at and now < tournament.registration_opens_at
            else ""
        )
        raise _refuse("registration_not_open", f"Registration for {tournament} is not open.{when}")
    if tournament.registration_closes_at and now >= tournament.registration_closes_at:
        raise _refuse(
            "registration_closed",
            f"Registration for {tournament} closed on "
            f"{tournament.registration_closes_at:%Y-%m-%d %H:%M} UTC.",
        )


def _check_eligibility(tournament: Tournament, *, user: User, entry_code: str) -> None:
    if tournament.registration_mode == Tournament.RegistrationMode.INVITATION:
        raise _refuse(
            "invitation_required", f"{tournament} is by invitation of the organiser only."
        )
    if tournament.entry_code and entry_code.strip() != tournament.entry_code:
        raise _refuse(
            "entry_code_wrong",
            f"{tournament} needs an entry code from the organiser; the one given is wrong.",
        )
    if tournament.rating_min is not None or tournament.rating_max is not None:
        rating = selectors.player_rating(user=user)
        if tournament.rating_min is not None and rating < tournament.rating_min:
            raise _refuse(
                "rating_too_low",
                f"{tournament} is for players rated {tournament.rating_min} or more; "
                f"your rating is {rating}.",
            )
        if tournament.rating_max is not None and rating > tournament.rating_max:
            raise _refuse(
                "rating_too_high",
                f"{tournament} is for players rated {tournament.rating_max} or less; "
                f"your rating is {rating}.",
            )
    if tournament.min_finished_games:
        finished = selectors.player_finished_game_count(user=user)
        if finished < tournament.min_finished_games:
            raise _refuse(
                "too_few_finished_games",
                f"{tournament} needs {tournament.min_finished_games} finished games on the "
                f"site; you have {finished}.",
            )


def _check_running_games(tournament: Tournament, *, user: User) -> None:
    if tournament.max_running_games is None:
        return
    running = selectors.player_running_game_count(user=user)
    if running >= tournament.max_running_games:
        raise _refuse(
            "too_many_running_games",
            f"{tournament} takes players with fewer than {tournament.max_running_games} games "
            f"in progress; you have {running}. Finish some first.",
        )


def _check_room(tournament: Tournament) -> None:
    if tournament.max_players is None:
        return
    taken = tournament.entries.filter(status__in=Entry.PLACE_TAKING).count()
    if taken >= tournament.max_players:
        raise _refuse(
            "tournament_full", f"{tournament} is full ({tournament.max_players} players)."
        )


def _start_if_full(tournament: Tournament, *, now: datetime) -> None:
    if tournament.start_mode != Tournament.StartMode.WHEN_FULL:
        return
    taken = tournament.entries.filter(status__in=Entry.PLACE_TAKING).count()
    if tournament.max_players is not None and taken >= tournament.max_players:
        _start(tournament, now=now, automatic=True)


@transaction.atomic
def entry_approve(*, entry_id: int, actor: User, now: datetime | None = None) -> Entry:
    """The organiser accepts a pending entry (events with approval)."""
    entry = _entry_with_tournament_locked(entry_id)
    tournament = entry.tournament
    _require_manager(tournament, actor, permission=MANAGE_ENTRIES_PERMISSION)
    _require_status(
        tournament,
        Tournament.Status.REGISTRATION,
        Tournament.Status.RUNNING,
        doing="approve entries",
    )
    if entry.status != Entry.Status.PENDING:
        raise errors.WrongStatus(
            f"{entry.name}'s entry is {entry.get_status_display().lower()}, not waiting.",
            code="entry_not_pending",
        )
    _check_room(tournament)
    if tournament.status == Tournament.Status.RUNNING:  # a late entry to a Swiss
        _late_seat(tournament, entry)
        return entry
    entry.status = Entry.Status.APPROVED
    entry.save(update_fields=["status"])
    _start_if_full(tournament, now=now or timezone.now())
    return entry


@transaction.atomic
def entry_decline(*, entry_id: int, actor: User) -> Entry:
    """The organiser turns down a pending entry."""
    entry = _entry_with_tournament_locked(entry_id)
    _require_manager(entry.tournament, actor, permission=MANAGE_ENTRIES_PERMISSION)
    if entry.status != Entry.Status.PENDING:
        raise errors.WrongStatus(
            f"{entry.name}'s entry is {entry.get_status_display().lower()}, not waiting.",
            code="entry_not_pending",
        )
    entry.status = Entry.Status.DECLINED
    entry.save(update_fields=["status"])
    return entry


@transaction.atomic
def entry_invite(*, tournament_id: int, actor: User, user: User) -> Entry:
    """The organiser invites ``user``; they enter by registering (``tournament_register``)."""
    tournament = _tournament_locked(tournament_id)
    _require_manager(tournament, actor, permission=MANAGE_ENTRIES_PERMISSION)
    _require_status(
        tournament, Tournament.Status.DRAFT, Tournament.Status.REGISTRATION, doing="invite"
    )
    if not user.is_active:
        raise errors.InvalidSettings(f"{user} cannot be invited: the account is suspended.")
    entry = tournament.entries.filter(player=user).first()
    if entry is not None and entry.status != Entry.Status.DECLINED:
        raise errors.AlreadyRegistered(
            f"{entry.name} is already in {tournament} ({entry.get_status_display().lower()})."
        )
    entry = entry or Entry(tournament=tournament, player=user)
    entry.name = selectors.player_name(user=user)
    entry.status = Entry.Status.INVITED
    entry.save()
    return entry


@transaction.atomic
def registration_cancel(*, tournament_id: int, user: User) -> None:
    """``user`` leaves a tournament that has not started (or declines an invitation)."""
    tournament = _tournament_locked(tournament_id)
    _require_status(
        tournament,
        Tournament.Status.DRAFT,
        Tournament.Status.REGISTRATION,
        doing="cancel a registration (withdraw instead)",
    )
    deleted, _ = (
        tournament.entries.filter(player=user).exclude(status=Entry.Status.REMOVED).delete()
    )
    if not deleted:
        raise errors.NotInTournament(f"You are not registered in {tournament}.")


def _entry_with_tournament_locked(entry_id: int) -> Entry:
    tournament_id = Entry.objects.filter(pk=entry_id).values_list("tournament_id", flat=True)
    first = tournament_id.first()
    if first is None:
        raise errors.EntryNotFound(f"There is no entry #{entry_id}.")
    tournament = _tournament_locked(first)
    entry = Entry.objects.select_related("player").get(pk=entry_id)
    entry.tournament = tournament
    return entry


# --- Start -----------------------------------------------------------------------------------


@transaction.atomic
def tournament_start(*, tournament_id: int, actor: User, now: datetime | None = None) -> Tournament:
    """The organiser starts the event now: seeds, sections, rounds, the first games.

    Too few registered players is refused (``too_few_players``); the event stays open.
    """
    tournament = _tournament_locked(tournament_id)
    _require_manager(tournament, actor, permission=ORGANISE_PERMISSION)
    _require_status(tournament, Tournament.Status.REGISTRATION, doing="start it")
    _start(tournament, now=now or timezone.now(), automatic=False)
    return tournament


def _start(tournament: Tournament, *, now: datetime, automatic: bool) -> None:
    """Seed the registered players, make the rounds and start the first (or every) round.

    An automatic start with too few players cancels the event (and says why); a start by
    the organiser raises ``TooFewPlayers`` instead.
    """
    entries = list(
        tournament.entries.filter(status=Entry.Status.APPROVED)
        .select_related("player")
        .order_by("registered_at", "pk")
    )
    if len(entries) < tournament.min_players:
        detail = (
            f"{tournament} needs at least {tournament.min_players} players to start; "
            f"{len(entries)} registered."
        )
        if not automatic:
            raise errors.TooFewPlayers(detail)
        _cancel(tournament, note=detail, now=now)
        return
    _seed(tournament, entries)
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now
    tournament.save(update_fields=["status", "started_at"])
    tournament.entries.filter(status__in=[Entry.Status.PENDING, Entry.Status.INVITED]).update(
        status=Entry.Status.DECLINED
    )
    _rounds_create(tournament, now=now)
    _rounds_start_due(tournament, now=now)


def _cancel(tournament: Tournament, *, note: str, now: datetime) -> None:
    tournament.status = Tournament.Status.CANCELLED
    tournament.status_note = note[:300]
    tournament.finished_at = now
    tournament.save(update_fields=["status", "status_note", "finished_at"])
    notification_events.on_tournament_finished(tournament=tournament)


def _seed(tournament: Tournament, entries: list[Entry]) -> None:
    """Ratings at start, seeds (1 = highest rated; unrated last, by registration), sections."""
    ratings = selectors.player_ratings(users=[e.player for e in entries if e.player])
    for entry in entries:
        entry.rating_at_start = ratings.get(entry.player_id) if entry.player_id else None
    entries.sort(key=lambda e: (e.rating_at_start is None, -(e.rating_at_start or 0)))
    sections = {entry.pk: 1 for entry in entries}
    if tournament.section_size and len(entries) > tournament.section_size:
        records = [
            PlayerRecord(number=i + 1, name=e.name, rating=e.rating_at_start)
            for i, e in enumerate(entries)
        ]
        for index, numbers in enumerate(
            snake_sections(records, section_size=tournament.section_size)
        ):
            for number in numbers:
                sections[entries[number - 1].pk] = index + 1
    for seed, entry in enumerate(entries, start=1):
        entry.seed = seed
        entry.section = sections[entry.pk]
        entry.status = Entry.Status.ACTIVE
    # One small UPDATE per entry: several times cheaper than bulk_update's CASE expressions
    # for a large field (bench/tournaments.py: 500 players).
    for entry in entries:
        Entry.objects.filter(pk=entry.pk).update(
            rating_at_start=entry.rating_at_start,
            seed=entry.seed,
            section=entry.section,
            status=entry.status,
        )


def _rounds_create(tournament: Tournament, *, now: datetime) -> None:
    """The rounds of the event, each with its planned start date if rounds run on dates."""
    total = _total_rounds(tournament)
    interval = timedelta(days=tournament.round_interval_days or 0)
    on_dates = tournament.round_start_mode == Tournament.RoundStartMode.ON_DATES
    Round.objects.bulk_create(
        Round(
            tournament=tournament,
            number=number,
            starts_at=now + (number - 1) * interval if on_dates else None,
        )
        for number in range(1, total + 1)
    )
    if tournament.format == Tournament.Format.SWISS:
        return
    tournament.rounds_planned = total
    tournament.save(update_fields=["rounds_planned"])


def _total_rounds(tournament: Tournament) -> int:
    if tournament.format == Tournament.Format.SWISS:
        assert tournament.rounds_planned
        return tournament.rounds_planned
    sizes = list(
        tournament.entries.filter(seed__isnull=False).values_list("section", flat=True).order_by()
    )
    if tournament.format == Tournament.Format.KNOCKOUT:
        return knockout_rounds(len(sizes))
    largest = max(sizes.count(section) for section in set(sizes))
    per_cycle = largest - 1 if largest % 2 == 0 else largest
    return per_cycle * tournament.cycles


def _rounds_start_due(tournament: Tournament, *, now: datetime) -> list[int]:
    """Start every planned round whose time has come, in order; returns their numbers.

    All at once: every round at the start. Round by round: the next round once the previous
    one is complete. On dates: the next round at its start date, once the previous is
    complete; a round robin's round starts at its date even if the previous one is not
    complete (its pairings do not depend on results). The next round is looked up afresh
    each time, since starting a round may complete it and start the next one.
    """
    started = []
    while tournament.status == Tournament.Status.RUNNING:
        rnd = tournament.rounds.filter(status=Round.Status.PLANNED).order_by("number").first()
        if rnd is None or not _round_due(tournament, rnd, now=now):
            break
        _round_start(tournament, rnd, now=now)
        started.append(rnd.number)
    return started


def _round_due(tournament: Tournament, rnd: Round, *, now: datetime) -> bool:
    mode = tournament.round_start_mode
    if mode == Tournament.RoundStartMode.ALL_AT_ONCE:
        return True
    previous_complete = (
        rnd.number == 1
        or tournament.rounds.filter(number=rnd.number - 1, status=Round.Status.COMPLETE).exists()
    )
    if mode == Tournament.RoundStartMode.ROUND_BY_ROUND:
        return previous_complete
    date_reached = rnd.starts_at is None or rnd.starts_at <= now
    return date_reached and (previous_complete or tournament.is_round_robin)


# --- Pairing and starting a round -----------------------------------------------------------


def _round_start(
    tournament: Tournament,
    rnd: Round,
    *,
    now: datetime,
    pairings: dict[int, RoundPairing] | None = None,
) -> None:
    """Pair ``rnd`` (or use the organiser's ``pairings`` per section) and start its games."""
    fields = section_fields(tournament)
    bracket: tuple[BracketMatch, ...] = ()
    plan = {}
    for field in fields:
        if tournament.is_knockout:
            bracket = _knockout_bracket(tournament, rnd, field)
            pairing = _knockout_pairing(bracket)
        else:
            pairing = (pairings or {}).get(field.section) or _pair(tournament, rnd, field)
        plan[field.section] = (field, pairing)
    rnd.status = Round.Status.RUNNING
    rnd.started_at = now
    if tournament.round_duration_days and rnd.ends_at is None:  # the organiser's date wins
        rnd.ends_at = now + timedelta(days=tournament.round_duration_days)
    rnd.save(update_fields=["status", "started_at", "ends_at"])
    games: list[Game] = []
    bye_users = []
    for _section, (field, pairing) in sorted(plan.items()):
        created, byes = _round_games_create(tournament, rnd, field, pairing, now=now)
        games.extend(created)
        bye_users.extend(bye.entry.player for bye in byes if bye.entry.player is not None)
        if tournament.is_knockout:
            _knockout_matches_create(tournament, rnd, field, bracket)
    notification_events.on_tournament_round_started(
        tournament_name=tournament.name, round_number=rnd.number, games=games, byes=bye_users
    )
    notification_events.on_turns(games)
    _round_complete_if_done(tournament, rnd, now=now)


def _pair(tournament: Tournament, rnd: Round, field: SectionField) -> RoundPairing:
    system = pairing_system_for(format=tournament.format)
    total = tournament.rounds.count()
    options: dict[str, Any] = {}
    if tournament.is_round_robin:
        total = _section_rounds(tournament, len(field.entries))
        if rnd.number > total:  # a smaller section has finished its rounds
            return RoundPairing(pairs=())
    if tournament.format == Tournament.Format.SWISS:
        options = selectors.swiss_pairing_options(
            tournament=tournament, section=field, total_rounds=total
        )
    try:
        # Every seated player goes in, withdrawn ones too (named absent), so that the
        # pairing numbers of the others stay put.
        return system(
            field.records,
            round_number=rnd.number,
            total_rounds=total,
            absent=field.absent | _excused(rnd, field),
            **options,
        )
    except PairingError as exc:
        raise errors.PairingFailed(f"Round {rnd.number} cannot be paired: {exc}") from None


def _excused(rnd: Round, field: SectionField) -> frozenset[int]:
    """Players with a bye entered ahead for ``rnd`` (requested half-point byes, absences)."""
    entry_ids = set(rnd.byes.values_list("entry_id", flat=True))
    return frozenset(field.number_of(e.pk) for e in field.entries if e.pk in entry_ids)


def _section_rounds(tournament: Tournament, size: int) -> int:
    return (size - 1 if size % 2 == 0 else size) * tournament.cycles


def _round_games_create(
    tournament: Tournament,
    rnd: Round,
    field: SectionField,
    pairing: RoundPairing,
    *,
    now: datetime,
) -> tuple[list[Game], list[Bye]]:
    """Games for the pairs between present players (one bulk insert), forfeits for pairs
    with a withdrawn player, and the byes. Returns the games started and the byes."""
    absent = field.absent
    playing = [p for p in pairing.pairs if p.orange not in absent and p.blue not in absent]
    games = game_services.games_start_many(
        pairs=[(field.entry(p.orange).player, field.entry(p.blue).player) for p in playing],
        rated=tournament.rated,
        public=tournament.public,
        window_forfeit=tournament.window_forfeit,
        time_control=tournament.time_control,
        now=now,
    )
    game_of = dict(zip(playing, games, strict=True))
    links = []
    for board, pair in enumerate(pairing.pairs, start=1):
        game = game_of.get(pair)
        links.append(
            TournamentGame(
                tournament=tournament,
                round=rnd,
                game=game,
                orange=field.entry(pair.orange),
                blue=field.entry(pair.blue),
                board=board,
                section=field.section,
                result=Result.PENDING if game else _absence_result(tournament, field, pair),
                result_fixed=game is None,
            )
        )
    TournamentGame.objects.bulk_create(links)
    bye_kind = Bye.Kind.ZERO if tournament.is_round_robin else Bye.Kind.PAIRING
    byes = Bye.objects.bulk_create(
        Bye(round=rnd, entry=field.entry(number), kind=bye_kind)
        for number in pairing.byes
        if number not in absent
    )
    return games, byes


def _absence_result(tournament: Tournament, field: SectionField, pair: Pair) -> str:
    """A pair with a withdrawn player: cancelled if their results were cancelled, else the
    present player wins by forfeit."""
    orange_gone, blue_gone = pair.orange in field.absent, pair.blue in field.absent
    if orange_gone and blue_gone:
        return Result.CANCELLED
    gone = field.entry(pair.orange if orange_gone else pair.blue)
    if gone.results_cancelled:
        return Result.CANCELLED
    return Result.BLUE_FORFEIT_WIN if orange_gone else Result.ORANGE_FORFEIT_WIN


@transaction.atomic
def round_dates_set(
    *,
    tournament_id: int,
    actor: User,
    round_number: int,
    starts_at: datetime | None = None,
    ends_at: datetime | None = None,
) -> Round:
    """The organiser moves a planned round's start date (rounds on dates) or sets a round's
    end date, after which its unfinished games go to adjudication. ``None`` keeps a date."""
    tournament = _tournament_locked(tournament_id)
    _require_manager(tournament, actor, permission=ORGANISE_PERMISSION)
    _require_status(tournament, Tournament.Status.RUNNING, doing="change round dates")
    rnd = tournament.rounds.filter(number=round_number).first()
    if rnd is None:
        raise errors.InvalidSettings(
            f"{tournament} has rounds 1 to {tournament.rounds.count()}, not {round_number}.",
            code="no_such_round",
        )
    if rnd.status == Round.Status.COMPLETE:
        raise errors.WrongStatus(f"Round {round_number} is complete.", code="round_complete")
    if starts_at is not None:
        if rnd.status != Round.Status.PLANNED:
            raise errors.WrongStatus(
                f"Round {round_number} has started already.", code="round_started"
            )
        rnd.starts_at = starts_at
    if ends_at is not None:
        begins = rnd.started_at or rnd.starts_at
        if begins is not None and ends_at <= begins:
            raise errors.InvalidSettings(
                f"Round {round_number} must end after it starts ({begins:%Y-%m-%d %H:%M} UTC).",
                code="round_ends_before_start",
            )
        rnd.ends_at = ends_at
    rnd.save(update_fields=["starts_at", "ends_at"])
    return rnd


@transaction.atomic
def round_pair_manually(
    *,
    tournament_id: int,
    actor: User,
    pairs: Sequence[tuple[int, int]],
    byes: Sequence[int] = (),
    reason: str,
    now: datetime | None = None,
) -> Round:
    """The organiser pairs the next planned round by hand and starts it (not knockout).

    Only once every earlier round is complete (``round_not_complete`` before): a round paired
    by hand replaces the system's pairing, which the results of the rounds before decide,
    and no round starts while the one before still runs unless the schedule says so.
    ``pairs`` are ``(orange entry id, blue entry id)``; ``byes`` are entry ids given a
    pairing bye. Every active player of a one-section event must appear exactly once.
    Written to the audit log with the reason.
    """
    now = now or timezone.now()
    tournament = _tournament_locked(tournament_id)
    _require_manager(tournament, actor, permission=MANAGE_ENTRIES_PERMISSION)
    _require_status(tournament, Tournament.Status.RUNNING, doing="pair a round")
    reason = _require_reason(reason)
    fields = section_fields(tournament)
    if tournament.is_knockout or len(fields) != 1:
        raise errors.PairingFailed(
            "Manual pairing is for one-section round robin and Swiss events.",
            code="manual_pairing_unsupported",
        )
    rnd = tournament.rounds.filter(status=Round.Status.PLANNED).order_by("number").first()
    if rnd is None:
        raise errors.WrongStatus("Every round has been paired already.", code="no_round_left")
    _require_earlier_rounds_complete(tournament, rnd)
    field = fields[0]
    pairing = _manual_pairing(field, pairs=pairs, byes=byes, excused=_excused(rnd, field))
    audit_record(
        actor=actor,
        action=audit.TOURNAMENT_PAIRING,
        target=tournament,
        reason=reason,
        data={"round": rnd.number, "pairs": [list(p) for p in pairs], "byes": list(byes)},
    )
    _round_start(tournament, rnd, now=now, pairings={field.section: pairing})
    return rnd


def _require_earlier_rounds_complete(tournament: Tournament, rnd: Round) -> None:
    unfinished = list(
        tournament.rounds.filter(number__lt=rnd.number)
        .exclude(status=Round.Status.COMPLETE)
        .order_by("number")
        .values_list("number", flat=True)
    )
    if unfinished:
        raise errors.WrongStatus(
            f"Round {rnd.number} can be paired by hand once round {unfinished[-1]} is complete "
            "(every game decided or adjudicated).",
            code="round_not_complete",
        )


def _manual_pairing(
    field: SectionField,
    *,
    pairs: Sequence[tuple[int, int]],
    byes: Sequence[int],
    excused: frozenset[int] = frozenset(),
) -> RoundPairing:
    try:
        numbered = [(field.number_of(a), field.number_of(b)) for a, b in pairs]
        bye_numbers = [field.number_of(e) for e in byes]
    except KeyError as exc:
        raise errors.PairingFailed(
            f"Entry #{exc.args[0]} is not a player of this tournament.", code="unknown_entry"
        ) from None
    seen = [n for pair in numbered for n in pair] + bye_numbers
    present = {r.number for r in field.records} - field.absent - excused
    repeated = sorted({field.entry(n).name for n in seen if seen.count(n) > 1})
    missing = sorted(field.entry(n).name for n in present - set(seen))
    gone = sorted(field.entry(n).name for n in set(seen) & field.absent)
    away = sorted(field.entry(n).name for n in set(seen) & excused)
    problems = [
        f"{label}: {', '.join(names)}"
        for label, names in (
            ("paired twice", repeated),
            ("not paired", missing),
            ("withdrawn", gone),
            ("with a bye already entered for this round", away),
        )
        if names
    ]
    if problems:
        raise errors.PairingFailed(
            "Every active player must be paired once; " + "; ".join(problems) + ".",
            code="manual_pairing_invalid",
        )
    return RoundPairing(pairs=tuple(Pair(a, b) for a, b in numbered), byes=tuple(bye_numbers))


# --- Game results -----------------------------------------------------------------------------


def tournament_game_ended(*, game_id: int, now: datetime | None = None) -> bool:
    """Record how a tournament game ended and move the event on; safe to run twice.

    Called (through a Celery task) when games send ``game_ended``. Returns False for a game
    that is not a tournament game.
    """
    tournament_id = (
        TournamentGame.objects.filter(game_id=game_id).values_list("tournament_id", flat=True)
    ).first()
    if tournament_id is None:
        return False
    with transaction.atomic():
        tournament = _tournament_locked(tournament_id)
        link = (
            TournamentGame.objects.select_for_update(of=("self",))
            .select_related("game", "round", "match")
            .get(game_id=game_id)
        )
        _game_result_record(tournament, link, now=now or timezone.now())
    return True


def _game_result_record(tournament: Tournament, link: TournamentGame, *, now: datetime) -> None:
    """Copy the game's end into ``link.result`` (unless fixed), then settle its knockout
    match and its round."""
    assert link.game is not None
    result = result_of_game(game=link.game)
    if not link.result_fixed and result != link.result:
        link.result = result
        link.needs_adjudication = link.needs_adjudication and result == Result.PENDING
        link.save(update_fields=["result", "needs_adjudication"])
    if tournament.status != Tournament.Status.RUNNING:
        return
    if link.match_id is not None:
        _knockout_match_settle(tournament, link.match, now=now)
    _withdraw_forfeiters(tournament, link, now=now)
    _round_complete_if_done(tournament, link.round, now=now)


_FORFEIT_LOSSES = {
    "orange": (Result.BLUE_FORFEIT_WIN, Result.DOUBLE_FORFEIT),
    "blue": (Result.ORANGE_FORFEIT_WIN, Result.DOUBLE_FORFEIT),
}


def _withdraw_forfeiters(tournament: Tournament, link: TournamentGame, *, now: datetime) -> None:
    """A Swiss player who has now lost ``forfeits_to_withdraw`` games by forfeit is treated
    as withdrawn (not answering): they are not paired again."""
    limit = tournament.forfeits_to_withdraw
    if tournament.format != Tournament.Format.SWISS or limit is None:
        return
    for side in ("orange", "blue"):
        if link.result not in _FORFEIT_LOSSES[side]:
            continue
        entry = Entry.objects.get(pk=getattr(link, f"{side}_id"))
        if entry.status != Entry.Status.ACTIVE:
            continue
        lost = TournamentGame.objects.filter(
            Q(orange=entry, result__in=_FORFEIT_LOSSES["orange"])
            | Q(blue=entry, result__in=_FORFEIT_LOSSES["blue"]),
            tournament=tournament,
        ).count()
        if lost >= limit:
            _withdraw(tournament, entry, status=Entry.Status.WITHDRAWN, now=now)


def result_of_game(*, game: Game) -> str:
    """The tournament result of a game as it stands.

    A timeout is a loss like any other. A game that ended with no move made (annulled as
    unstarted, or lost on time or by resignation at ply 0) is a forfeit: the player who did
    not move loses without the game counting as played. A game a moderator annulled is
    cancelled. An active game is pending.
    """
    if game.status == Game.Status.ACTIVE:
        return Result.PENDING
    if game.status == Game.Status.ANNULLED:
        if _annulled_by_moderator(game):
            return Result.CANCELLED
        return Result.BLUE_FORFEIT_WIN  # unstarted: Orange, to move, never moved
    no_move = game.ply == 0 and game.termination != Game.Termination.ADJUDICATION
    if no_move and game.result == GameResult.ORANGE_WINS:
        return Result.ORANGE_FORFEIT_WIN
    if no_move and game.result == GameResult.BLUE_WINS:
        return Result.BLUE_FORFEIT_WIN
    return game.result


def _annulled_by_moderator(game: Game) -> bool:
    return AuditEntry.objects.filter(
        action=games_audit.GAME_ANNUL,
        target_content_type__app_label="games",
        target_content_type__model="game",
        target_object_id=str(game.pk),
    ).exists()


def _round_complete_if_done(tournament: Tournament, rnd: Round, *, now: datetime) -> None:
    """Mark ``rnd`` complete once every game is decided (and every knockout match), tell
    the organiser, then start the next round or finish the event."""
    rnd.refresh_from_db(fields=["status"])
    if rnd.status != Round.Status.RUNNING:
        return
    if rnd.games.filter(result=Result.PENDING).exists():
        return
    if tournament.is_knockout and rnd.matches.filter(winner__isnull=True).exists():
        return
    rnd.status = Round.Status.COMPLETE
    rnd.completed_at = now
    rnd.save(update_fields=["status", "completed_at"])
    notification_events.on_tournament_organiser_news(
        tournament=tournament,
        kind="round_complete",
        key=f"round:{rnd.number}",
        context={"round_number": rnd.number},
    )
    if not tournament.rounds.exclude(status=Round.Status.COMPLETE).exists():
        _finish(tournament, now=now)
    else:
        _rounds_start_due(tournament, now=now)


# --- Withdrawals -----------------------------------------------------------------------------


@transaction.atomic
def entry_withdraw(*, tournament_id: int, user: User, now: datetime | None = None) -> Entry:
    """``user`` leaves a running tournament (before the start, use ``registration_cancel``).

    Their running games are resigned. Then the event's withdrawal policy applies: under the
    half rule (as in correspondence events) a round robin player who played less than half
    their games has all their results cancelled, otherwise their remaining games are lost by
    forfeit. In a knockout their opponent goes through; in a Swiss they are not paired again.
    """
    tournament = _tournament_locked(tournament_id)
    _require_status(tournament, Tournament.Status.RUNNING, doing="withdraw")
    entry = tournament.entries.filter(player=user, status=Entry.Status.ACTIVE).first()
    if entry is None:
        raise errors.NotInTournament(f"You are not playing in {tournament}.")
    _withdraw(tournament, entry, status=Entry.Status.WITHDRAWN, now=now or timezone.now())
    return entry


@transaction.atomic
def entry_remove(*, entry_id: int, actor: User, reason: str, now: datetime | None = None) -> Entry:
    """The organiser removes a player (audited with the reason).

    Before the start the entry is simply marked removed; once running, it is a withdrawal
    under the event's policy.
    """
    entry = _entry_with_tournament_locked(entry_id)
    tournament = entry.tournament
    _require_manager(tournament, actor, permission=MANAGE_ENTRIES_PERMISSION)
    reason = _require_reason(reason)
    if entry.status in (Entry.Status.WITHDRAWN, Entry.Status.REMOVED):
        raise errors.WrongStatus(
            f"{entry.name} has already left ({entry.get_status_display().lower()}).",
            code="entry_already_left",
        )
    previous = entry.status
    if tournament.status == Tournament.Status.RUNNING and entry.status == Entry.Status.ACTIVE:
        _withdraw(tournament, entry, status=Entry.Status.REMOVED, now=now or timezone.now())
    else:
        _require_status(
            tournament,
            Tournament.Status.DRAFT,
            Tournament.Status.REGISTRATION,
            Tournament.Status.RUNNING,
            doing="remove a player",
        )
        entry.status = Entry.Status.REMOVED
        entry.save(update_fields=["status"])
    audit_record(
        actor=actor,
        action=audit.TOURNAMENT_REMOVE,
        target=entry,
        reason=reason,
        data={"tournament": tournament.pk, "previous_status": previous},
    )
    return entry


def _withdraw(tournament: Tournament, entry: Entry, *, status: str, now: datetime) -> None:
    last_round = tournament.rounds.exclude(status=Round.Status.PLANNED).order_by("-number").first()
    mine = list(
        TournamentGame.objects.select_related("game", "round", "match").filter(
            Q(orange=entry) | Q(blue=entry), tournament=tournament
        )
    )
    cancel = tournament.is_round_robin and (
        tournament.withdrawal_policy == Tournament.WithdrawalPolicy.CANCEL_ALL
        or (
            tournament.withdrawal_policy == Tournament.WithdrawalPolicy.HALF_RULE
            and _played_less_than_half(tournament, entry, mine)
        )
    )
    entry.status = status
    entry.withdrawn_at = now
    entry.withdrawn_after_round = last_round.number if last_round else 0
    entry.results_cancelled = cancel
    entry.save(
        update_fields=["status", "withdrawn_at", "withdrawn_after_round", "results_cancelled"]
    )
    # Byes entered ahead lapse: a withdrawn player scores nothing more.
    Bye.objects.filter(entry=entry, round__status=Round.Status.PLANNED).delete()
    for link in mine:
        if cancel:
            link.result, link.result_fixed = Result.CANCELLED, True
        elif link.result == Result.PENDING:
            orange_left = link.orange_id == entry.pk
            link.result = Result.BLUE_FORFEIT_WIN if orange_left else Result.ORANGE_FORFEIT_WIN
            link.result_fixed = True
        else:
            continue
        link.save(update_fields=["result", "result_fixed"])
        if link.game is not None and link.game.is_active:
            game_services.game_resign(game_id=link.game.pk, user=entry.player, now=now)
    notification_events.on_tournament_withdrawn(
        tournament=tournament, entry=entry, results_cancelled=cancel
    )
    if tournament.is_knockout:
        for match in KnockoutMatch.objects.filter(
            Q(higher=entry) | Q(lower=entry), winner__isnull=True, round__tournament=tournament
        ):
            _knockout_match_settle(tournament, match, now=now)
    for rnd in tournament.rounds.filter(status=Round.Status.RUNNING):
        _round_complete_if_done(tournament, rnd, now=now)


def _played_less_than_half(
    tournament: Tournament, entry: Entry, links: list[TournamentGame]
) -> bool:
    """Whether ``entry`` played (over the board) less than half their scheduled games."""
    size = tournament.entries.filter(section=entry.section, seed__isnull=False).count()
    scheduled = (size - 1) * tournament.cycles
    played = sum(
        1 for link in links if link.result in (Result.ORANGE_WINS, Result.BLUE_WINS, Result.DRAW)
    )
    return 2 * played < scheduled


# --- Swiss: byes ahead of a round, absences, forbidden pairs ---------------------------------


def _swiss_round_to_come(tournament: Tournament, round_number: int | None) -> Round:
    """A round of a running Swiss not paired yet (the next one when ``round_number`` is
    None); refused otherwise, naming why."""
    _require_status(tournament, Tournament.Status.RUNNING, doing="enter a bye")
    if tournament.format != Tournament.Format.SWISS:
        raise errors.WrongStatus(
            "Byes ahead of a round are for Swiss events: other formats are paired in advance.",
            code="byes_swiss_only",
        )
    rounds = tournament.rounds.filter(status=Round.Status.PLANNED).order_by("number")
    rnd = rounds.first() if round_number is None else rounds.filter(number=round_number).first()
    if rnd is None:
        raise errors.WrongStatus(
            f"Round {round_number or 'next'} of {tournament} is not waiting to be paired: "
            "a bye can only be entered before its round is paired.",
            code="round_paired",
        )
    return rnd


@transaction.atomic
def bye_request(*, tournament_id: int, user: User, round_number: int | None = None) -> Bye:
    """``user`` asks for a half-point bye in a Swiss round not paired yet (the next one by
    default), within the event's ``half_point_byes_max``; they are not paired that round."""
    tournament = _tournament_locked(tournament_id)
    rnd = _swiss_round_to_come(tournament, round_number)
    entry = tournament.entries.filter(player=user, status=Entry.Status.ACTIVE).first()
    if entry is None:
        raise errors.NotInTournament(f"You are not playing in {tournament}.")
    if rnd.byes.filter(entry=entry).exists():
        raise errors.WrongStatus(
            f"You already have a bye in round {rnd.number}.", code="bye_already_entered"
        )
    taken = entry.byes.filter(kind=Bye.Kind.HALF, round__number__gte=entry.joined_round).count()
    if taken >= tournament.half_point_byes_max:
        raise errors.WrongStatus(
            f"{tournament} allows {tournament.half_point_byes_max} half-point bye(s) per "
            f"player; you have had {taken}.",
            code="bye_limit_reached",
        )
    return Bye.objects.create(round=rnd, entry=entry, kind=Bye.Kind.HALF)


@transaction.atomic
def bye_request_cancel(*, tournament_id: int, user: User, round_number: int) -> None:
    """``user`` takes back their half-point bye for a round not paired yet."""
    tournament = _tournament_locked(tournament_id)
    rnd = _swiss_round_to_come(tournament, round_number)
    deleted, _ = rnd.byes.filter(entry__player=user, kind=Bye.Kind.HALF).delete()
    if not deleted:
        raise errors.NotInTournament(
            f"You have no half-point bye in round {round_number}.", code="no_bye"
        )


@transaction.atomic
def bye_enter(
    *,
    tournament_id: int,
    actor: User,
    entry_id: int,
    kind: str,
    reason: str,
    round_number: int | None = None,
) -> Bye:
    """The organiser enters a bye ahead of a Swiss round not paired yet: ``Z`` (absent, no
    points), ``H`` (half a point, outside the players' limit) or ``F`` (a full point).
    Audited with the reason; the player is not paired that round."""
    entry = _entry_with_tournament_locked(entry_id)
    tournament = entry.tournament
    _require_manager(tournament, actor, permission=MANAGE_ENTRIES_PERMISSION)
    reason = _require_reason(reason)
    rnd = _swiss_round_to_come(tournament, round_number)
    if kind not in (Bye.Kind.ZERO, Bye.Kind.HALF, Bye.Kind.FULL):
        raise errors.InvalidSettings(
            f"kind {kind!r} is not one of Z (absent), H (half point), F (full point).",
            code="invalid_bye_kind",
        )
    if entry.status != Entry.Status.ACTIVE:
        raise errors.WrongStatus(
            f"{entry.name} is {entry.get_status_display().lower()}, not playing.",
            code="entry_not_active",
        )
    bye, _ = Bye.objects.update_or_create(round=rnd, entry=entry, defaults={"kind": kind})
    audit_record(
        actor=actor,
        action=audit.TOURNAMENT_BYE,
        target=entry,
        reason=reason,
        data={"tournament": tournament.pk, "round": rnd.number, "kind": kind},
    )
    return bye


@transaction.atomic
def forbidden_pairs_set(
    *, tournament_id: int, actor: User, pairs: Sequence[tuple[int, int]], reason: str = ""
) -> Tournament:
    """The organiser lists the pairs of entries (by id) who must never meet in a Swiss (same
    club, same family), replacing the previous list; rounds paired later honour it.
    Audited once the event runs."""
    tournament = _tournament_locked(tournament_id)
    _require_manager(tournament, actor, permission=MANAGE_ENTRIES_PERMISSION)
    _require_status(
        tournament,
        Tournament.Status.DRAFT,
        Tournament.Status.REGISTRATION,
        Tournament.Status.RUNNING,
        doing="set forbidden pairs",
    )
    if tournament.format != Tournament.Format.SWISS:
        raise errors.InvalidSettings(
            "Forbidden pairs are for Swiss events (other formats do not pair by score).",
            code="forbidden_pairs_swiss_only",
        )
    running = tournament.status == Tournament.Status.RUNNING
    reason = _require_reason(reason) if running else reason.strip()
    known = set(tournament.entries.values_list("pk", flat=True))
    cleaned: set[tuple[int, int]] = set()
    for a, b in pairs:
        if a == b:
            raise errors.InvalidSettings(
                f"Entry #{a} is paired with itself.", code="forbidden_pair_invalid"
            )
        strangers = sorted({a, b} - known)
        if strangers:
            raise errors.InvalidSettings(
                f"Entry #{strangers[0]} is not a player of {tournament}.", code="unknown_entry"
            )
        cleaned.add((min(a, b), max(a, b)))
    tournament.forbidden_pairs = [list(pair) for pair in sorted(cleaned)]
    tournament.save(update_fields=["forbidden_pairs"])
    if running:
        audit_record(
            actor=actor,
            action=audit.TOURNAMENT_FORBIDDEN_PAIRS,
            target=tournament,
            reason=reason,
            data={"pairs": tournament.forbidden_pairs},
        )
    return tournament


# --- Deadlines and the organiser's decisions -------------------------------------------------


def _deadlines_pass(tournament: Tournament, *, now: datetime) -> list[int]:
    """Flag the unfinished games of rounds (or the event) whose end date passed and tell the
    organiser once per game; returns the flagged tournament-game ids."""
    event_over = tournament.ends_at is not None and tournament.ends_at < now
    overdue = Q() if event_over else Q(round__ends_at__lt=now)
    links = list(
        TournamentGame.objects.select_related("game", "round")
        .filter(overdue, tournament=tournament, result=Result.PENDING, needs_adjudication=False)
        .filter(game__status=Game.Status.ACTIVE)
    )
    for link in links:
        link.needs_adjudication = True
    TournamentGame.objects.bulk_update(links, ["needs_adjudication"])
    if links:
        notification_events.on_tournament_organiser_news(
            tournament=tournament,
            kind="adjudication_needed",
            key="adjudicate:" + ",".join(str(link.pk) for link in links),
            context={"games": [link.game for link in links if link.game]},
        )
    return [link.pk for link in links]


def _link_locked(tournament_game_id: int) -> tuple[Tournament, TournamentGame]:
    tournament_id = (
        TournamentGame.objects.filter(pk=tournament_game_id)
        .values_list("tournament_id", flat=True)
        .first()
    )
    if tournament_id is None:
        raise errors.TournamentGameNotFound(f"There is no tournament game #{tournament_game_id}.")
    tournament = _tournament_locked(tournament_id)
    link = (
        TournamentGame.objects.select_for_update(of=("self",))
        .select_related("game", "round", "match")
        .get(pk=tournament_game_id)
    )
    return tournament, link


@transaction.atomic
def tournament_game_adjudicate(
    *,
    tournament_game_id: int,
    actor: User,
    result: str,
    reason: str,
    now: datetime | None = None,
) -> TournamentGame:
    """The organiser decides a game (usually one past a deadline): ``result`` is 1-0, 0-1 or
    1/2-1/2. The game ends adjudicated; the audit log records who and why."""
    tournament, link = _link_locked(tournament_game_id)
    _require_manager(tournament, actor, permission=ADJUDICATE_PERMISSION)
    _require_status(tournament, Tournament.Status.RUNNING, doing="adjudicate")
    if link.game is None:
        raise errors.WrongStatus("This pairing has no game to adjudicate; fix its result.")
    game_services.game_adjudicate(
        game_id=link.game.pk, actor=actor, result=result, reason=reason, moderator_check=False
    )
    link.game.refresh_from_db()
    link.result_fixed = False
    link.save(update_fields=["result_fixed"])
    _game_result_record(tournament, link, now=now or timezone.now())
    return link


@transaction.atomic
def tournament_result_fix(
    *,
    tournament_game_id: int,
    actor: User,
    result: str,
    reason: str,
    now: datetime | None = None,
) -> TournamentGame:
    """The organiser sets how a pairing counts in the event (any ``TournamentGame.Result``,
    e.g. a forfeit or a cancellation), whatever its game says. Audited with the reason."""
    tournament, link = _link_locked(tournament_game_id)
    _require_manager(tournament, actor, permission=ADJUDICATE_PERMISSION)
    _require_status(
        tournament, Tournament.Status.RUNNING, Tournament.Status.FINISHED, doing="fix a result"
    )
    reason = _require_reason(reason)
    allowed = [value for value in Result.values if value]
    if result not in allowed:
        raise errors.InvalidSettings(
            f"result {result!r} is not one of {', '.join(allowed)}.", code="invalid_result"
        )
    if link.game is not None and link.game.is_active:
        raise errors.WrongStatus(
            "The game is still being played: adjudicate it instead.", code="game_active"
        )
    audit_record(
        actor=actor,
        action=audit.TOURNAMENT_RESULT_FIX,
        target=link,
        reason=reason,
        data={"tournament": tournament.pk, "previous": link.result, "result": result},
    )
    link.result, link.result_fixed = result, True
    link.save(update_fields=["result", "result_fixed"])
    if tournament.status == Tournament.Status.FINISHED:
        _final_standings_store(tournament)
    else:
        _game_result_record(tournament, link, now=now or timezone.now())
    return link


# --- Knockout ---------------------------------------------------------------------------------


def _knockout_bracket(
    tournament: Tournament, rnd: Round, field: SectionField
) -> tuple[BracketMatch, ...]:
    """Round 1: the seeded bracket (byes to the top seeds). Later rounds: the winners of the
    previous round's matches, in bracket order."""
    try:
        if rnd.number == 1:
            return knockout_bracket(len(field.entries))
        winners = (
            KnockoutMatch.objects.filter(round__tournament=tournament, round__number=rnd.number - 1)
            .order_by("number")
            .values_list("winner_id", flat=True)
        )
        return knockout_next_round([field.number_of(w) for w in winners])
    except PairingError as exc:
        raise errors.PairingFailed(f"Round {rnd.number} cannot be paired: {exc}") from None


def _knockout_pairing(bracket: Sequence[BracketMatch]) -> RoundPairing:
    """The first pair of games of every match (one game with each colour, both at once);
    a bye is the higher seed's."""
    pairs: list[Pair] = []
    byes: list[int] = []
    for match in bracket:
        if match.lower_seed is None:
            byes.append(match.higher_seed)
        else:
            higher, lower = match.higher_seed, match.lower_seed
            pairs.extend([Pair(higher, lower), Pair(lower, higher)])
    return RoundPairing(pairs=tuple(pairs), byes=tuple(byes))


def _knockout_matches_create(
    tournament: Tournament, rnd: Round, field: SectionField, bracket: Sequence[BracketMatch]
) -> None:
    """One match per bracket place, linked to its first pair of games (boards 2m-1, 2m of
    the paired matches in order); a bye is a match won at once."""
    links = list(rnd.games.order_by("board"))
    matches = []
    for number, place in enumerate(bracket, start=1):
        bye = place.lower_seed is None
        matches.append(
            KnockoutMatch(
                round=rnd,
                number=number,
                higher=field.entry(place.higher_seed),
                lower=None if bye else field.entry(place.lower_seed),
                pairs_started=0 if bye else 1,
                winner=field.entry(place.higher_seed) if bye else None,
                decided_by=KnockoutMatch.DecidedBy.BYE if bye else KnockoutMatch.DecidedBy.NONE,
            )
        )
    KnockoutMatch.objects.bulk_create(matches)
    paired = [match for match in matches if match.lower_id is not None]
    for index, match in enumerate(paired):
        for link in links[2 * index : 2 * index + 2]:
            link.match = match
    TournamentGame.objects.bulk_update(links, ["match"])
    for match in paired:
        _knockout_match_settle(tournament, match, now=rnd.started_at or timezone.now())


def _knockout_match_settle(tournament: Tournament, match: KnockoutMatch, *, now: datetime) -> None:
    """Decide ``match`` if it can be (a withdrawal, a pair won, the decider after the extra
    pairs), start its next pair of games if tied, or ask the organiser to decide."""
    match = KnockoutMatch.objects.select_related("round", "higher", "lower").get(pk=match.pk)
    if match.winner_id is not None:
        return
    higher, lower = match.higher, match.lower
    assert lower is not None
    gone = (Entry.Status.WITHDRAWN, Entry.Status.REMOVED)
    if higher.status in gone or lower.status in gone:
        winner = lower if higher.status in gone else higher
        _knockout_match_decided(match, winner, KnockoutMatch.DecidedBy.WITHDRAWAL)
        return
    links = list(match.games.order_by("pair", "board"))
    seed = {higher.pk: 1, lower.pk: 2}
    state = decide_match(
        higher_seed=1,
        lower_seed=2,
        games=[
            MatchGame(seed[link.orange_id], seed[link.blue_id], *_match_points(link.result))
            for link in links
        ],
        policy=MatchPolicy(
            max_extra_pairs=tournament.knockout_extra_pairs,
            decider=TieDecider(tournament.knockout_decider),
        ),
    )
    if state.winner is not None:
        how = (
            KnockoutMatch.DecidedBy.GAMES
            if state.decided_by == MatchDecision.GAMES
            else KnockoutMatch.DecidedBy.HIGHER_SEED
        )
        _knockout_match_decided(match, higher if state.winner == 1 else lower, how)
    elif state.games_to_start:
        _knockout_pair_start(tournament, match, now=now)
    elif state.awaiting_organiser:
        notification_events.on_tournament_organiser_news(
            tournament=tournament,
            kind="decision_needed",
            key=f"match:{match.pk}",
            context={"match": match, "higher_name": higher.name, "lower_name": lower.name},
        )


def _match_points(result: str) -> tuple[Fraction | None, Fraction | None]:
    """Each side's points in a match game: None while it runs; a cancelled game scores 0-0."""
    if result == Result.PENDING:
        return None, None
    return {
        Result.ORANGE_WINS: (Fraction(1), Fraction(0)),
        Result.ORANGE_FORFEIT_WIN: (Fraction(1), Fraction(0)),
        Result.BLUE_WINS: (Fraction(0), Fraction(1)),
        Result.BLUE_FORFEIT_WIN: (Fraction(0), Fraction(1)),
        Result.DRAW: (Fraction(1, 2), Fraction(1, 2)),
    }.get(result, (Fraction(0), Fraction(0)))


def _knockout_match_decided(match: KnockoutMatch, winner: Entry, how: str) -> None:
    match.winner, match.decided_by = winner, how
    match.save(update_fields=["winner", "decided_by"])


def _knockout_pair_start(tournament: Tournament, match: KnockoutMatch, *, now: datetime) -> None:
    """Start the next pair of games of a tied match, both at once."""
    rnd = match.round
    board = (rnd.games.order_by("-board").values_list("board", flat=True).first() or 0) + 1
    higher, lower = match.higher, match.lower
    assert lower is not None
    sides = [(higher, lower), (lower, higher)]
    games = game_services.games_start_many(
        pairs=[(orange.player, blue.player) for orange, blue in sides],
        rated=tournament.rated,
        public=tournament.public,
        window_forfeit=tournament.window_forfeit,
        time_control=tournament.time_control,
        now=now,
    )
    match.pairs_started += 1
    match.save(update_fields=["pairs_started"])
    TournamentGame.objects.bulk_create(
        TournamentGame(
            tournament=tournament,
            round=rnd,
            game=game,
            orange=orange,
            blue=blue,
            board=board + index,
            match=match,
            pair=match.pairs_started,
        )
        for index, (game, (orange, blue)) in enumerate(zip(games, sides, strict=True))
    )
    for game in games:
        notification_events.on_game_started(game)
        notification_events.on_turn(game)


@transaction.atomic
def knockout_match_decide(
    *,
    match_id: int,
    actor: User,
    winner_entry_id: int,
    reason: str,
    now: datetime | None = None,
) -> KnockoutMatch:
    """The organiser decides a tied knockout match (events whose decider is the organiser,
    or any undecided match in an emergency). Audited with the reason."""
    round_tournament = (
        KnockoutMatch.objects.filter(pk=match_id)
        .values_list("round__tournament_id", flat=True)
        .first()
    )
    if round_tournament is None:
        raise errors.TournamentGameNotFound(
            f"There is no knockout match #{match_id}.", code="match_not_found"
        )
    tournament = _tournament_locked(round_tournament)
    _require_manager(tournament, actor, permission=ADJUDICATE_PERMISSION)
    _require_status(tournament, Tournament.Status.RUNNING, doing="decide a match")
    reason = _require_reason(reason)
    match = KnockoutMatch.objects.select_related("round", "higher", "lower").get(pk=match_id)
    if match.winner_id is not None:
        raise errors.WrongStatus(f"{match} is already decided.", code="match_decided")
    if winner_entry_id not in (match.higher_id, match.lower_id):
        raise errors.InvalidSettings(
            f"The winner must be one of the match's players (entries {match.higher_id} and "
            f"{match.lower_id}).",
            code="winner_not_in_match",
        )
    winner = match.higher if winner_entry_id == match.higher_id else match.lower
    assert winner is not None
    audit_record(
        actor=actor,
        action=audit.TOURNAMENT_DECIDE,
        target=match,
        reason=reason,
        data={"tournament": tournament.pk, "winner": winner.pk},
    )
    for link in match.games.filter(result=Result.PENDING).select_related("game"):
        if link.game is not None and link.game.is_active:
            game_services.game_annul(
                game_id=link.game.pk, actor=actor, reason=reason, moderator_check=False
            )
        link.result, link.result_fixed = Result.CANCELLED, True
        link.save(update_fields=["result", "result_fixed"])
    _knockout_match_decided(match, winner, KnockoutMatch.DecidedBy.ORGANISER)
    _round_complete_if_done(tournament, match.round, now=now or timezone.now())
    return match


# --- Finish -----------------------------------------------------------------------------------


def _finish(tournament: Tournament, *, now: datetime) -> None:
    """Store the final standings, the winner, and tell every player."""
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tournament.save(update_fields=["status", "finished_at"])
    standings = _final_standings_store(tournament)
    notification_events.on_tournament_finished(tournament=tournament, standings=standings.rows)


def _final_standings_store(tournament: Tournament) -> selectors.Standings:
    """Store each entry's final rank and points and the winner (first of section 1)."""
    standings = selectors.tournament_standings(tournament=tournament)
    rows = {row.entry_id: row for row in standings.rows}
    entries = list(tournament.entries.filter(pk__in=rows))
    for entry in entries:
        entry.final_rank = rows[entry.pk].rank
        points = rows[entry.pk].points
        entry.final_points = Decimal(points.numerator) / Decimal(points.denominator)
    Entry.objects.bulk_update(entries, ["final_rank", "final_points"])
    winner = next((row for row in standings.rows if row.rank == 1 and row.section == 1), None)
    tournament.winner = winner.player if winner is not None else None
    tournament.save(update_fields=["winner"])
    return standings


@transaction.atomic
def tournament_cancel(*, tournament_id: int, actor: User, reason: str) -> Tournament:
    """The organiser calls off an event that has not finished; running games are annulled."""
    tournament = _tournament_locked(tournament_id)
    _require_manager(tournament, actor, permission=ORGANISE_PERMISSION)
    _require_status(
        tournament,
        Tournament.Status.DRAFT,
        Tournament.Status.REGISTRATION,
        Tournament.Status.RUNNING,
        doing="cancel it",
    )
    reason = _require_reason(reason)
    for link in tournament.games.filter(game__status=Game.Status.ACTIVE).select_related("game"):
        assert link.game is not None
        game_services.game_annul(
            game_id=link.game.pk, actor=actor, reason=reason, moderator_check=False
        )
    _cancel(tournament, note=reason, now=timezone.now())
    return tournament


# --- The clock: what the beat task does --------------------------------------------------------


def tournaments_due(*, now: datetime) -> list[int]:
    """Ids of tournaments the beat should look at: due to start, running, or with an end
    date passed (a cheap query; ``tournament_advance`` decides what is really due)."""
    due_start = Q(
        status=Tournament.Status.REGISTRATION,
        start_mode=Tournament.StartMode.AT_DATE,
        starts_at__lte=now,
    )
    return list(
        Tournament.objects.filter(due_start | Q(status=Tournament.Status.RUNNING))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


@transaction.atomic
def tournament_advance(*, tournament_id: int, now: datetime | None = None) -> dict[str, Any]:
    """Do what the clock says is due for one tournament; safe to run any number of times.

    Starts it at its start date; records results of games that ended while a
    notification was lost; starts rounds whose date came; flags games past a round's or the
    event's end date for adjudication. Returns what was done, for logs and tests.
    """
    now = now or timezone.now()
    tournament = _tournament_locked(tournament_id)
    done: dict[str, Any] = {}
    if (
        tournament.status == Tournament.Status.REGISTRATION
        and tournament.start_mode == Tournament.StartMode.AT_DATE
        and tournament.starts_at is not None
        and tournament.starts_at <= now
    ):
        _start(tournament, now=now, automatic=True)
        done["started"] = tournament.status == Tournament.Status.RUNNING
    if tournament.status != Tournament.Status.RUNNING:
        return done
    stale = (
        TournamentGame.objects.select_related("game", "round", "match")
        .filter(tournament=tournament, result=Result.PENDING, result_fixed=False)
        .exclude(game__status=Game.Status.ACTIVE)
        .exclude(game__isnull=True)
    )
    for link in stale:
        _game_result_record(tournament, link, now=now)
        done.setdefault("results_recorded", []).append(link.pk)
    if tournament.status == Tournament.Status.RUNNING:
        started = _rounds_start_due(tournament, now=now)
        if started:
            done["rounds_started"] = started
        flagged = _deadlines_pass(tournament, now=now)
        if flagged:
            done["adjudication_needed"] = flagged
    return done


def tournaments_advance(*, now: datetime, ids: Iterable[int] | None = None) -> dict[int, Any]:
    """Advance each due tournament in a transaction of its own; returns what each did.

    An event that cannot move on (a round that cannot be paired, say) is logged and reported
    as ``{"error": code}`` without holding up the others; the next run tries it again.
    """
    report: dict[int, Any] = {}
    for tournament_id in ids if ids is not None else tournaments_due(now=now):
        try:
            done = tournament_advance(tournament_id=tournament_id, now=now)
        except DomainError as exc:
            logger.warning("Tournament %s cannot move on: %s", tournament_id, exc.detail)
            done = {"error": exc.code}
        if done:
            report[tournament_id] = done
    return report


# --- TRF import -------------------------------------------------------------------------------

_BYE_KINDS = {
    Outcome.PAIRING_BYE: Bye.Kind.PAIRING,
    Outcome.FULL_BYE: Bye.Kind.FULL,
    Outcome.HALF_BYE: Bye.Kind.HALF,
    Outcome.ZERO_BYE: Bye.Kind.ZERO,
}


@transaction.atomic
def _name_free_for_import(base: str, *, now: datetime) -> str:
    """``base``, or if taken ``base`` with the import's date, then with a count: the suffix
    always fits in the 200 characters (two imports of one file in the same second, or a
    long name, must not end in a clash)."""
    taken = Tournament.objects.filter(name__istartswith=base[:150])
    names = {n.casefold() for n in taken.values_list("name", flat=True)}
    candidate, count = base, 1
    while candidate.casefold() in names:
        suffix = f" (imported {now:%Y-%m-%d %H:%M:%S}{f', {count}' if count > 1 else ''})"
        candidate = base[: 200 - len(suffix)] + suffix
        count += 1
    return candidate


def tournament_import_trf(
    *,
    trf: TrfTournament,
    organiser: User,
    name: str = "",
    tiebreaks: Sequence[str] = (),
    tiebreak_edition: str = "2026",
    now: datetime | None = None,
) -> Tournament:
    """A finished event from a TRF file (an older event run elsewhere): its players (no
    accounts needed), rounds, results and byes, and its standings.

    The file's tournament records and other lines are kept so that exporting the event
    gives the file back. ``tiebreaks`` (codes of ``tournaments.standings``) order the
    final standings. A name already taken gets the import's date appended. Raises
    ``InvalidSettings`` (code ``trf_invalid``) naming the round and players of a result the
    two player lines disagree on.
    """
    now = now or timezone.now()
    unknown = selectors.tiebreak_codes_unknown(codes=list(tiebreaks))
    if unknown:
        raise errors.InvalidSettings(
            f"Unknown tie-break(s): {', '.join(unknown)}.", code="unknown_tiebreak"
        )
    base = (name or trf.name or "Imported event").strip()[:200]
    unique = _name_free_for_import(base, now=now)
    tournament = Tournament.objects.create(
        organiser=organiser,
        name=unique,
        format=Tournament.Format.ROUND_ROBIN if trf.round_robin else Tournament.Format.SWISS,
        rounds_planned=trf.rounds or None,
        rated=False,
        public=True,
        min_players=2,
        status=Tournament.Status.FINISHED,
        imported=True,
        tiebreaks=list(tiebreaks),
        tiebreak_edition=tiebreak_edition,
        trf={"header": [list(pair) for pair in trf.header], "extra_lines": list(trf.extra_lines)},
        started_at=now,
        finished_at=now,
    )
    entries = Entry.objects.bulk_create(
        Entry(
            tournament=tournament,
            name=player.name,
            status=Entry.Status.ACTIVE,
            seed=player.number,
            rating_at_start=player.rating,
            extra=dict(player.extra),
        )
        for player in sorted(trf.players, key=lambda p: p.number)
    )
    entry_of = {entry.seed: entry for entry in entries}
    rounds = {
        rnd.number: rnd
        for rnd in Round.objects.bulk_create(
            Round(
                tournament=tournament,
                number=number,
                status=Round.Status.COMPLETE,
                started_at=now,
                completed_at=now,
            )
            for number in range(1, trf.rounds + 1)
        )
    }
    links, byes = _trf_results(trf, tournament, entry_of, rounds)
    TournamentGame.objects.bulk_create(links)
    Bye.objects.bulk_create(byes)
    _final_standings_store(tournament)
    return tournament


def _trf_results(
    trf: TrfTournament,
    tournament: Tournament,
    entry_of: dict[int, Entry],
    rounds: dict[int, Round],
) -> tuple[list[TournamentGame], list[Bye]]:
    by_number = {player.number: player for player in trf.players}
    links: list[TournamentGame] = []
    byes: list[Bye] = []
    boards: dict[int, int] = defaultdict(int)
    for player in sorted(trf.players, key=lambda p: p.number):
        for record in player.rounds:
            if record.round not in rounds:
                raise errors.InvalidSettings(
                    f"Player {player.number} has a result in round {record.round}, but the "
                    f"file declares {trf.rounds} rounds.",
                    code="trf_invalid",
                )
            if record.outcome in _BYE_KINDS:
                byes.append(
                    Bye(
                        round=rounds[record.round],
                        entry=entry_of[player.number],
                        kind=_BYE_KINDS[record.outcome],
                    )
                )
            if record.opponent is None or record.opponent < player.number:
                continue  # no game, or written from the other player's line
            other = next(r for r in by_number[record.opponent].rounds if r.round == record.round)
            first_is_orange = record.colour != Colour.BLUE
            pair = (record.outcome, other.outcome)
            outcomes = pair if first_is_orange else pair[::-1]
            result = RESULT_OF_OUTCOMES.get(outcomes)
            if result is None:
                raise errors.InvalidSettings(
                    f"Round {record.round}: players {player.number} ({record.outcome.value}) "
                    f"and {record.opponent} ({other.outcome.value}) have results that do not "
                    "go together.",
                    code="trf_invalid",
                )
            orange, blue = player.number, record.opponent
            if not first_is_orange:
                orange, blue = blue, orange
            boards[record.round] += 1
            links.append(
                TournamentGame(
                    tournament=tournament,
                    round=rounds[record.round],
                    orange=entry_of[orange],
                    blue=entry_of[blue],
                    board=boards[record.round],
                    result=result,
                    result_fixed=True,
                    colours_unknown=record.colour is None,
                )
            )
    return links, byes
