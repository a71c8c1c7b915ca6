"""Benchmark: the API under concurrent load, served by gunicorn, at a federation's size.

    .venv/bin/python -m bench.scale_load
        [--database-url postgres://postgres@127.0.0.1:5432/celtic_scale]
        [--players 10000] [--finished 120000] [--running 50000] [--seed 1] [--reuse]
        [--clients 1 8 32] [--duration 10] [--rounds 5] [--workers 4] [--write]

(`make bench-scale` runs it.) Seeds the disposable database with `bench.scale`'s seeding
(unless `--reuse`: the database an earlier run seeded), times the beat tasks in this process
as `bench.scale` does, then starts gunicorn (`--workers` sync workers, DEBUG off, Redis at
REDIS_URL or redis://127.0.0.1:6379/9, throttles raised out of the way) on a free local port
and drives it with asyncio clients (httpx), each with its own API token and keep-alive
connection. Each endpoint runs alone at each concurrency for `--duration` seconds, in
`--rounds` slices taken in rotation with the other endpoints' (so that a change in the
machine's speed during the run weighs on all of them alike):

- `GET /api/v1/accounts/me/`, the baseline;
- `GET /api/v1/games/<id>/` of a game with moves;
- `GET /api/v1/games/?mine=true` (the first page of the client's games);
- `POST /api/v1/games/<id>/moves/`: every client owns two seeded players and games between
  them, follows them with the rules engine and plays a random legal move as whoever is to
  move, so no two clients touch the same game;
- `GET /api/v1/rankings/?cursor=<the middle>` and `GET /api/v1/rankings/players/<id>/`.

Prints a Markdown table (requests/s, p50 and p99 latency, errors, throughput as a multiple of
the baseline's at the same concurrency); `--write` puts it into the "Scale under load" section
of docs/BENCHMARKS.md with the machine it ran on.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import math
import os
import platform
import random
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench import scale
from bench.ratings import _cpu
from games.kinds.celtic.notation import Move
from games.kinds.celtic.state import GameState

DOC = Path(__file__).resolve().parent.parent / "docs" / "BENCHMARKS.md"
SECTION = "Scale under load"
AFTER = "Scale"
BASELINE = "me (baseline)"


@dataclass(frozen=True)
class Target:
    """What an endpoint must reach at one concurrency (``clients`` None: at every one):
    ``rate`` times the baseline's requests/s, or a p99 at most ``p99`` times the baseline's."""

    endpoint: str
    clients: int | None = None
    rate: float | None = None
    p99: float | None = None

    def applies(self, result: Result) -> bool:
        return self.endpoint == result.endpoint and self.clients in (None, result.clients)

    def verdict(self, *, rate_ratio: float, p99_ratio: float) -> str:
        """The target column's text, e.g. ``≥ 0.3x (met)``."""
        if self.rate is not None:
            said, met = f"≥ {self.rate}x", rate_ratio >= self.rate
        else:
            assert self.p99 is not None
            said, met = f"p99 ≤ {self.p99}x the baseline's", p99_ratio <= self.p99
        return f"{said} ({'met' if met else 'not met'})"


# The move's targets of issue 23 (the plain code); the ranking list's of the issue before.
TARGETS = (
    Target("ranking list", rate=0.5),
    Target("move", clients=8, rate=0.3),
    Target("move", clients=32, p99=3),
)
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/celtic_scale"


# --- pure parts: statistics, report, move choice ---------------------------------------------


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile (`fraction` 0.5 is the median); NaN for no values."""
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction {fraction}: expected more than 0 and at most 1")
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


@dataclass
class Result:
    """What one endpoint did at one concurrency."""

    endpoint: str
    clients: int
    seconds: float
    latencies: list[float] = field(default_factory=list)
    errors: int = 0

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds > 0 else 0.0

    def add(self, part: Result) -> None:
        """Count another slice of the same endpoint at the same concurrency."""
        self.seconds += part.seconds
        self.latencies += part.latencies
        self.errors += part.errors


def report_table(results: Sequence[Result]) -> str:
    """A Markdown table, one row per endpoint and concurrency, with the baseline ratio."""
    baseline = {r.clients: r for r in results if r.endpoint == BASELINE}
    lines = [
        "| endpoint | clients | requests/s | p50 | p99 | errors | vs baseline | target |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in results:
        base = baseline.get(r.clients)
        ratio = r.rate / base.rate if base and base.rate else math.nan
        p99_ratio = _p99(r) / _p99(base) if base and base.latencies else math.nan
        met = "; ".join(
            target.verdict(rate_ratio=ratio, p99_ratio=p99_ratio)
            for target in TARGETS
            if target.applies(r)
        )
        shown = "—" if math.isnan(ratio) else f"{ratio:.2f}"
        lines.append(
            f"| {r.endpoint} | {r.clients} | {r.rate:,.1f} | {_ms(percentile(r.latencies, 0.5))} "
            f"| {_ms(percentile(r.latencies, 0.99))} | {r.errors} | {shown} | {met} |"
        )
    return "\n".join(lines)


def _p99(result: Result) -> float:
    return percentile(result.latencies, 0.99)


def _ms(seconds: float) -> str:
    return "—" if math.isnan(seconds) else f"{seconds * 1000:,.0f} ms"


def move_choose(state: GameState, rng: random.Random) -> Move:
    """A random legal move for the player to move; ValueError when the game is over."""
    moves = state.legal_moves()
    if state.is_over() or not moves:
        raise ValueError(f"the game is over at ply {state.ply}: there is no move to choose")
    return rng.choice(moves)


def write_section(
    text: str, path: Path = DOC, *, section: str = SECTION, after_section: str = AFTER
) -> None:
    """Replace the ``section`` ("Scale under load"), or add it after ``after_section``
    ("Scale"), or at the end."""
    old = path.read_text(encoding="utf-8")
    pattern = re.compile(rf"^## {re.escape(section)}\n.*?(?=^## |\Z)", re.M | re.S)
    after = re.compile(rf"^## {re.escape(after_section)}\n.*?(?=^## |\Z)", re.M | re.S)
    if pattern.search(old):
        new = pattern.sub(lambda _: text.rstrip("\n") + "\n\n", old, count=1)
    elif match := after.search(old):
        end = match.end()
        new = old[:end].rstrip("\n") + "\n\n" + text.rstrip("\n") + "\n\n" + old[end:]
    else:
        new = old.rstrip("\n") + "\n\n" + text
    path.write_text(new.rstrip("\n") + "\n", encoding="utf-8")


# --- the clients -------------------------------------------------------------------------------


@dataclass
class Mover:
    """One client's games between its two players, followed with the rules engine."""

    tokens: dict[str, str]  # side ("orange"/"blue") -> the token of that side's player
    games: list[int]
    rng: random.Random
    state: GameState = field(default_factory=GameState.new)

    def next_move(self) -> tuple[int, str, dict[str, Any]] | None:
        """(game id, token, body) of the next move, moving on to a new game when one ends."""
        while self.games and self.state.is_over():
            self.games.pop(0)
            self.state = GameState.new()
        if not self.games:
            return None
        move = move_choose(self.state, self.rng)
        side = self.state.to_move
        assert side is not None
        return (
            self.games[0],
            self.tokens[side.name.lower()],
            {"ply": self.state.ply, "move": str(move)},
        )

    def played(self, move: str) -> None:
        self.state.apply(move)

    def lost(self) -> None:
        """A move was refused: leave the game (its state is no longer known)."""
        self.games.pop(0)
        self.state = GameState.new()


@dataclass
class Plan:
    """What the clients need: tokens, ids and the movers, one per client."""

    tokens: list[str]
    game: int
    rank_page: str  # the URL of a page in the middle of the ranking list
    ranked_players: list[int]
    movers: list[Mover]


Request = Callable[[Any, int], Awaitable[bool]]


def requests_for(plan: Plan) -> list[tuple[str, Request]]:
    """The endpoints, each a coroutine (client, index) -> whether it succeeded."""

    def get(url_of: Callable[[int], str]) -> Request:
        async def call(client: Any, index: int) -> bool:
            token = plan.tokens[index % len(plan.tokens)]
            response = await client.get(url_of(index), headers={"Authorization": f"Token {token}"})
            return bool(response.status_code == 200)

        return call

    async def move(client: Any, index: int) -> bool:
        mover = plan.movers[index]
        step = mover.next_move()
        if step is None:
            raise LookupError(f"client {index} has played all its games")
        game, token, body = step
        response = await client.post(
            f"/api/v1/games/{game}/moves/", json=body, headers={"Authorization": f"Token {token}"}
        )
        if response.status_code != 201:
            mover.lost()
            return False
        mover.played(body["move"])
        return True

    players = plan.ranked_players
    return [
        (BASELINE, get(lambda i: "/api/v1/accounts/me/")),
        ("game detail", get(lambda i: f"/api/v1/games/{plan.game}/")),
        ("my games", get(lambda i: "/api/v1/games/?mine=true")),
        ("move", move),
        ("ranking list", get(lambda i: plan.rank_page)),
        ("ranking player", get(lambda i: f"/api/v1/rankings/players/{players[i % len(players)]}/")),
    ]


async def run_level(
    base_url: str, name: str, request: Request, *, clients: int, duration: float
) -> Result:
    """`clients` clients calling `request` back to back for `duration` seconds."""
    import httpx

    result = Result(endpoint=name, clients=clients, seconds=duration)
    stop = time.perf_counter() + duration

    async def client_loop(index: int) -> float:
        """The seconds this client spent asking (until its last answer)."""
        async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:
            began = time.perf_counter()
            while time.perf_counter() < stop:
                sent = time.perf_counter()
                try:
                    ok = await request(client, index)
                except LookupError:
                    break
                except httpx.HTTPError:
                    ok = False
                if ok:
                    result.latencies.append(time.perf_counter() - sent)
                else:
                    result.errors += 1
            return time.perf_counter() - began

    busy = await asyncio.gather(*(client_loop(i) for i in range(clients)))
    # each client's time until its own last answer, not until the slowest one's: a client
    # that is done does not wait for the others, so the end of a run does not count against
    # the slower endpoints
    result.seconds = sum(busy) / clients
    return result


async def drive(
    base_url: str, plan: Plan, *, levels: Sequence[int], duration: float, rounds: int = 1
) -> list[Result]:
    """Every endpoint at every concurrency, after a warm-up of the reads (not counted).

    Each endpoint's ``duration`` at a concurrency is cut into ``rounds`` slices, taken in
    turn with the other endpoints' (baseline, game, ..., baseline, game, ...), so that the
    machine speeding up or slowing down during the run (shared cores) weighs on every
    endpoint alike instead of on whichever ran then.
    """
    results = []
    for name, request in requests_for(plan):
        if name != "move":
            await run_level(base_url, name, request, clients=4, duration=1)
    for clients in levels:
        level: dict[str, Result] = {}
        for _ in range(rounds):
            for name, request in requests_for(plan):
                part = await run_level(
                    base_url, name, request, clients=clients, duration=duration / rounds
                )
                if name in level:
                    level[name].add(part)
                else:
                    level[name] = part
        for name, result in level.items():
            print(
                f"{name} at {clients}: {result.rate:,.1f}/s, "
                f"p50 {_ms(percentile(result.latencies, 0.5))}, errors {result.errors}",
                flush=True,
            )
            results.append(result)
    return results


# --- the database and the server --------------------------------------------------------------


def plan_make(*, clients: int, games_per_client: int, seed: int) -> Plan:
    """Tokens for the seeded players, and each client's own games (made here, fresh)."""
    from django.contrib.auth.models import User

    from accounts.models import Vacation
    from accounts.services import api_token_create
    from games import services
    from rankings.models import RankingPosition

    rng = random.Random(seed)
    away = set(Vacation.objects.values_list("user_id", flat=True))
    users = [u for u in User.objects.order_by("pk")[: 4 * clients + 100] if u.pk not in away]
    if len(users) < 2 * clients + 2:
        raise SystemExit(f"need {2 * clients + 2} players, the database has {len(users)}")
    stamp = datetime.now(UTC).strftime("%Y%m%d%H%M%S")
    keys = {
        u.pk: api_token_create(user=u, name=f"load {stamp}")[1] for u in users[: 2 * clients + 2]
    }
    pairs = [(users[2 * i], users[2 * i + 1]) for i in range(clients)]
    games = services.games_start_many(pairs=[p for p in pairs for _ in range(games_per_client)])
    movers = [
        Mover(
            tokens={"orange": keys[a.pk], "blue": keys[b.pk]},
            games=[g.pk for g in games[i * games_per_client : (i + 1) * games_per_client]],
            rng=random.Random(rng.random()),
        )
        for i, (a, b) in enumerate(pairs)
    ]
    shown = services.game_start(players=[users[-2], users[-1]])
    _play_some(shown.pk, users=(users[-2], users[-1]), rng=rng, plies=12)
    ranked = list(RankingPosition.objects.order_by("position").values_list("player_id", flat=True))
    if not ranked:
        raise SystemExit("the ranking is empty: seed the database first (run without --reuse)")
    return Plan(
        tokens=[keys[u.pk] for u in users[: 2 * clients : 2]],
        game=shown.pk,
        rank_page=scale.ranking_page_at(len(ranked) // 2),
        ranked_players=ranked[500 : 500 + clients] or ranked[:clients],
        movers=movers,
    )


def _play_some(game_id: int, *, users: tuple[Any, Any], rng: random.Random, plies: int) -> None:
    from games import services

    state = GameState.new()
    while state.ply < plies and not state.is_over():
        move = str(move_choose(state, rng))
        mover = (
            users[0] if state.to_move is not None and state.to_move.name == "ORANGE" else users[1]
        )
        services.move_submit(game_id=game_id, user=mover, expected_ply=state.ply, notation=move)
        state.apply(move)


def database_ensure(url: str, *, reuse: bool) -> None:
    """Create the database `url` names if it does not exist (it must, to be reused)."""
    import dj_database_url
    import psycopg
    from psycopg import sql

    config = dj_database_url.parse(url)
    name = config["NAME"]
    params = {"host": config["HOST"], "port": config["PORT"] or 5432, "user": config["USER"]}
    with psycopg.connect(dbname="postgres", autocommit=True, **params) as connection:
        found = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        if found.fetchone():
            return
        if reuse:
            raise SystemExit(f"database {name!r} does not exist: run once without --reuse")
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        print(f"created database {name}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_start(*, database_url: str, redis_url: str, workers: int, port: int) -> Any:
    """gunicorn serving the site with DEBUG off; returns the process once it answers."""
    import httpx

    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "DJANGO_DEBUG": "false",
        "API_THROTTLE_ANON": "1000000/minute",
        "API_THROTTLE_USER": "1000000/minute",
        "API_THROTTLE_MOVES": "1000000/minute",
    }
    root = Path(__file__).resolve().parent.parent
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH")]))
    gunicorn = Path(sys.executable).with_name("gunicorn")
    process = subprocess.Popen(
        [
            str(gunicorn),
            "celticsite.wsgi",
            "--workers",
            str(workers),
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
            "--chdir",
            str(root),
        ],
        env=env,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"gunicorn exited with {process.returncode}")
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/v1/accounts/me/", timeout=2)
            return process
        except httpx.HTTPError:
            time.sleep(0.3)
    process.terminate()
    raise SystemExit("gunicorn did not answer within 60 s")


def postgres_version() -> str:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        return str(cursor.fetchone()[0]).split()[0]


def section(
    results: Sequence[Result],
    beat: Sequence[tuple[str, float, int | None]],
    *,
    args: argparse.Namespace,
    machine: dict[str, str],
) -> str:
    beat_rows = "\n".join(
        f"| {n} | {s * 1000:,.0f} ms | {'—' if q is None else q} |" for n, s, q in beat
    )
    return f"""## {SECTION}

Command: `make bench-scale` (`.venv/bin/python -m bench.scale_load --write`).
Data: the database of "Scale" ({args.players:,} players, {args.finished:,} rated results,
{args.running:,} running games, seed {args.seed}).
Server: gunicorn, {args.workers} sync workers, DEBUG off, Redis for cache and broker,
throttles raised out of the way, on the same machine as PostgreSQL and the clients (whose
CPU use is part of the machine's load).
Load: each endpoint alone for {args.duration:g} s at each concurrency, in {args.rounds} slices
taken in rotation with the other endpoints' (so that the machine's speed changing during the
run weighs on all alike); a client sends its next request when the last one is answered
(httpx, one keep-alive connection each), and requests/s is each client's answers over its
own time until its last answer, summed. The endpoints: `/api/v1/accounts/me/` (the
baseline), a game with 12 moves, `/api/v1/games/?mine=true` (first page), a move
(`POST .../moves/`: each client plays random legal moves, chosen with the rules engine, in
games of its own), `/api/v1/rankings/?cursor=<the middle>` and
`/api/v1/rankings/players/<id>/`. An error is any answer but 200 (201 for a move).
Written by the command itself.

{machine_line(machine)}

{report_table(results)}

The beat tasks, in one process on the same database (median of five runs; queries of one):

| task | time | queries |
| --- | ---: | ---: |
{beat_rows}
"""


def machine_describe(*, postgres: str, load_start: str) -> dict[str, str]:
    """The machine a run measured on, with the load average at its start and now."""
    return {
        "cpu": f"{_cpu()}, {os.cpu_count()} cores (nproc)",
        "python": f"CPython {platform.python_version()} on {platform.system()}",
        "postgres": postgres,
        "load_start": load_start,
        "load_end": load_average(),
    }


def machine_line(machine: dict[str, str]) -> str:
    """A section's "Machine:" line (``machine_describe``)."""
    return (
        f"Machine: {machine['cpu']}; {machine['python']}; PostgreSQL {machine['postgres']};\n"
        f"load average (1/5/15 min) {machine['load_start']} at the start, "
        f"{machine['load_end']} at the end."
    )


def load_average() -> str:
    return " / ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=DEFAULT_URL, help="a disposable database")
    scale.size_arguments(parser)
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per measurement")
    parser.add_argument(
        "--rounds", type=int, default=5, help="slices of each measurement, taken in rotation"
    )
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--write", action="store_true", help=f"update {DOC.name}")
    args = parser.parse_args()
    if min(args.clients) < 1 or args.duration <= 0 or args.rounds < 1:
        parser.error("--clients and --rounds must be at least 1 and --duration more than 0")
    # stopped with a signal, still stop the server (the finally clause below)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))
    load_start = load_average()
    database_ensure(args.database_url, reuse=args.reuse)
    os.environ["DATABASE_URL"] = args.database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "celticsite.settings")
    import django

    django.setup()
    logging.getLogger("httpx").setLevel(logging.WARNING)
    from django.db import connections

    now = datetime.now(UTC)
    if not args.reuse:
        scale.seed(
            players=args.players,
            finished=args.finished,
            running=args.running,
            seed=args.seed,
            now=now,
        )
    beat = scale.beat_measure(now=now)
    for name, seconds, queries in beat:
        counted = "" if queries is None else f", {queries} queries"
        print(f"{name}: {seconds * 1000:,.0f} ms{counted}", flush=True)
    # a client plays at most about 100 moves a second; a game lasts about 18 plies
    plan = plan_make(
        clients=max(args.clients), games_per_client=int(args.duration * 6) + 4, seed=args.seed
    )
    postgres = postgres_version()
    connections.close_all()
    port = free_port()
    redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/9")
    server = server_start(
        database_url=args.database_url, redis_url=redis_url, workers=args.workers, port=port
    )
    try:
        results = asyncio.run(
            drive(
                f"http://127.0.0.1:{port}",
                plan,
                levels=args.clients,
                duration=args.duration,
                rounds=args.rounds,
            )
        )
    finally:
        server.terminate()
        server.wait(timeout=30)
    machine = machine_describe(postgres=postgres, load_start=load_start)
    text = section(results, beat, args=args, machine=machine)
    print(text)
    if args.write:
        write_section(text)


if __name__ == "__main__":
    main()
