"""Benchmark: the Celtic Knot engine's speed on one core, pure Python.

    .venv/bin/python -m bench.knot [--seconds 3] [--seed 1] [--write]

Measures complete random 4-seat games per second through the integer core
(``games.kinds.knot.core.random_playout``, the target) and through the contract's text API
(``KnotState.play``, two choices a move), and checked replays of stored steps and of records.
Flips come from ``random.Random`` (the core's playout draws ``getrandbits``; the text API a
cheap ``Chance`` built on it), not from SHA-256. Prints a Markdown section; ``--write`` puts it
into the "Celtic Knot engine" section of docs/BENCHMARKS.md, leaving the others alone.
"""

from __future__ import annotations

import argparse
import random
import re
import time
from collections.abc import Callable
from pathlib import Path

from bench.engine import DOC, Measure, machine, rate
from games.kinds.knot.core import random_playout
from games.kinds.knot.kind import KIND
from games.kinds.knot.record import parse_record, record_text
from games.kinds.knot.state import KnotState

SECTION = "Celtic Knot engine"
COMMAND = ".venv/bin/python -m bench.knot --write"
SEATS = 4


class RandomChance:
    """A cheap chance source for benchmarks: 32 bytes from ``random.Random`` per draw."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def draw(self, index: int) -> bytes:
        return self.rng.randbytes(32)


def cpu_rate(run_once: Callable[[], int], seconds: float) -> float:
    """Like ``bench.engine.rate``, per second of this process's CPU time (not wall time), so
    that other jobs sharing the cores do not count against the engine."""
    done = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        done += run_once()
        elapsed = time.process_time() - start
    return done / elapsed


def text_api_game(rng: random.Random) -> KnotState:
    """A random game played through the contract: a space, then a destination, as text."""
    state = KIND.new_state(SEATS, chance=RandomChance(rng))
    while not state.is_over():
        choices = state.legal_choices()
        state.play(choices[int(rng.random() * len(choices))])
    return state


def measure(seconds: float, seed: int) -> tuple[list[Measure], float]:
    rng = random.Random(seed)
    moves = [0, 0]

    def core_game() -> int:
        core = random_playout(rng, SEATS)
        moves[0] += core.flippings
        moves[1] += 1
        return 1

    core_rate = rate(core_game, seconds)
    core_cpu_rate = cpu_rate(core_game, seconds)
    text_rate = rate(lambda: (text_api_game(rng), 1)[1], seconds)
    games = [text_api_game(rng) for _ in range(50)]
    records = [record_text(game, {}) for game in games]
    index = iter(range(1 << 62))
    replay_rate = rate(lambda: _replay(games[next(index) % 50]), seconds)
    record_rate = rate(lambda: _parse(records[next(index) % 50]), seconds)
    return [
        Measure("complete random games, integer core (wall time)", core_rate, "games/s", "—", None),
        Measure(
            "complete random games, integer core (per CPU second)",
            core_cpu_rate,
            "games/s",
            "≥ 1,000 games/s",
            core_cpu_rate >= 1000,
        ),
        Measure("complete random games, text API (`play`)", text_rate, "games/s", "—", None),
        Measure("replays of stored steps (checked)", replay_rate, "games/s", "—", None),
        Measure("records read and checked", record_rate, "games/s", "—", None),
    ], moves[0] / max(moves[1], 1)


def _replay(game: KnotState) -> int:
    KIND.replay(SEATS, game.steps)
    return 1


def _parse(text: str) -> int:
    parse_record(text)
    return 1


def section(results: list[Measure], moves: float, seconds: float, seed: int) -> str:
    lines = [
        f"## {SECTION}",
        "",
        f"Command: `{COMMAND}` (seed {seed}, {seconds:g} s per measurement, {SEATS} seats). "
        "Written by the command itself.",
        "",
        f"Machine: {machine()}.",
        "",
        "| measurement | result | target | met |",
        "|---|---|---|---|",
    ]
    for m in results:
        met = "—" if m.met is None else ("yes" if m.met else "**no**")
        lines.append(f"| {m.name} | {m.value:,.0f} {m.unit} | {m.target} | {met} |")
    lines += [
        "",
        "The target is judged per second of the process's CPU time (`time.process_time`), the",
        "speed of one core however many other jobs share the machine; the wall-time row is what",
        "this run saw with the load above.",
        "",
        f"A random {SEATS}-seat game averaged {moves:.0f} moves (flippings). Every choice is",
        "uniform (a stack, then a route); flips come from `random.Random`, not from SHA-256 of a",
        "seed (the text API takes them from a cheap `Chance` over the same generator). The core",
        "reads the routes from a table computed at import (`ROUTES[space][points]`); the text",
        "API, replays and records run on the same core with names and checks around it.",
        "",
    ]
    return "\n".join(lines)


def write_section(text: str, path: Path = DOC) -> None:
    """Replace (or add) this section of the benchmarks document."""
    old = path.read_text(encoding="utf-8")
    pattern = re.compile(rf"^## {re.escape(SECTION)}\n.*?(?=^## |\Z)", re.MULTILINE | re.DOTALL)
    if pattern.search(old):
        new = pattern.sub(lambda _: text + "\n", old, count=1)
    else:
        new = old.rstrip("\n") + "\n\n" + text + "\n"
    path.write_text(new.rstrip("\n") + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true", help=f"update {DOC.name}")
    args = parser.parse_args()
    results, moves = measure(args.seconds, args.seed)
    text = section(results, moves, args.seconds, args.seed)
    print(text)
    if args.write:
        write_section(text)


if __name__ == "__main__":
    main()
