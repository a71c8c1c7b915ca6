"""Entering an event: registration, invitations, the organiser's approval, and late entries
to a running event whose format takes them."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from tournaments import errors, selectors
from tournaments.models import Bye, Entry, Round, Tournament
from tournaments.plugins import tournament_format_for
from tournaments.services.common import (
    MANAGE_ENTRIES_PERMISSION,
    ORGANISE_PERMISSION,
    STATUS_PHRASES,
    User,
    _entry_with_tournament_locked,
    _require_manager,
    _require_status,
    _tournament_locked,
)
from tournaments.services.rounds import _round_made
from tournaments.services.setup import _validate
from tournaments.services.start import _start


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
    """A late entry to a running event (a Swiss that takes them): seated at once (or
    waiting for approval), with a bye of the event's kind for every round already paired."""
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
    nxt = next(iter(selectors.tournament_rounds_to_come(tournament=tournament)), None)
    last = tournament_format_for(format=tournament.format).late_entries_until(tournament)
    if last is None:
        raise _refuse("registration_closed", f"{tournament} has started: it takes no late entries.")
    if nxt is None or nxt > last:
        raise _refuse(
            "late_entry_closed",
            f"{tournament} took late entries until round {last} was paired.",
        )
    return _round_made(tournament, nxt)


def _late_seat(tournament: Tournament, entry: Entry) -> None:
    """Give a late entrant the next starting number (the others keep theirs), their rating,
    and a bye (the event's ``late_entry_bye``) for each round already paired."""
    first = _late_round_open(tournament)
    last_seed = tournament.entries.filter(seed__isnull=False).order_by("-seed").first()
    rating = (
        selectors.player_ratings(users=[entry.player], kind=tournament.kind) if entry.player else {}
    )
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
        rating = selectors.player_rating(user=user, kind=tournament.kind)
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
    if tournament.status == Tournament.Status.RUNNING:  # a late entry
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
    if tournament.status == Tournament.Status.RUNNING:
        raise errors.WrongStatus(
            f"{tournament.name} has started, so a registration can no longer be cancelled; "
            "withdraw from the event instead."
        )
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise errors.WrongStatus(
            f"{tournament.name} is {STATUS_PHRASES[Tournament.Status(tournament.status)]}, "
            "so there is nothing left to withdraw from."
        )
    deleted, _ = (
        tournament.entries.filter(player=user).exclude(status=Entry.Status.REMOVED).delete()
    )
    if not deleted:
        raise errors.NotInTournament(f"You are not registered in {tournament}.")
