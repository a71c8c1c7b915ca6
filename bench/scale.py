"""Benchmark: the service at the size of a real federation, without a web server.

    .venv/bin/python -m bench.scale --database-url postgres://postgres@127.0.0.1:5432/celtic_scale
        [--players 10000] [--finished 120000] [--running 50000] [--seed 1]

Seeds a disposable database (it is flushed first) with `--players` players, `--finished`
rated results among them and `--running` running games (three days per move, a sixth with
weekends off, deadlines 25 h to 3 days away, 1 % within a day; 2 % of the players on
vacation),
then times, in this process, what the issue measured: the beat tasks (deadline reminders,
timeouts) and the ranking and game-list requests through Django's test client (so without
gunicorn, network or concurrency: the full load test with 1/8/32 clients is
`make bench-scale`'s job). Prints one line per measurement: the median time of five runs
and the number of queries of one run.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from typing import Any


def size_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that say how much to seed, and --reuse to seed nothing."""
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--finished", type=int, default=120_000)
    parser.add_argument("--running", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--reuse", action="store_true", help="measure a database seeded by an earlier run"
    )


def ranking_page_at(position: int) -> str:
    """The ranking list's URL of the page that starts after ``position``: the cursor a
    ``next`` link would carry there, encoded by the list's own paginator."""
    from rest_framework.pagination import Cursor

    from celticsite.api import CursorPage

    pager = CursorPage()
    pager.base_url = "/api/v1/rankings/"
    url: str = pager.encode_cursor(Cursor(offset=0, reverse=False, position=str(position)))
    return url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", required=True, help="a disposable database")
    size_arguments(parser)
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = args.database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "celticsite.settings")
    import django

    django.setup()
    from django.contrib.auth.models import User

    now = datetime.now(UTC)
    if args.reuse:
        measure(list(User.objects.order_by("pk")[:1]), now=now)
        return
    users = seed(
        players=args.players, finished=args.finished, running=args.running, seed=args.seed, now=now
    )
    measure(users, now=now)


def seed(*, players: int, finished: int, running: int, seed: int, now: datetime) -> list[Any]:
    """Migrate, flush and seed the database (see the module docstring); the users, by pk."""
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("flush", interactive=False, verbosity=0)
    rng = random.Random(seed)
    began = time.perf_counter()
    users = seed_players(players)
    seed_results(rng, users, finished, today=now.date())
    seed_running_games(rng, users, running, now=now)
    seed_vacations(rng, users, now=now)
    table_statistics_refresh()
    print(f"seeded {players} players, {finished} results, {running} running games")
    print(
        f"seeding took {time.perf_counter() - began:.1f} s; load average {os.getloadavg()[0]:.1f}"
    )
    return users


def table_statistics_refresh() -> None:
    """ANALYZE: the planner's row counts after the bulk load. Autovacuum would in time, but
    it may be slow to start, or off (it is on the benchmark machine), and a query planned
    from empty tables' statistics is not what production runs."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def seed_players(count: int) -> list[Any]:
    from django.contrib.auth.models import User

    from accounts.models import Profile

    User.objects.bulk_create(
        [User(username=f"player{i}", email=f"player{i}@example.org") for i in range(count)],
        batch_size=5000,
    )
    users = list(User.objects.order_by("pk"))
    Profile.objects.bulk_create(
        [Profile(user=user, time_zone="Europe/Dublin") for user in users], batch_size=5000
    )
    return users


def seed_results(rng: random.Random, users: list[Any], count: int, *, today: date) -> None:
    """Rated results over the last two years, rated with the one rating code path."""
    from rankings.csvimport import ImportedResult
    from rankings.models import Player
    from rankings.services import results_import

    names = [user.username for user in users]
    first = today - timedelta(days=730)
    results = []
    for line in range(count):
        a, b = rng.sample(names, 2)
        played = first + timedelta(days=line * 729 // max(count, 1))
        results.append(ImportedResult(line, played, a, b, rng.choice(["1-0", "0-1", "1/2-1/2"])))
    results_import(results=results)
    by_name = {user.username: user for user in users}
    players = list(Player.objects.all())
    for player in players:
        player.user = by_name[player.name]
    Player.objects.bulk_update(players, ["user"], batch_size=2000)


def seed_running_games(rng: random.Random, users: list[Any], count: int, *, now: datetime) -> None:
    """``count`` games started through the service (a sixth with weekends off), each then
    put at a random point of its turn: the player to move is a random one of the pair."""
    from games import services
    from games.clock import TimeControl
    from games.models import Game
    from notifications.services import outbox_muted

    pairs: dict[bool, list[tuple[Any, Any]]] = {False: [], True: []}  # by weekends off
    for _ in range(count):
        first, second = rng.sample(users, 2)
        pairs[rng.random() < 1 / 6].append((first, second))
    games = []
    with outbox_muted():  # news for no one
        for weekends_off, some in pairs.items():
            time_control = TimeControl(days_per_move=3, weekends_off=weekends_off)
            for start in range(0, len(some), 5000):
                games += services.games_start_many(
                    pairs=some[start : start + 5000], time_control=time_control, now=now
                )
    for game in games:
        # 1 % within a day of their deadline (a reminder due), the rest 25 h to 3 days away
        soon = rng.random() < 0.01
        left = timedelta(
            minutes=rng.randrange(60, 23 * 60) if soon else rng.randrange(25 * 60, 72 * 60)
        )
        game.ply = rng.randrange(0, 20)
        game.turn_started_at = now - (timedelta(days=3) - left)
        game.deadline = now + left
    Game.objects.bulk_update(games, ["ply", "turn_started_at", "deadline"], batch_size=5000)


def seed_vacations(rng: random.Random, users: list[Any], *, now: datetime) -> None:
    from accounts.models import Vacation

    Vacation.objects.bulk_create(
        [
            Vacation(user=user, started_at=now - timedelta(days=1), ends_at=now + timedelta(days=4))
            for user in rng.sample(users, len(users) // 50)
        ]
    )


def _timed(action: Callable[[], Any], runs: int = 5) -> tuple[float, int]:
    """Median seconds of `runs` runs and the queries of the last one."""
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    timings = []
    for _ in range(runs):
        reset_queries()  # a full query log (DEBUG keeps the last 9,000) would count nothing
        with CaptureQueriesContext(connection) as captured:
            began = time.perf_counter()
            action()
            timings.append(time.perf_counter() - began)
    return statistics.median(timings), len(captured)


def beat_measure(*, now: datetime) -> list[tuple[str, float, int | None]]:
    """The beat tasks at this size: (what, median seconds, queries of one run or None)."""
    from games.timeouts import game_timeouts_decide
    from notifications.events import deadline_reminders_queue
    from rankings.ranking import ranking_refresh

    began = time.perf_counter()
    first = deadline_reminders_queue(now=now)
    return [
        (f"reminders, first run ({len(first)} sent)", time.perf_counter() - began, None),
        (
            "reminders, steady run (nothing due)",
            *_timed(lambda: deadline_reminders_queue(now=now)),
        ),
        ("timeouts, nothing overdue", *_timed(lambda: game_timeouts_decide(now=now))),
        ("ranking rebuild (daily)", *_timed(lambda: ranking_refresh(force=True), runs=1)),
    ]


def measure(users: list[Any], *, now: datetime) -> None:
    from django.test import Client

    from rankings.models import RankingPosition

    def report(name: str, seconds: float, queries: int | None) -> None:
        counted = "" if queries is None else f", {queries} queries"
        print(f"{name}: {seconds * 1000:,.0f} ms{counted}")

    print(f"load average {os.getloadavg()[0]:.1f} before measuring")
    for row in beat_measure(now=now):
        report(*row)

    client = Client()
    client.force_login(users[0])
    ranked = RankingPosition.objects.order_by("position").values_list("player_id", flat=True)
    listed = ranked.count()
    player = ranked[min(500, listed - 1)]
    middle = ranking_page_at(listed // 2)  # a page in the middle of the API list
    for name, url in [
        ("GET /api/v1/accounts/me/ (baseline)", "/api/v1/accounts/me/"),
        ("GET /api/v1/rankings/?cursor=<the middle>", middle),
        ("GET /api/v1/rankings/export.csv", "/api/v1/rankings/export.csv"),
        ("GET /api/v1/rankings/players/<id>/", f"/api/v1/rankings/players/{player}/"),
        ("GET /rankings/ (page 1 of the list)", "/rankings/"),
        ("GET /api/v1/games/ (a page of every game)", "/api/v1/games/"),
        ("GET /api/v1/games/?status=active", "/api/v1/games/?status=active"),
        ("GET / (home, logged in)", "/"),
    ]:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        report(name, *_timed(lambda url=url: client.get(url)))


if __name__ == "__main__":
    main()
