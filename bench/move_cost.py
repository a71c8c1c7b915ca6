"""Benchmark: what a move and the heavier reads cost against the baseline request.

    .venv/bin/python -m bench.move_cost
        [--database-url postgres://postgres@127.0.0.1:5432/celtic_scale] [--requests 300]
        [--write]

Calls the site's WSGI application directly (no server, no network, no other clients) on a
database that `bench.scale` or `make bench-scale` seeded, with Redis at REDIS_URL or
redis://127.0.0.1:6379/9 as cache and broker (the email messages the moves queue stay
there). Plays `--requests` moves as `make bench-scale` does, each right after a baseline
request (`GET /api/v1/accounts/me/`), so that both see the same machine, then does it again
under a profiler to count Python function calls. Prints, for each: the median wall time, the
mean CPU time of this process (the database's own work is not in it) and the calls per
request, and the move's ratio to the baseline for each. The calls are the same from run to
run where the times are not: they tell whether a change made the move's own work smaller.
The reads of the load test are costed the same way, each after its baseline: a page of the
caller's games (`?mine=true`), a page of the ranking from the middle and a ranked player.
`--write` puts the table into the "Move cost" section of docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bench import scale_load

SECTION = "Move cost"


@dataclass(frozen=True)
class Cost:
    """One kind of request's cost: median wall and mean CPU seconds, Python calls."""

    wall: float
    cpu: float
    calls: float


def measure(requests: dict[str, Callable[[], None]], *, rounds: int) -> dict[str, Cost]:
    """Each request in turn, ``rounds`` times: times first, then calls under a profiler."""
    walls: dict[str, list[float]] = {name: [] for name in requests}
    cpus = dict.fromkeys(requests, 0.0)
    for _ in range(rounds):
        for name, request in requests.items():
            cpu, wall = time.process_time(), time.perf_counter()
            request()
            walls[name].append(time.perf_counter() - wall)
            cpus[name] += time.process_time() - cpu
    calls = dict.fromkeys(requests, 0)
    for _ in range(rounds):
        for name, request in requests.items():
            profiler = cProfile.Profile()
            profiler.runcall(request)
            calls[name] += pstats.Stats(profiler).total_calls
    return {
        name: Cost(statistics.median(walls[name]), cpus[name] / rounds, calls[name] / rounds)
        for name in requests
    }


def report_table(costs: dict[str, Cost], baseline: str) -> str:
    """A Markdown table of ``costs``, with the baseline's cost over each (its ratio)."""
    base = costs[baseline]
    lines = [
        "| request | wall (median) | CPU (mean) | Python calls "
        "| baseline ÷ this (wall / CPU / calls) |",
        "| --- | ---: | ---: | ---: | --- |",
    ]
    for name, cost in costs.items():
        ratios = " / ".join(
            f"{getattr(base, part) / getattr(cost, part):.2f}" for part in ("wall", "cpu", "calls")
        )
        lines.append(
            f"| {name} | {cost.wall * 1000:.2f} ms | {cost.cpu * 1000:.2f} ms "
            f"| {cost.calls:,.0f} | {ratios} |"
        )
    return "\n".join(lines)


class Wsgi:
    """Requests straight into the WSGI application, with an API token."""

    def __init__(self, application: Any) -> None:
        self.application = application

    def call(self, method: str, path: str, token: str, body: Any = None) -> tuple[int, bytes]:
        data = b"" if body is None else json.dumps(body).encode()
        path, _, query = path.partition("?")
        environ = {
            "REQUEST_METHOD": method,
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "SERVER_NAME": "localhost",
            "SERVER_PORT": "80",
            "HTTP_HOST": "localhost",
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(data),
            "CONTENT_LENGTH": str(len(data)),
            "CONTENT_TYPE": "application/json",
            "HTTP_AUTHORIZATION": f"Token {token}",
        }
        status: list[str] = []
        answer = self.application(environ, lambda s, h, e=None: status.append(s))
        try:
            content = b"".join(answer)
        finally:
            answer.close()  # as a WSGI server does: Django sends request_finished here
        return int(status[0].split()[0]), content


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=scale_load.DEFAULT_URL)
    parser.add_argument("--requests", type=int, default=300, help="of each kind, timed")
    parser.add_argument("--write", action="store_true", help=f"update {scale_load.DOC.name}")
    args = parser.parse_args()
    if args.requests < 1:
        parser.error("--requests must be at least 1")
    scale_load.database_ensure(args.database_url, reuse=True)
    os.environ.update(
        DATABASE_URL=args.database_url,
        REDIS_URL=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/9"),
        DJANGO_DEBUG="false",
        DJANGO_ALLOWED_HOSTS="localhost",
        API_THROTTLE_ANON="1000000/minute",
        API_THROTTLE_USER="1000000/minute",
        API_THROTTLE_MOVES="1000000/minute",
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "celticsite.settings")
    from celticsite.wsgi import application  # sets Django up, as gunicorn does

    site = Wsgi(application)
    games_needed = 3 * args.requests // 10 + 20  # timed and profiled, ~18 plies a game
    plan = scale_load.plan_make(clients=1, games_per_client=games_needed, seed=int(time.time()))
    mover = plan.movers[0]

    def baseline() -> None:
        status, content = site.call("GET", "/api/v1/accounts/me/", plan.tokens[0])
        if status != 200:
            raise SystemExit(f"the baseline answered {status}: {content[:300]!r}")

    def move() -> None:
        step = mover.next_move()
        if step is None:
            raise SystemExit("the client ran out of games: raise games_needed")
        game, token, body = step
        status, content = site.call("POST", f"/api/v1/games/{game}/moves/", token, body)
        if status != 201:
            raise SystemExit(f"the move answered {status}: {content[:300]!r}")
        mover.played(body["move"])

    def read(path: str) -> Callable[[], None]:
        def call() -> None:
            status, content = site.call("GET", path, plan.tokens[0])
            if status != 200:
                raise SystemExit(f"{path} answered {status}: {content[:300]!r}")

        return call

    requests = {
        scale_load.BASELINE: baseline,
        "move": move,
        "my games": read("/api/v1/games/?mine=true"),
        "ranking list": read(plan.rank_page),
        "ranking player": read(f"/api/v1/rankings/players/{plan.ranked_players[0]}/"),
    }
    measure(requests, rounds=20)  # warm: connections, caches, imports
    load_start = scale_load.load_average()
    costs = measure(requests, rounds=args.requests)
    table = report_table(costs, scale_load.BASELINE)
    print(table)
    if args.write:
        machine = scale_load.machine_describe(
            postgres=scale_load.postgres_version(), load_start=load_start
        )
        scale_load.write_section(
            section_text(table, args=args, machine=machine),
            section=SECTION,
            after_section=scale_load.SECTION,
        )


def section_text(table: str, *, args: argparse.Namespace, machine: dict[str, str]) -> str:
    return f"""## {SECTION}

Command: `.venv/bin/python -m bench.move_cost --write` on the database of "Scale under
load", {datetime.now(UTC):%Y-%m-%d}. The site's WSGI application called directly in one
process (no server, no network, no other clients), PostgreSQL and Redis as in production:
{args.requests} moves, each right after a baseline request, and as many of each read of the
load test (a page of the mover's games, of the ranking from the middle, a ranked player),
then the same again under a profiler for the Python function calls. CPU is this process's
(the database's own work is not in it); the calls do not vary from run to run.

{scale_load.machine_line(machine)}

{table}
"""


if __name__ == "__main__":
    main()
