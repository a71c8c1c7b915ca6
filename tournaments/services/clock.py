"""What the beat task does: find the events that may have something due, and move each on
(start it at its date, catch up on results, start rounds, flag games past their deadline)."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from celticsite.errors import DomainError
from games.models import Game
from tournaments import emails
from tournaments.models import Tournament, TournamentGame
from tournaments.services.common import Result, _tournament_locked
from tournaments.services.results import _game_result_record
from tournaments.services.rounds import _pairings_requeue, _rounds_move_on
from tournaments.services.start import _start

logger = logging.getLogger(__name__)


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
        emails.organiser_news(
            tournament=tournament,
            kind=emails.OrganiserNews.ADJUDICATION_NEEDED,
            key="adjudicate:" + ",".join(str(link.pk) for link in links),
            context={"games": [link.game for link in links if link.game]},
        )
    return [link.pk for link in links]


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
    notification was lost; queues the pairing of a round whose date came, and again of one
    whose task was lost (``PAIRING_RETRY_AFTER``); flags games past a round's or the
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
        started = _rounds_move_on(tournament, now=now)
        if started:
            done["rounds_started"] = started
        requeued = _pairings_requeue(tournament, now=now)
        if requeued:
            done["pairing_requeued"] = requeued
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
