"""Starting an event: seeding the players, making its rounds, or cancelling it when too few
came."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from tournaments import emails, errors, selectors
from tournaments.models import Entry, Round, Tournament
from tournaments.pairing.sections import snake_sections
from tournaments.plugins import tournament_format_for
from tournaments.services.common import (
    ORGANISE_PERMISSION,
    User,
    _require_manager,
    _require_status,
    _tournament_locked,
)
from tournaments.services.rounds import _round_planned_start, _rounds_move_on
from tournaments.standings.records import PlayerRecord


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

    An automatic start with too few players, or too few for the format (a Swiss with as many
    rounds as players), cancels the event (and says why); a start by the organiser raises
    ``TooFewPlayers`` or ``InvalidSettings`` instead.
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
    problems = tournament_format_for(format=tournament.format).start_problems(
        tournament, players=len(entries), now=now
    )
    if problems:
        if not automatic:
            summary = "; ".join(f"{field}: {text}" for field, text in problems.items())
            raise errors.InvalidSettings(f"Invalid settings: {summary}", errors=problems)
        _cancel(
            tournament, note=f"{tournament} cannot start: {' '.join(problems.values())}", now=now
        )
        return
    _seed(tournament, entries)
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now
    tournament.save(update_fields=["status", "started_at"])
    tournament.entries.filter(status__in=[Entry.Status.PENDING, Entry.Status.INVITED]).update(
        status=Entry.Status.DECLINED
    )
    _rounds_create(tournament)
    _rounds_move_on(tournament, now=now)


def _cancel(tournament: Tournament, *, note: str, now: datetime) -> None:
    tournament.status = Tournament.Status.CANCELLED
    tournament.status_note = note[:300]
    tournament.finished_at = now
    tournament.save(update_fields=["status", "status_note", "finished_at"])
    emails.finished(tournament=tournament)


def _seed(tournament: Tournament, entries: list[Entry]) -> None:
    """Ratings at start, seeds (1 = highest rated; unrated last, by registration), sections."""
    players = [e.player for e in entries if e.player]
    ratings = selectors.player_ratings(users=players, kind=tournament.kind)
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


def _rounds_create(tournament: Tournament) -> None:
    """The rounds of the event, each with its planned start date if rounds run on dates;
    a format that makes its rounds as they come (a Swiss) makes none here, and only the
    number of rounds is stored."""
    fmt = tournament_format_for(format=tournament.format)
    total = fmt.rounds_total(tournament)
    if tournament.rounds_planned != total:  # the organiser's number stands (a Swiss)
        tournament.rounds_planned = total
        tournament.save(update_fields=["rounds_planned"])
    if not fmt.rounds_made_at_start:
        return
    Round.objects.bulk_create(
        Round(
            tournament=tournament, number=number, starts_at=_round_planned_start(tournament, number)
        )
        for number in range(1, total + 1)
    )
