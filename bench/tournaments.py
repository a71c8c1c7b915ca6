"""Benchmark: standings of a 500-player event and starting a round of 250 games.

    .venv/bin/python -m bench.tournaments [--players 500] [--rounds 11] [--seed 1] [--repeat 3]
        [--database-url postgres://postgres@127.0.0.1:5432/celtic_bench]

1. Standings with every tie-break (``tournaments.standings.TIEBREAKS``) of a 500-player,
   11-round event with random pairings and results (30 % draws): the pure
   ``compute_standings``, then ``selectors.tournament_standings`` on a fresh SQLite database
   (reading the entries, games and byes), and the possible places after round 8.
2. ``services.tournament_start`` of a 500-player round robin on the same database (the
   organiser's request: seeds, 499 rounds, round 1 marked "pairing"), then the task that
   pairs round 1 (``services.tournament_round_pair``): its 250 games through
   ``games_start_many``, the round-start and your-turn emails queued in the outbox (750
   rows).
3. A 60-player round robin with every round at once (issue 27: 1,770 games, 36.9 s in the
   start request before): the start request, then the 59 pairing tasks it chains (each
   queues the next; here run one after the other in this process).

The database is a fresh SQLite file, or with ``--database-url`` an existing PostgreSQL
database that is **flushed** first (a disposable one). Times are the best of ``--repeat``
runs (wall clock, one core). Prints the lines pasted into the "Tournaments" section of
docs/BENCHMARKS.md. Timings never go into tests.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from tournaments.standings import TIEBREAKS, compute_standings
from tournaments.standings.records import Colour, Outcome, PlayerRecord, RoundRecord

OUTCOMES = {
    "1-0": (Outcome.WIN, Outcome.LOSS),
    "1/2-1/2": (Outcome.DRAW, Outcome.DRAW),
    "0-1": (Outcome.LOSS, Outcome.WIN),
}


def random_event(*, players: int, rounds: int, seed: int) -> list[list[tuple[int, int, str]]]:
    """Each round: (orange, blue, result) for every pair of a random pairing."""
    rng = random.Random(seed)
    numbers = list(range(1, players + 1))
    event = []
    for _ in range(rounds):
        rng.shuffle(numbers)
        pairs = []
        for orange, blue in zip(numbers[::2], numbers[1::2], strict=True):
            roll = rng.random()
            result = "1/2-1/2" if roll < 0.3 else ("1-0" if roll < 0.65 else "0-1")
            pairs.append((orange, blue, result))
        event.append(pairs)
    return event


def records_of(event: list[list[tuple[int, int, str]]], players: int) -> list[PlayerRecord]:
    rounds: dict[int, list[RoundRecord]] = {n: [] for n in range(1, players + 1)}
    for number, pairs in enumerate(event, start=1):
        for orange, blue, result in pairs:
            first, second = OUTCOMES[result]
            rounds[orange].append(RoundRecord(number, first, blue, Colour.ORANGE))
            rounds[blue].append(RoundRecord(number, second, orange, Colour.BLUE))
    return [PlayerRecord(n, f"P{n}", 2400 - n, tuple(r)) for n, r in rounds.items()]


def best_of(repeat: int, action: Callable[[], Any]) -> str:
    """The best wall-clock time of ``repeat`` runs, with that run's CPU time (this process:
    Python and the embedded SQLite), as text."""
    timings = []
    for _ in range(repeat):
        began, cpu = time.perf_counter(), time.process_time()
        action()
        timings.append((time.perf_counter() - began, time.process_time() - cpu))
    wall, cpu = min(timings)
    return f"{wall * 1000:.0f} ms (CPU {cpu * 1000:.0f} ms)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--database-url", default="", help="a disposable PostgreSQL database (flushed first)"
    )
    args = parser.parse_args()
    print(f"python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}")
    event = random_event(players=args.players, rounds=args.rounds, seed=args.seed)
    records = records_of(event, args.players)
    pure = best_of(
        args.repeat,
        lambda: compute_standings(records, tiebreaks=TIEBREAKS, rounds=args.rounds),
    )
    print(f"pure compute_standings, {len(TIEBREAKS)} tie-breaks: {pure}")
    with tempfile.TemporaryDirectory() as var:
        if args.database_url:
            os.environ["DATABASE_URL"] = args.database_url
        else:
            os.environ.pop("DATABASE_URL", None)
        os.environ["CELTIC_VAR_DIR"] = var
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "celticsite.settings")
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        if args.database_url:
            call_command("flush", interactive=False, verbosity=0)
        from django.db import connection

        print(f"database: {connection.vendor}")
        bench_database(event, args)


def _users(count: int, prefix: str) -> list[Any]:
    """``count`` players with profiles (unusable passwords: hashing is not measured)."""
    from django.contrib.auth.models import User

    from accounts.models import Profile

    users = [
        User(username=f"{prefix}{n}", email=f"{prefix}{n}@example.org", password="!")
        for n in range(1, count + 1)
    ]
    users = User.objects.bulk_create(users)
    Profile.objects.bulk_create(Profile(user=user) for user in users)
    return list(User.objects.filter(username__startswith=prefix).order_by("pk"))


def bench_database(event: list[list[tuple[int, int, str]]], args: argparse.Namespace) -> None:
    from django.contrib.auth.models import Permission
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from notifications.models import OutboxEmail
    from tournaments import selectors, services
    from tournaments.models import Entry, Round, Tournament, TournamentGame

    organiser = _users(1, "organiser")[0]
    organiser.user_permissions.add(Permission.objects.get(codename="organise_tournament"))
    players = _users(args.players, "p")

    # 1. A finished Swiss-like event, written directly (its creation is not measured).
    swiss = Tournament.objects.create(
        name="Bench Swiss", organiser=organiser, format=Tournament.Format.SWISS,
        rounds_planned=args.rounds, tiebreaks=list(TIEBREAKS), status=Tournament.Status.RUNNING,
    )  # fmt: skip
    entries = Entry.objects.bulk_create(
        Entry(tournament=swiss, player=user, name=user.username, seed=number,
              rating_at_start=2400 - number, status=Entry.Status.ACTIVE)
        for number, user in enumerate(players, start=1)
    )  # fmt: skip
    rounds = Round.objects.bulk_create(
        Round(tournament=swiss, number=n, status=Round.Status.COMPLETE)
        for n in range(1, args.rounds + 1)
    )
    TournamentGame.objects.bulk_create(
        TournamentGame(tournament=swiss, round=rounds[index], orange=entries[orange - 1],
                       blue=entries[blue - 1], board=board, result=result)
        for index, pairs in enumerate(event)
        for board, (orange, blue, result) in enumerate(pairs, start=1)
    )  # fmt: skip
    swiss = Tournament.objects.get(pk=swiss.pk)
    with CaptureQueriesContext(connection) as queries:
        standings = selectors.tournament_standings(tournament=swiss)
    assert len(standings.rows) == args.players
    db = best_of(args.repeat, lambda: selectors.tournament_standings(tournament=swiss))
    print(f"selectors.tournament_standings on {connection.vendor}: {db} ({len(queries)} queries)")
    Round.objects.filter(tournament=swiss, number__gt=8).update(status=Round.Status.PLANNED)
    TournamentGame.objects.filter(tournament=swiss, round__number__gt=8).delete()
    places = best_of(args.repeat, lambda: selectors.tournament_possible_places(tournament=swiss))
    print(f"selectors.tournament_possible_places after round 8 of 11: {places}")

    # 2. Start a 500-player round robin: round 1 is 250 games.
    timings = []
    for attempt in range(args.repeat):
        rr = services.tournament_create(organiser=organiser, name=f"Bench RR {attempt}")
        services.tournament_registration_open(tournament_id=rr.pk, actor=organiser)
        Entry.objects.bulk_create(
            Entry(tournament=rr, player=user, name=user.username, status=Entry.Status.APPROVED)
            for user in players
        )
        OutboxEmail.objects.all().delete()
        rr_id = rr.pk
        start = timed(partial(services.tournament_start, tournament_id=rr_id, actor=organiser))
        pair = timed(partial(services.tournament_round_pair, tournament_id=rr_id, round_number=1))
        timings.append((start, pair))
        games = TournamentGame.objects.filter(tournament=rr, game__isnull=False).count()
        emails = OutboxEmail.objects.count()
        print(
            f"  run {attempt + 1}: tournament_start {start}, the pairing task {pair}, "
            f"{games} games, {emails} emails queued"
        )
    print(f"services.tournament_start (the request): best {min(t[0] for t in timings)}")
    print(
        f"services.tournament_round_pair ({len(players) // 2} games): "
        f"best {min(t[1] for t in timings)}"
    )
    bench_all_at_once(organiser, players[:60])


def bench_all_at_once(organiser: Any, players: list[Any]) -> None:
    """Start a round robin of ``players`` with every round at once: the request, then the
    pairing tasks it chains, as a worker would run them."""
    from tournaments import services
    from tournaments.models import Entry, Round, TournamentGame
    from tournaments.services import rounds

    queued: list[tuple[int, int]] = []
    rounds._round_pairing_queue = lambda *task: queued.append(task)  # the broker, here
    event = services.tournament_create(
        organiser=organiser, name="Bench all at once", round_start_mode="all_at_once"
    )
    services.tournament_registration_open(tournament_id=event.pk, actor=organiser)
    Entry.objects.bulk_create(
        Entry(tournament=event, player=user, name=user.username, status=Entry.Status.APPROVED)
        for user in players
    )
    start = timed(partial(services.tournament_start, tournament_id=event.pk, actor=organiser))
    games_then = TournamentGame.objects.filter(tournament=event).count()

    def drain() -> None:
        while queued:
            tournament_id, number = queued.pop(0)
            services.tournament_round_pair(tournament_id=tournament_id, round_number=number)

    tasks = timed(drain)
    games = TournamentGame.objects.filter(tournament=event, game__isnull=False).count()
    running = event.rounds.filter(status=Round.Status.RUNNING).count()
    print(
        f"{len(players)}-player round robin, all at once: the start request {start} "
        f"({games_then} games when it answers); the {running} pairing tasks {tasks} in all, "
        f"{games} games"
    )


@dataclass(order=True, frozen=True)
class Timing:
    wall: float
    cpu: float
    queries: int

    def __str__(self) -> str:
        return f"{self.wall * 1000:.0f} ms (CPU {self.cpu * 1000:.0f} ms, {self.queries} queries)"


def timed(action: Callable[[], Any]) -> Timing:
    """Run ``action`` once: wall clock, this process's CPU, queries."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        began, cpu = time.perf_counter(), time.process_time()
        action()
        wall, cpu = time.perf_counter() - began, time.process_time() - cpu
    return Timing(wall, cpu, len(queries))


if __name__ == "__main__":
    main()
