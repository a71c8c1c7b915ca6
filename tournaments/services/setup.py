"""Setting an event up: create it, change its settings, and check them all together."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.functional import lazy

from games.clock import TimeControl
from games.kinds.pairs import kind_problem
from tournaments import errors, selectors
from tournaments.models import Entry, Tournament
from tournaments.plugins import tournament_format_lookup, tournament_formats
from tournaments.services.common import (
    ORGANISE_PERMISSION,
    User,
    _require_manager,
    _require_status,
    _tournament_locked,
)
from tournaments.services.formats.base import TournamentFormat
from tournaments.services.limits import SETTING_RANGES, rounds_schedule_problem
from tournaments.services.start import _start
from tournaments.standings import EDITIONS

# The settings an organiser chooses; ``tournament_create`` and ``tournament_update`` take them.
SETTING_FIELDS: tuple[str, ...] = (
    "name",
    "description",
    "kind",
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


def _tiebreaks_help() -> str:
    defaults = "; ".join(
        f"{fmt.code.replace('_', ' ')}: {', '.join(fmt.default_tiebreaks) or 'none'}"
        for fmt in sorted(tournament_formats().values(), key=lambda f: f.code)
    )
    return (
        "Tie-break codes in order. Left empty, the format's default, as FIDE C.07 recommends "
        f"({defaults})."
    )


#: What the form and the API say of the tie-break setting, defaults included (lazy: the
#: formats register when the app is ready).
TIEBREAKS_HELP = lazy(_tiebreaks_help, str)()


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
    _tiebreaks_default(tournament)
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
    previous_format = tournament.format
    for field, value in changes.items():
        setattr(tournament, field, value.strip() if field == "name" else value)
    if time_control is not None:
        _set_time_control(tournament, time_control)
    # Tie-breaks left as the old format's default follow the format.
    kept = None if "tiebreaks" in changes else previous_format
    _tiebreaks_default(tournament, previous_format=kept)
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
    _tiebreaks_default(tournament)
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


def _tiebreaks_default(t: Tournament, *, previous_format: str | None = None) -> None:
    """No tie-breaks named means the format's default (``TournamentFormat.default_tiebreaks``);
    so does the previous format's default once the format changes."""
    fmt = tournament_format_lookup(format=t.format)
    if fmt is None:
        return  # an unknown format: ``_validate`` names it
    previous = tournament_format_lookup(format=previous_format) if previous_format else None
    inherited = previous is not None and t.tiebreaks == list(previous.default_tiebreaks)
    if not t.tiebreaks or inherited:
        t.tiebreaks = list(fmt.default_tiebreaks)


def _set_time_control(tournament: Tournament, tc: TimeControl) -> None:
    for field, value in Tournament.time_control_columns(tc).items():
        setattr(tournament, field, value)


def _validate(t: Tournament) -> None:
    """Check every setting and the rules that tie them together; raise all problems at once."""
    problems = _choice_problems(t)
    problems.update(_range_problems(t))
    problems.update(_field_problems(t))
    problems.update(_schedule_problems(t))
    fmt = tournament_format_lookup(format=t.format)
    if fmt is not None:
        problems.update(fmt.settings_problems(t))
        if not problems.keys() & _ROUNDS_FIT_INPUTS:
            problems.update(_rounds_fit_problems(t, fmt))
    if t.round_start_mode == Tournament.RoundStartMode.ON_DATES and not t.round_interval_days:
        problems["round_interval_days"] = "Required when rounds start on their dates."
    if "format" not in problems and (fmt is None or not fmt.pairing_installed()):
        problems["format"] = f"No pairing system is installed for {t.format!r} yet."
    problems.update(_standings_problems(t))
    kind_refusal = kind_problem(t.kind)
    if kind_refusal:
        problems["kind"] = kind_refusal
    try:
        _ = t.time_control  # builds a TimeControl, which checks the clock settings
    except ValueError as exc:
        problems["time_control"] = str(exc)
    if problems:
        summary = "; ".join(f"{field}: {text}" for field, text in problems.items())
        raise errors.InvalidSettings(f"Invalid settings: {summary}", errors=problems)


def _choice_problems(t: Tournament) -> dict[str, str]:
    """Settings that must be one of their choices."""
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
    return problems


def _range_problems(t: Tournament) -> dict[str, str]:
    """Number settings outside their range (``limits.SETTING_RANGES``), each refusal naming
    the range and the value given."""
    problems: dict[str, str] = {}
    for field, allowed in SETTING_RANGES.items():
        value = getattr(t, field)
        may_be_empty = Tournament._meta.get_field(field).null
        if value is None and may_be_empty:
            continue
        if value is None or not allowed.low <= value <= allowed.high:
            problems[field] = f"{allowed.text(may_be_empty=may_be_empty)}; not {value}."
    return problems


def _field_problems(t: Tournament) -> dict[str, str]:
    """The name and the limits on who may enter."""
    problems: dict[str, str] = {}
    if not t.name:
        problems["name"] = "A name is required."
    elif Tournament.objects.filter(name__iexact=t.name).exclude(pk=t.pk).exists():
        problems["name"] = f"There is already a tournament called {t.name!r}."
    if t.max_players is not None and t.max_players < t.min_players:
        problems["max_players"] = f"At least the minimum ({t.min_players}), or empty."
    if t.rating_min is not None and t.rating_max is not None and t.rating_min > t.rating_max:
        problems["rating_max"] = f"At least the minimum rating ({t.rating_min}), or empty."
    return problems


def _schedule_problems(t: Tournament) -> dict[str, str]:
    """The registration window, the start and the end."""
    problems: dict[str, str] = {}
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
    return problems


# The settings ``_rounds_fit_problems`` reads: it waits until they are right themselves.
_ROUNDS_FIT_INPUTS = frozenset(
    {"min_players", "max_players", "section_size", "cycles", "rounds_planned", "format"}
    | {"round_start_mode", "round_interval_days", "starts_at", "ends_at"}
)


def _rounds_fit_problems(t: Tournament, fmt: TournamentFormat) -> dict[str, str]:
    """Rounds on dates from the start date must all start before the end, with the most
    players the event takes (the minimum when it has no maximum); the start checks again
    with the players who came (``TournamentFormat.start_problems``)."""
    if t.starts_at is None:
        return {}
    players = t.max_players or t.min_players
    rounds = fmt.rounds_for(t, players=players)
    late = rounds_schedule_problem(t, players=players, rounds=rounds, start=t.starts_at)
    return {"ends_at": late} if late else {}


def _standings_problems(t: Tournament) -> dict[str, str]:
    """The tie-breaks and their edition."""
    problems: dict[str, str] = {}
    tiebreaks_problem = selectors.tiebreak_codes_problem(codes=t.tiebreaks)
    if tiebreaks_problem:
        problems["tiebreaks"] = tiebreaks_problem
    if t.tiebreak_edition not in EDITIONS:
        problems["tiebreak_edition"] = f"One of {', '.join(EDITIONS)} (FIDE C.07 editions)."
    return problems
