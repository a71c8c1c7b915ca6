"""Benchmark: the public standings of large events, selector, API and page.

    .venv/bin/python -m bench.large_events [--repeat 3] [--seed 1] [--only 60rr,640,5000,300r]

Builds on a fresh SQLite database (its creation is not measured):

* ``60rr``: a running 60-player round robin with every round started at once (1,770 games,
  a third of them decided, the rest still being played), the case whose exact possible
  places used to take minutes;
* ``640`` and ``5000``: finished Swiss events of 640 and 5,000 players (11 rounds, random
  pairings, 30 % draws) imported from a TRF file through ``services.tournament_import_trf``;
* ``300r``: an imported 3-player Swiss of 300 rounds (the longest-running kind of table).

and times the worker's ranking after a result (``tasks.standings_warm``), the standings and
possible places with nothing stored (``selectors.tournament_standings_with_places``: the
cache down), then the anonymous ``GET /api/v1/tournaments/<id>/standings/``, event page
``GET /tournaments/<id>/`` and detail API ``GET /api/v1/tournaments/<id>/``, and the
organiser's manage page: the first time in a process after the worker stored the rankings
(``tournaments.standings_memo`` forgotten, the shared cache kept) and again (best of
``--repeat``), with each answer's size and the pages' query counts. Prints the table for
the "Large events" section of docs/BENCHMARKS.md. Timings never go into tests.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import tempfile
import time
from collections.abc import Callable
from typing import Any

from tournaments.standings.records import Colour, Outcome, PlayerRecord, RoundRecord

SCENARIOS = ("60rr", "640", "5000", "300r")
RESULTS = {
    "1-0": (Outcome.WIN, Outcome.LOSS),
    "=": (Outcome.DRAW, Outcome.DRAW),
    "0-1": (Outcome.LOSS, Outcome.WIN),
}


def random_records(*, players: int, rounds: int, seed: int) -> tuple[PlayerRecord, ...]:
    """A Swiss-like event: random pairings each round (a bye for the odd one out)."""
    rng = random.Random(seed)
    numbers = list(range(1, players + 1))
    played: dict[int, list[RoundRecord]] = {n: [] for n in numbers}
    for number in range(1, rounds + 1):
        rng.shuffle(numbers)
        if players % 2:
            played[numbers[-1]].append(RoundRecord(number, Outcome.PAIRING_BYE))
        for orange, blue in zip(numbers[::2], numbers[1::2], strict=False):
            roll = rng.random()
            first, second = RESULTS["=" if roll < 0.3 else ("1-0" if roll < 0.65 else "0-1")]
            played[orange].append(RoundRecord(number, first, blue, Colour.ORANGE))
            played[blue].append(RoundRecord(number, second, orange, Colour.BLUE))
    return tuple(
        PlayerRecord(n, f"Player {n}", 2400 - n % 800, tuple(r)) for n, r in played.items()
    )


def timed(repeat: int, action: Callable[[], Any]) -> str:
    """The best wall-clock time of ``repeat`` runs with that run's CPU time (this process:
    Python and the embedded SQLite, what the request costs the server), as text."""
    runs = []
    for _ in range(repeat):
        began, cpu = time.perf_counter(), time.process_time()
        action()
        runs.append((time.perf_counter() - began, time.process_time() - cpu))
    wall, cpu = min(runs)
    return f"{wall * 1000:,.0f} ms (CPU {cpu * 1000:,.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default=",".join(SCENARIOS), help="scenarios, comma-separated")
    args = parser.parse_args()
    wanted = [name for name in args.only.split(",") if name]
    unknown = set(wanted) - set(SCENARIOS)
    if unknown:
        parser.error(f"unknown scenario {sorted(unknown)}: expected some of {', '.join(SCENARIOS)}")
    with tempfile.TemporaryDirectory() as var:
        os.environ.pop("DATABASE_URL", None)
        os.environ["CELTIC_VAR_DIR"] = var
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "celticsite.settings")
        import django

        django.setup()
        from django.conf import settings
        from django.core.management import call_command

        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
        call_command("migrate", verbosity=0)
        print(f"python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}")
        print(
            "| event | the worker ranks (standings_warm) | selector, nothing stored "
            "| standings API, page 1 | event page, page 1 | detail API | manage page |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- |")
        organiser = _organiser()
        for name in wanted:
            tournament = BUILDERS[name](organiser, args.seed)
            measure(name, tournament, args.repeat)


def _organiser() -> Any:
    from django.contrib.auth.models import Permission, User

    from accounts.models import Profile

    user = User.objects.create(username="organiser", email="organiser@example.org", password="!")
    Profile.objects.create(user=user)
    user.user_permissions.add(
        Permission.objects.get(
            codename="organise_tournament", content_type__app_label="tournaments"
        )
    )
    return User.objects.get(pk=user.pk)


def build_round_robin(organiser: Any, seed: int, players: int = 60) -> Any:
    """A running round robin with every round started: a third of the games decided."""
    from django.contrib.auth.models import User

    from accounts.models import Profile
    from tournaments.models import Entry, Round, Tournament, TournamentGame
    from tournaments.pairing.round_robin import round_robin_round, round_robin_rounds

    rng = random.Random(seed)
    users = User.objects.bulk_create(
        User(username=f"rr{n}", email=f"rr{n}@example.org", password="!")
        for n in range(1, players + 1)
    )
    Profile.objects.bulk_create(Profile(user=user) for user in users)
    tournament = Tournament.objects.create(
        name=f"Bench round robin {players}", organiser=organiser,
        format=Tournament.Format.ROUND_ROBIN, status=Tournament.Status.RUNNING,
        round_start_mode=Tournament.RoundStartMode.ALL_AT_ONCE, tiebreaks=["de", "sb", "win"],
    )  # fmt: skip
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=user, name=user.username, seed=number,
              rating_at_start=2000 - number, status=Entry.Status.ACTIVE)
        for number, user in enumerate(User.objects.filter(username__startswith="rr"), start=1)
    )  # fmt: skip
    total = round_robin_rounds(players)
    rounds = Round.objects.bulk_create(
        Round(tournament=tournament, number=n, status=Round.Status.RUNNING)
        for n in range(1, total + 1)
    )
    decided = [TournamentGame.Result.ORANGE_WINS, TournamentGame.Result.DRAW,
               TournamentGame.Result.BLUE_WINS]  # fmt: skip
    TournamentGame.objects.bulk_create(
        TournamentGame(
            tournament=tournament, round=rounds[number - 1], board=board,
            orange=entries[pair.orange - 1], blue=entries[pair.blue - 1],
            result=rng.choice(decided) if rng.random() < 1 / 3 else TournamentGame.Result.PENDING,
        )
        for number in range(1, total + 1)
        for board, pair in enumerate(round_robin_round(players, number).pairs, start=1)
    )  # fmt: skip
    return tournament


def build_imported(organiser: Any, seed: int, *, players: int, rounds: int) -> Any:
    from tournaments import services
    from tournaments.trf import TrfTournament

    records = random_records(players=players, rounds=rounds, seed=seed)
    header = (("012", f"Bench import {players}x{rounds}"), ("092", "Swiss"),
              ("142", str(rounds)))  # fmt: skip
    return services.tournament_import_trf(
        trf=TrfTournament(header=header, players=records),
        organiser=organiser,
        tiebreaks=["bh_c1", "bh", "sb", "win"],
    )


BUILDERS: dict[str, Callable[[Any, int], Any]] = {
    "60rr": build_round_robin,
    "640": lambda organiser, seed: build_imported(organiser, seed, players=640, rounds=11),
    "5000": lambda organiser, seed: build_imported(organiser, seed, players=5000, rounds=11),
    "300r": lambda organiser, seed: build_imported(organiser, seed, players=3, rounds=300),
}


def measure(name: str, tournament: Any, repeat: int) -> None:
    """One table line. The worker's ranking after a result (``tasks.standings_warm``, the
    shared cache empty); the selector with nothing stored (the cache down or the worker
    behind); then each answer the first time in a process after the worker stored the
    rankings (``tournaments.standings_memo`` forgotten, the cache kept) / again (best of
    ``repeat``), with its size (and the pages' query counts)."""
    from django.core.cache import cache
    from django.test import Client

    from tournaments import selectors, standings_memo, tasks
    from tournaments.models import Tournament

    def nothing_stored() -> None:
        standings_memo.forget()
        cache.clear()

    def stored_first_and_again(action: Callable[[], Any]) -> str:
        standings_memo.forget()
        first = timed(1, action)
        return f"{first} / {timed(repeat, action)}"

    tournament = Tournament.objects.get(pk=tournament.pk)
    nothing_stored()
    cells = [timed(1, lambda: tasks.standings_warm(tournament.pk))]
    nothing_stored()
    cells.append(
        timed(1, lambda: selectors.tournament_standings_with_places(tournament=tournament))
    )
    tasks.standings_warm(tournament.pk)
    organiser = Client()
    organiser.force_login(tournament.organiser)
    for client, path in (
        (Client(), "/api/v1/tournaments/{}/standings/"),
        (Client(), "/tournaments/{}/"),
        (Client(), "/api/v1/tournaments/{}/"),
        (organiser, "/tournaments/{}/manage/"),
    ):
        cells.append(answer_cell(client, path.format(tournament.pk), stored_first_and_again))
    print(f"| {name} ({tournament.status}) | " + " | ".join(cells) + " |", flush=True)


def answer_cell(client: Any, url: str, first_and_again: Callable[[Callable[[], Any]], str]) -> str:
    """``first / again, size`` of ``GET url`` (and its queries for a page)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    counted = "" if "/api/" in url else f", {len(queries)} queries"
    timing = first_and_again(lambda: client.get(url))
    return f"{timing}, {len(response.content) / 1024:,.0f} KiB{counted}"


if __name__ == "__main__":
    main()
