"""Benchmark: recompute every rating (Elo and Glicko-2) from a synthetic history.

    .venv/bin/python -m bench.ratings [--games 100000] [--players 2000] [--seed 1] [--db] [--write]
        [--database-url postgres://postgres@127.0.0.1:5432/celtic_bench]

Uses `rankings.rating.history.replay`, the same function the recomputation command runs.
The history is generated with a seeded RNG, so every run rates the same games. With --db it
also imports the history into a fresh SQLite database in a temporary directory and times
`rankings.services.ratings_recompute` (what `manage.py ratings_recompute` runs), which
reads every result and rewrites every rating and history row. With --write (implies --db)
it replaces the "Ratings" section of docs/BENCHMARKS.md with the results. With
--database-url the database part runs on that (existing, disposable) PostgreSQL database
instead: its ranking tables are emptied first.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import tempfile
import time
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from rankings.rating.history import GameRecord, PlayerState, RatingParams, replay


def synthetic_history(*, games: int, players: int, seed: int) -> list[GameRecord[int]]:
    """`games` results among `players` players over about five years, in date order.

    Each player has a hidden strength; the stronger player wins more often, and about one
    game in eight is a draw.
    """
    rng = random.Random(seed)
    strength = [rng.gauss(1500.0, 250.0) for _ in range(players)]
    start = date(2020, 1, 1).toordinal()
    days = 5 * 365
    records = []
    for index in range(games):
        a, b = rng.sample(range(players), 2)
        expected = 1.0 / (1.0 + 10.0 ** ((strength[b] - strength[a]) / 400.0))
        roll = rng.random()
        if roll < 0.125:
            score = 0.5
        elif rng.random() < expected:
            score = 1.0
        else:
            score = 0.0
        records.append(GameRecord(a, b, score, date.fromordinal(start + index * days // games)))
    return records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--db", action="store_true", help="also time the database recompute")
    parser.add_argument(
        "--write", action="store_true", help="write docs/BENCHMARKS.md (implies --db)"
    )
    parser.add_argument(
        "--database-url",
        default="",
        help="a disposable PostgreSQL database for the database part (default: SQLite)",
    )
    args = parser.parse_args()
    load = os.getloadavg()[0]

    records = synthetic_history(games=args.games, players=args.players, seed=args.seed)
    params = RatingParams()
    timings = []
    states = {}
    for _ in range(args.repeat):
        began = time.perf_counter()
        states = replay(records, params=params)
        timings.append(time.perf_counter() - began)
    best = min(timings)
    top = max(states.values(), key=lambda state: state.elo.rating)
    print(f"python {platform.python_version()} on {platform.machine()}")
    print(f"games={args.games} players={len(states)} seed={args.seed} repeat={args.repeat}")
    print(f"replay (Elo + Glicko-2): best {best:.2f} s, {args.games / best:,.0f} games/s")
    print(f"runs: {', '.join(f'{t:.2f}' for t in timings)} s")
    print(f"top Elo {top.elo.rating:.1f}, Glicko-2 {top.glicko.rating:.1f} RD {top.glicko.rd:.1f}")
    if not (args.db or args.write or args.database_url):
        return
    timings = bench_database(records, states, database_url=args.database_url)
    if args.write:
        write_section(
            games=args.games, players=len(states), seed=args.seed, repeat=args.repeat, load=load,
            replay=best, db=timings,
        )  # fmt: skip


def _cpu() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def write_section(
    *, games: int, players: int, seed: int, repeat: int, load: float, replay: float,
    db: DatabaseTimings,
) -> None:  # fmt: skip
    """Replace (or add) the "## Ratings" section of docs/BENCHMARKS.md, leaving the rest."""
    path = Path(__file__).resolve().parent.parent / "docs" / "BENCHMARKS.md"
    met = {True: "yes", False: "no"}
    rows = [
        ("measurement", "result", "target", "met"),
        ("---", "---", "---", "---"),
        (
            "replay all games, Elo + Glicko-2 (`rankings.rating.history.replay`)",
            f"{replay:.2f} s ({games / replay:,.0f} games/s)",
            "< 10 s",
            met[replay < 10],
        ),
        (
            f"`ratings_recompute` on {db.backend}, history consistent: read the results, replay, "
            "compare every stored history row, write nothing",
            f"{db.unchanged:.2f} s",
            "< 10 s",
            met[db.unchanged < 10],
        ),
        (
            f"`ratings_recompute` on {db.backend} from an empty rating history: write "
            f"{db.rewritten_rows:,} history rows and every rating",
            f"{db.rewritten:.2f} s",
            "< 10 s",
            met[db.rewritten < 10],
        ),
        (
            f"annul the middle result (`ratings_recompute(since=...)`): replay all, "
            f"rewrite the {db.annulled_rows:,} history rows that changed",
            f"{db.annulled:.2f} s",
            "—",
            "—",
        ),
        (
            "`ratings_import` path (`results_import`): store the results, then recompute",
            f"{db.imported:.2f} s",
            "—",
            "—",
        ),
        (
            "database ratings identical to the pure replay",
            met[db.identical],
            "yes",
            met[db.identical],
        ),
    ]
    table = "\n".join("| " + " | ".join(row) + " |" for row in rows)
    title = "Ratings" if db.backend == "SQLite" else f"Ratings on {db.backend}"
    option = "" if db.backend == "SQLite" else " --database-url URL"
    section = f"""## {title}

Command: `.venv/bin/python -m bench.ratings --write{option}` ({games:,} synthetic games among
{players:,} players over five years, seed {seed}; replay time is the best of {repeat} runs).
Written by the command itself.

Machine: {_cpu()}, {os.cpu_count()} cores (the benchmark uses one); CPython \
{platform.python_version()} on {platform.system()}; load average {load:.1f} at the start.

{table}

The replay is the one function every rating update goes through (incremental update,
recomputation, `ratings_replay`), so its time is the cost of the maths alone. An annulment,
an adjudication or a result reported out of order replays the whole history in the same way
but rewrites the stored rating history only from the earliest result it affects.
"""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    start = text.find(f"\n## {title}\n")
    if start == -1:
        text = text.rstrip("\n") + "\n\n" + section
    else:
        end = text.find("\n## ", start + 1)
        rest = "" if end == -1 else "\n" + text[end + 1 :]
        text = text[: start + 1] + section + rest
    path.write_text(text, encoding="utf-8")
    print(f"wrote the Ratings section of {path}")


@dataclass(frozen=True)
class DatabaseTimings:
    imported: float  # results_import: store the results, then the first recompute
    unchanged: float  # ratings_recompute with a consistent history: nothing to write
    rewritten: float  # ratings_recompute with an empty rating history: everything written
    annulled: float  # annulling the middle result: recompute, rewrite from there on
    rewritten_rows: int
    annulled_rows: int
    identical: bool
    backend: str = "SQLite"


def bench_database(
    records: list[GameRecord[int]], states: dict[int, PlayerState], *, database_url: str = ""
) -> DatabaseTimings:
    """Import `records` into a fresh SQLite database (or the emptied ranking tables of
    `database_url`) and time the recomputations."""
    with tempfile.TemporaryDirectory() as var:
        if database_url:
            os.environ["DATABASE_URL"] = database_url
        else:
            os.environ.pop("DATABASE_URL", None)
        os.environ["CELTIC_VAR_DIR"] = var
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "celticsite.settings")
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection

        from rankings.csvimport import ImportedResult
        from rankings.models import Player, PlayerRating, RatedResult, RatingSnapshot
        from rankings.services import ratings_recompute, results_import

        call_command("migrate", verbosity=0)
        backend = {"postgresql": "PostgreSQL", "sqlite": "SQLite"}.get(
            connection.vendor, connection.vendor
        )
        if database_url:
            for model in (RatingSnapshot, PlayerRating, RatedResult, Player):
                model.objects.all().delete()
        result_text = {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}
        rows = [
            ImportedResult(
                line, r.played_on, f"p{r.player1}", f"p{r.player2}", result_text[r.score1]
            )
            for line, r in enumerate(records, start=1)
        ]

        def timed(action):  # type: ignore[no-untyped-def]
            began = time.perf_counter()
            outcome = action()
            return time.perf_counter() - began, outcome

        imported, _ = timed(lambda: results_import(results=rows))
        unchanged, summary = timed(ratings_recompute)
        names = dict(Player.objects.values_list("pk", "name"))
        stored = {names[r.player_id]: r.to_state() for r in PlayerRating.objects.all()}
        identical = stored == {f"p{key}": state for key, state in states.items()}

        RatingSnapshot.objects.all().delete()
        PlayerRating.objects.all().delete()
        rewritten, full = timed(ratings_recompute)

        middle = RatedResult.objects.order_by("finished_at", "id")[len(records) // 2]
        RatedResult.objects.filter(pk=middle.pk).update(annulled=True)
        annulled, partial = timed(lambda: ratings_recompute(since=middle.finished_at))
        timings = DatabaseTimings(
            imported=imported,
            unchanged=unchanged,
            rewritten=rewritten,
            annulled=annulled,
            rewritten_rows=full.history_rows_written,
            annulled_rows=partial.history_rows_written,
            identical=identical,
            backend=backend,
        )
        print(f"database ({backend}): import incl. first recompute {imported:.2f} s")
        print(
            f"database ({backend}): ratings_recompute {unchanged:.2f} s for {summary.results} "
            f"results, {summary.changed} players changed, identical to replay: {identical}"
        )
        written = full.history_rows_written
        print(f"database ({backend}): recompute writing {written} rows {rewritten:.2f} s")
        print(
            f"database ({backend}): annul the middle result {annulled:.2f} s, "
            f"{partial.history_rows_written} history rows rewritten"
        )
    return timings


if __name__ == "__main__":
    main()
