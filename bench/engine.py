"""Benchmark: the rules engine's speed on one core.

    .venv/bin/python -m bench.engine [--seconds 3] [--seed 1] [--write]

Measures complete random games per second, legal-move generation on a fixed seeded set of
mid-game positions, record replays per second, and the two puzzle timings (counting every
easy layout by knots; finding a hard solution), each from cold caches. Prints a Markdown
section; ``--write`` also puts it into the "Engine" section of docs/BENCHMARKS.md, leaving the
other sections of that file alone. Timings never go into tests.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from games.kinds.celtic import GameState, random_playout
from games.kinds.celtic.puzzles import clear_caches, count_easy, find_hard

DOC = Path(__file__).resolve().parent.parent / "docs" / "BENCHMARKS.md"
SECTION = "Engine"
COMMAND = ".venv/bin/python -m bench.engine --write"


@dataclass(frozen=True)
class Measure:
    name: str
    value: float
    unit: str
    target: str
    met: bool | None


def rate(run_once: Callable[[], int], seconds: float) -> float:
    """Operations per second of ``run_once`` (which answers how many it did), over ``seconds``."""
    done = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        done += run_once()
        elapsed = time.perf_counter() - start
    return done / elapsed


def random_games_per_second(seconds: float, seed: int) -> float:
    rng = random.Random(seed)
    start = GameState.new()

    def one() -> int:
        random_playout(start, rng)
        return 1

    return rate(one, seconds)


def mid_game_positions(count: int, seed: int) -> list[GameState]:
    """``count`` positions halfway through seeded random games (the same every run)."""
    rng = random.Random(seed)
    positions: list[GameState] = []
    while len(positions) < count:
        game = random_playout(GameState.new(), rng)
        half = [str(turn) for turn in game.history[: len(game.history) // 2]]
        state = GameState.replay(half)
        if not state.is_over():
            positions.append(state)
    return positions


def generations_per_second(positions: list[GameState], seconds: float) -> tuple[float, float]:
    """(fresh generations/s, cached lookups/s) of legal moves over the positions.

    ``legal_moves()`` for the side to move answers a list the state computed when the last
    move was applied; asking for the other player's moves runs the generator itself.
    """
    others = [(state, state.to_move.opponent) for state in positions if state.to_move]

    def fresh() -> int:
        for state, player in others:
            state.legal_moves(player)
        return len(others)

    def cached() -> int:
        for state in positions:
            state.legal_moves()
        return len(positions)

    return rate(fresh, seconds), rate(cached, seconds)


def replays_per_second(seconds: float, seed: int) -> float:
    rng = random.Random(seed)
    histories = [random_playout(GameState.new(), rng).history for _ in range(200)]
    index = 0

    def one() -> int:
        nonlocal index
        GameState.replay(histories[index % len(histories)])
        index += 1
        return 1

    return rate(one, seconds)


def cold_seconds(task: Callable[[], object], repeats: int = 3) -> float:
    """Median wall time of ``task`` with the puzzle tables cleared before each run."""
    times = []
    for _ in range(repeats):
        clear_caches()
        start = time.perf_counter()
        task()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(seconds: float, seed: int) -> list[Measure]:
    games = random_games_per_second(seconds, seed)
    fresh, cached = generations_per_second(mid_game_positions(500, seed), seconds)
    replays = replays_per_second(seconds, seed)
    count = cold_seconds(count_easy)
    hard = cold_seconds(find_hard)
    return [
        Measure("complete random games", games, "games/s", "≥ 1,000 games/s", games >= 1000),
        Measure("legal-move generation, mid-game", fresh, "positions/s", "—", None),
        Measure("legal_moves() for the side to move (precomputed)", cached, "calls/s", "—", None),
        Measure("record replays (checked)", replays, "games/s", "—", None),
        Measure("count all easy-puzzle layouts by knots", count, "s", "< 10 s", count < 10),
        Measure("find a hard-puzzle solution", hard, "s", "< 1 s", hard < 1),
    ]


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ""
    if hasattr(os, "getloadavg"):
        load = f"; load average {os.getloadavg()[0]:.1f} at the start"
    return (
        f"{cpu}, {os.cpu_count()} cores (the benchmark uses one); "
        f"{platform.python_implementation()} {platform.python_version()} on {platform.system()}"
        f"{load}"
    )


def section(results: list[Measure], seconds: float, seed: int) -> str:
    lines = [
        f"## {SECTION}",
        "",
        f"Command: `{COMMAND}` (seed {seed}, {seconds:g} s per throughput measurement; "
        "puzzle timings are the median of three cold runs). Written by the command itself.",
        "",
        f"Machine: {machine()}.",
        "",
        "| measurement | result | target | met |",
        "|---|---|---|---|",
    ]
    for m in results:
        value = f"{m.value:,.0f} {m.unit}" if m.unit != "s" else f"{m.value:.2f} s"
        met = "—" if m.met is None else ("yes" if m.met else "**no**")
        lines.append(f"| {m.name} | {value} | {m.target} | {met} |")
    lines += [
        "",
        "Mid-game positions: 500 positions halfway through seeded random games; the generation",
        "rate asks each position for the moves of the player not to move, which runs the",
        "generator (its per-cell table is warm, as in a running server).",
        "",
    ]
    return "\n".join(lines)


def write_section(text: str, path: Path = DOC) -> None:
    """Replace (or add) the Engine section of the benchmarks document."""
    old = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    pattern = re.compile(rf"^## {SECTION}\n.*?(?=^## |\Z)", re.MULTILINE | re.DOTALL)
    if pattern.search(old):
        new = pattern.sub(lambda _: text + "\n", old, count=1)
    else:
        new = old.rstrip("\n") + "\n\n" + text + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(new.rstrip("\n") + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per throughput test")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true", help=f"update {DOC.name}")
    args = parser.parse_args()
    text = section(measure(args.seconds, args.seed), args.seconds, args.seed)
    print(text)
    if args.write:
        write_section(text)


if __name__ == "__main__":
    main()
