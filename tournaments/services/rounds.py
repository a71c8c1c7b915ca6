"""Running the rounds: which round is due, pairing it and starting its games, completing it,
and finishing the event when the last one is complete.

``_rounds_move_on`` moves an event on: it finishes the event once its last round is
complete, else marks the next round that is due "pairing" and queues the task that pairs it
(``tournament_round_pair``, after the commit), so no request waits for a pairing. The task
pairs the round, starts its games and, since a round can be complete as soon as it starts
(only byes and forfeits) and some rounds start before the previous one is complete, moves
the event on in turn. One round is being paired at a time. Completing a round
(``_round_complete_if_done``) only marks it; the callers then move the event on, so nothing
here calls itself back.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from celery import signature
from django.db import transaction
from django.utils import timezone

from celticsite.celery import task_delay_on_commit
from celticsite.errors import DomainError
from games import services as game_services
from games.models import Game
from tournaments import emails, errors, selectors
from tournaments.models import Bye, Entry, Round, Tournament, TournamentGame
from tournaments.pairing.base import Pair, PairingError, RoundPairing
from tournaments.plugins import pairing_system_for, tournament_format_for
from tournaments.records import SectionField, section_fields
from tournaments.services.common import Result, _tournament_locked

#: The Celery task that pairs a round (``tournaments.tasks.pair_round``), queued by name.
PAIR_ROUND_TASK = "tournaments.tasks.pair_round"

#: The beat queues the pairing of a round again once it has waited this long (a task lost
#: with a killed worker); a copy of a task still running waits for the tournament's lock,
#: then finds the round paired and does nothing.
PAIRING_RETRY_AFTER = timedelta(seconds=60)

#: The rounds waiting to be paired in this process (``rounds_paired_in_process``), or None.
_paired_here: ContextVar[list[tuple[int, int]] | None] = ContextVar("paired_here", default=None)

logger = logging.getLogger(__name__)


def _rounds_move_on(tournament: Tournament, *, now: datetime, completed: bool = False) -> list[int]:
    """Queue the pairing of the next planned round if its time has come; returns its number.

    All at once: every round at the start, one after the other. Round by round: the next
    round once the previous one is complete. On dates: the next round at its start date, once
    the previous is complete; a format whose rounds do not depend on results (a round robin)
    starts a round at its date even if the previous one is not complete. Nothing is queued
    while a round is being paired: its task moves the event on when done.
    ``completed``: a round has just been completed, so the event may be over.
    """
    if completed and _rounds_all_complete(tournament):
        _finish(tournament, now=now)
    if tournament.status != Tournament.Status.RUNNING:
        return []
    if tournament.rounds.filter(status=Round.Status.PAIRING).exists():
        return []
    number = _round_next_number(tournament)
    if number is None:
        return []
    rnd = tournament.rounds.filter(number=number).first() or Round(  # made once it is due
        tournament=tournament, number=number, starts_at=_round_planned_start(tournament, number)
    )
    if not _round_due(tournament, rnd, now=now):
        return []
    rnd.status = Round.Status.PAIRING
    rnd.pairing_queued_at = now
    rnd.save()
    _round_pairing_queue(tournament.pk, rnd.number)
    return [rnd.number]


def _round_next_number(tournament: Tournament) -> int | None:
    """The first round not started nor being paired (made or not yet), or None when every
    round has started. Rounds start in order."""
    started = (
        tournament.rounds.exclude(status=Round.Status.PLANNED)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    ) or 0
    return started + 1 if started < (tournament.rounds_planned or 0) else None


def _round_made(tournament: Tournament, number: int) -> Round:
    """Round ``number`` of a running event, made now (planned, with its start date if
    rounds run on dates) if it does not exist yet."""
    rnd, _ = Round.objects.get_or_create(
        tournament=tournament,
        number=number,
        defaults={"starts_at": _round_planned_start(tournament, number)},
    )
    return rnd


def _round_planned_start(tournament: Tournament, number: int) -> datetime | None:
    """When round ``number`` is due if rounds run on dates: ``round_interval_days`` apart
    from the event's start; None otherwise."""
    if tournament.round_start_mode != Tournament.RoundStartMode.ON_DATES:
        return None
    assert tournament.started_at is not None
    return tournament.started_at + (number - 1) * timedelta(
        days=tournament.round_interval_days or 0
    )


@contextmanager
def rounds_paired_in_process() -> Iterator[None]:
    """Within the block, a round due is paired at once in this process instead of by a task
    after the commit, at the time it was marked "pairing" (scripts that play an event
    through, such as the demo commands, and the tests): as a worker would right away, the
    rounds it makes due in turn one after the other, and a round that cannot be paired is
    logged and stays "pairing"."""
    token = _paired_here.set([])
    try:
        yield
    finally:
        _paired_here.reset(token)


def _round_pairing_queue(tournament_id: int, round_number: int) -> None:
    """Queue the task ``pair_round`` (by name: the tasks call the services) for the round
    after the commit; the beat queues it again if the broker is down or the task is lost.
    Within ``rounds_paired_in_process``, pair it here instead."""
    waiting = _paired_here.get()
    if waiting is not None:
        waiting.append((tournament_id, round_number))
        if len(waiting) == 1:  # else a pairing running here made it due: it comes next
            _pairings_run_here(waiting)
        return
    task_delay_on_commit(
        signature(PAIR_ROUND_TASK),
        tournament_id,
        round_number,
        on_outage=f"Could not queue the pairing of round {round_number} of {tournament_id}",
    )


def _pairings_run_here(waiting: list[tuple[int, int]]) -> None:
    try:
        while waiting:
            tournament_id, number = waiting[0]
            queued_at = (
                Round.objects.filter(tournament_id=tournament_id, number=number)
                .values_list("pairing_queued_at", flat=True)
                .first()
            )
            try:
                tournament_round_pair(
                    tournament_id=tournament_id, round_number=number, now=queued_at
                )
            except DomainError as exc:
                logger.warning(
                    "Round %s of tournament %s cannot be paired: %s",
                    number,
                    tournament_id,
                    exc.detail,
                )
            waiting.pop(0)
    finally:
        waiting.clear()


def _pairings_requeue(tournament: Tournament, *, now: datetime) -> list[int]:
    """Queue again the pairing of a round waiting for it longer than ``PAIRING_RETRY_AFTER``
    (the beat's safety net); returns the round numbers."""
    stuck = list(
        tournament.rounds.filter(
            status=Round.Status.PAIRING, pairing_queued_at__lte=now - PAIRING_RETRY_AFTER
        )
    )
    for rnd in stuck:
        rnd.pairing_queued_at = now
        rnd.save(update_fields=["pairing_queued_at"])
        _round_pairing_queue(tournament.pk, rnd.number)
    return [rnd.number for rnd in stuck]


def tournament_pairings_resume() -> int:
    """Queue the pairing of every round marked "pairing" (a worker starting: a task it held
    when killed may be lost); returns how many were queued."""
    stuck = list(
        Round.objects.filter(
            status=Round.Status.PAIRING, tournament__status=Tournament.Status.RUNNING
        ).values_list("tournament_id", "number")
    )
    for tournament_id, number in stuck:
        _round_pairing_queue(tournament_id, number)
    return len(stuck)


def tournament_round_pair(
    *, tournament_id: int, round_number: int, now: datetime | None = None
) -> bool:
    """Pair a round marked "pairing", start its games, and move the event on (the task
    ``pair_round``). Safe to run twice, even at once: under the tournament's lock, a round
    no longer pairing is left alone. Returns whether it paired the round.

    A round that cannot be paired (``PairingFailed``, raised) stays "pairing": the organiser
    is told once, the beat tries again, and the organiser may pair it by hand.
    """
    try:
        return _round_pair(tournament_id, round_number, now=now)
    except errors.PairingFailed as exc:
        tournament = Tournament.objects.get(pk=tournament_id)
        emails.organiser_news(
            tournament=tournament,
            kind=emails.OrganiserNews.PAIRING_FAILED,
            key=f"pairing:{round_number}",
            context={"round_number": round_number, "problem": exc.detail},
        )
        raise


def _round_pair(tournament_id: int, round_number: int, *, now: datetime | None) -> bool:
    with transaction.atomic():
        tournament = _tournament_locked(tournament_id)
        rnd = tournament.rounds.filter(number=round_number).first()
        if (
            tournament.status != Tournament.Status.RUNNING
            or rnd is None
            or rnd.status != Round.Status.PAIRING
        ):
            return False
        now = now or timezone.now()
        _round_start(tournament, rnd, now=now)
        _rounds_move_on(
            tournament, now=now, completed=_round_complete_if_done(tournament, rnd, now=now)
        )
    return True


def _rounds_all_complete(tournament: Tournament) -> bool:
    """Every round is made (a Swiss makes them as they come) and complete."""
    return (
        _round_next_number(tournament) is None
        and not tournament.rounds.exclude(status=Round.Status.COMPLETE).exists()
    )


def _round_settle(tournament: Tournament, rnd: Round, *, now: datetime) -> None:
    """Complete ``rnd`` if every game (and match) is decided, then finish the event or queue
    the round now due."""
    if _round_complete_if_done(tournament, rnd, now=now):
        _rounds_move_on(tournament, now=now, completed=True)


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
    independent = tournament_format_for(format=tournament.format).independent_rounds
    return date_reached and (previous_complete or independent)


# --- Pairing and starting a round -----------------------------------------------------------


def _round_start(
    tournament: Tournament,
    rnd: Round,
    *,
    now: datetime,
    pairings: dict[int, RoundPairing] | None = None,
) -> None:
    """Pair ``rnd`` (or use the organiser's ``pairings`` per section) and start its games.

    Completing the round is the caller's: a round of byes and forfeits only is complete at
    once."""
    fmt = tournament_format_for(format=tournament.format)
    plans = [
        fmt.round_pair(tournament, rnd, field, given=(pairings or {}).get(field.section))
        for field in section_fields(tournament)
    ]
    rnd.status = Round.Status.RUNNING
    rnd.pairing_queued_at = None
    rnd.started_at = now
    if tournament.round_duration_days and rnd.ends_at is None:  # the organiser's date wins
        rnd.ends_at = now + timedelta(days=tournament.round_duration_days)
    rnd.save(update_fields=["status", "pairing_queued_at", "started_at", "ends_at"])
    games: list[Game] = []
    bye_users = []
    for plan in sorted(plans, key=lambda plan: plan.field.section):
        created, byes = _round_games_create(tournament, rnd, plan.field, plan.pairing, now=now)
        games.extend(created)
        bye_users.extend(bye.entry.player for bye in byes if bye.entry.player is not None)
        fmt.round_games_created(tournament, rnd, plan)
    emails.round_started(
        tournament_name=tournament.name, round_number=rnd.number, games=games, byes=bye_users
    )


def _pair_by_system(
    tournament: Tournament, rnd: Round, field: SectionField, *, total: int, **options: Any
) -> RoundPairing:
    """Pair ``rnd`` of one section with the pairing system installed for the format."""
    system = pairing_system_for(format=tournament.format)
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
        kind=tournament.kind,
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
    bye_kind = tournament_format_for(format=tournament.format).bye_kind
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


def _round_complete_if_done(tournament: Tournament, rnd: Round, *, now: datetime) -> bool:
    """Mark ``rnd`` complete once every game is decided (and whatever else its format waits
    for, a knockout's matches) and tell the organiser; True if it is complete now."""
    rnd.refresh_from_db(fields=["status"])
    if rnd.status != Round.Status.RUNNING:
        return False
    if not tournament_format_for(format=tournament.format).round_complete(rnd):
        return False
    rnd.status = Round.Status.COMPLETE
    rnd.completed_at = now
    rnd.save(update_fields=["status", "completed_at"])
    emails.organiser_news(
        tournament=tournament,
        kind=emails.OrganiserNews.ROUND_COMPLETE,
        key=f"round:{rnd.number}",
        context={"round_number": rnd.number},
    )
    return True


# --- Finish -----------------------------------------------------------------------------------


def _finish(tournament: Tournament, *, now: datetime) -> None:
    """Store the final standings, the winner, and tell every player."""
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tournament.save(update_fields=["status", "finished_at"])
    standings = _final_standings_store(tournament)
    emails.finished(tournament=tournament, standings=standings.rows)


def _final_standings_store(tournament: Tournament) -> selectors.Standings:
    """Store each entry's final rank and points, and the winner: the one player first in
    section 1, or none when the tie-breaks leave several sharing first place."""
    standings = selectors.tournament_standings(tournament=tournament)
    rows = {row.entry_id: row for row in standings.rows}
    entries = list(tournament.entries.filter(pk__in=rows))
    for entry in entries:
        entry.final_rank = rows[entry.pk].rank
        points = rows[entry.pk].points
        entry.final_points = Decimal(points.numerator) / Decimal(points.denominator)
    Entry.objects.bulk_update(entries, ["final_rank", "final_points"])
    first = [row for row in standings.rows if row.rank == 1 and row.section == 1]
    tournament.winner = first[0].player if len(first) == 1 else None
    tournament.save(update_fields=["winner"])
    return standings
