"""Benchmark and soak runs of the Swiss (FIDE Dutch) pairing engine.

    .venv/bin/python -m bench.swiss [--sizes 50 200 1000] [--rounds 1 2 9] [--seeds 1] [--write]
    .venv/bin/python -m bench.swiss --sizes 1000 --rounds 1-3 --seeds 1 2 3 4
    .venv/bin/python -m bench.swiss soak [--events 50] [--max-players 100] [--seed 1]
    .venv/bin/python -m bench.swiss agree --bbp PATH [--events 50] [--save DIR]

The default run times the pairing of rounds 1, 2 and 9 of a 9-round event for each field size
(the history comes from a quick greedy pairing, see ``quick_history``), prints a Markdown section
and with ``--write`` puts it into the "Swiss pairing" section of docs/BENCHMARKS.md. ``--rounds``
takes round numbers or ranges (``1-3``); ``--seeds`` times each round for several histories
(their score groups differ: whether a group is odd, whether it needs an exchange).
``soak`` replays random events (9-100 players, 5-11 rounds, draws, forfeits, byes,
absences, late entries, withdrawals) and checks every round with the independent checker.
``agree`` pairs the same rounds with a bbpPairings binary you built yourself
(``bbpPairings --dutch FILE -p``) and reports how many rounds agree exactly; ``--save`` keeps
each round's TRF and bbpPairings' output as a test case. Timings never go into tests.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tournaments.pairing.base import PairingError, RoundPairing
from tournaments.pairing.dutch import pair_dutch
from tournaments.pairing.dutch.checker import pairing_violations
from tournaments.pairing.dutch.simulation import EventShape, RoundInput, quick_history, random_event
from tournaments.standings.records import Colour
from tournaments.trf import TrfTournament, format_trf

DOC = Path(__file__).resolve().parent.parent / "docs" / "BENCHMARKS.md"
SECTION = "Swiss pairing"
TARGETS = {(200, 9): 1.0, (1000, 9): 30.0, (1000, 2): 30.0}  # (players, round): seconds


def time_round(players: int, seed: int, round_number: int = 9) -> tuple[float, float]:
    """Wall-clock and CPU seconds to pair ``round_number`` of 9 for ``players``."""
    records = quick_history(random.Random(seed), players, round_number - 1)
    start, cpu = time.perf_counter(), time.process_time()
    pair_dutch(records, round_number=round_number, total_rounds=9)
    return time.perf_counter() - start, time.process_time() - cpu


def benchmark(sizes: list[int], seeds: list[int], rounds: list[int]) -> str:
    rows = []
    for size in sizes:
        for round_number in rounds:
            for seed in seeds:
                rows.append(_row(size, seed, round_number, len(seeds) > 1))
                print(rows[-1], file=sys.stderr)
    load = os.getloadavg()[0]
    seed_flags = f"--seeds {' '.join(map(str, seeds))}"
    return "\n".join(
        [
            f"## {SECTION}",
            "",
            f"Command: `.venv/bin/python -m bench.swiss --sizes {' '.join(map(str, sizes))} "
            f"--rounds {' '.join(map(str, rounds))} {seed_flags} --write` (one run each; the "
            "rounds of history are paired greedily, then the round is paired by the Dutch "
            "engine). Written by the command itself. How "
            "the engine reaches these times: "
            '"How the engine stays fast" in docs/TOURNAMENTS.md.',
            "",
            f"Machine: {platform.machine()}, {os.cpu_count()} cores (the benchmark uses one); "
            f"CPython {platform.python_version()} on {platform.system()}; load average "
            f"{load:.1f} at the end.",
            "",
            "| measurement | result | target | met |",
            "|---|---|---|---|",
            *rows,
            "",
        ]
    )


def _row(size: int, seed: int, round_number: int, name_seed: bool) -> str:
    seconds, cpu = time_round(size, seed, round_number)
    target = TARGETS.get((size, round_number))
    met = "—" if target is None else ("yes" if seconds < target else "no")
    limit = "—" if target is None else f"< {target:g} s"
    label = f"{size} players, round {round_number} of 9" + (f", seed {seed}" if name_seed else "")
    return f"| {label} | {seconds:.2f} s ({cpu:.2f} s CPU) | {limit} | {met} |"


def round_numbers(text: str) -> list[int]:
    """``"2"`` or a range ``"1-3"``: rounds of a 9-round event."""
    first, _, last = text.partition("-")
    try:
        rounds = list(range(int(first), int(last or first) + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a round or a range like 1-3") from None
    if not rounds or not all(1 <= r <= 9 for r in rounds):
        raise argparse.ArgumentTypeError(f"{text!r}: rounds of a 9-round event are 1 to 9")
    return rounds


def write_section(text: str) -> None:
    doc = DOC.read_text(encoding="utf-8")
    pattern = re.compile(rf"^## {re.escape(SECTION)}\n.*?(?=^## |\Z)", re.M | re.S)
    if pattern.search(doc):
        doc = pattern.sub(lambda _: text + "\n", doc)
    else:
        doc = doc.rstrip("\n") + "\n\n" + text
    DOC.write_text(doc, encoding="utf-8")


def random_shape(rng: random.Random, max_players: int) -> EventShape:
    return EventShape(
        players=rng.randint(9, max_players),
        rounds=rng.randint(5, 11),
        late_entries=rng.randint(0, 3),
        forbidden_pairs=rng.choice((0, 0, 1, 3)),
        accelerated=rng.random() < 0.25,
        full_bye_rate=rng.choice((0.0, 0.02)),
        initial_colour=rng.choice((Colour.ORANGE, Colour.BLUE)),
    )


def rounds_of(rng: random.Random, shape: EventShape):  # type: ignore[no-untyped-def]
    """The rounds of one random event until it ends or a round cannot be paired."""
    events = random_event(rng, shape, pair_dutch)
    while True:
        try:
            yield next(events)
        except (StopIteration, PairingError):
            return


def soak(events: int, max_players: int, seed: int) -> int:
    rng = random.Random(seed)
    checked = failures = 0
    for _ in range(events):
        shape = random_shape(rng, max_players)
        for round_input, pairing in rounds_of(rng, shape):
            problems = pairing_violations(
                round_input.players,
                pairing,
                round_number=round_input.round_number,
                total_rounds=round_input.total_rounds,
                absent=round_input.absent,
                forbidden_pairs=round_input.forbidden_pairs,
            )
            checked += 1
            if problems:
                failures += 1
                print(f"{shape} round {round_input.round_number}: {problems}")
    print(f"{checked} rounds checked, {failures} with a violation")
    return 1 if failures else 0


def trf_text(round_input: RoundInput) -> str:
    first = "white1" if round_input.initial_colour is Colour.ORANGE else "black1"
    extra = [f"XXR {round_input.total_rounds}", f"XXC {first}"]
    extra += [f"XXP {' '.join(map(str, sorted(pair)))}" for pair in round_input.forbidden_pairs]
    for number, points in sorted(round_input.acceleration.items()):
        extra.append(f"XXA {number:4d}" + "".join(f" {float(p):4.1f}" for p in points))
    return format_trf(
        TrfTournament(
            header=(("012", "random event"),),
            players=round_input.players,
            extra_lines=tuple(extra),
        )
    )


def printed(pairing: RoundPairing) -> list[str]:
    lines = [f"{p.orange} {p.blue}" for p in pairing.pairs] + [f"{b} 0" for b in pairing.byes]
    return [str(len(lines)), *lines]


def bbp_output(binary: str, text: str) -> list[str] | None:
    with tempfile.NamedTemporaryFile("w", suffix=".trf", delete=False) as handle:
        handle.write(text)
    done = subprocess.run([binary, "--dutch", handle.name, "-p"], capture_output=True, text=True)
    os.unlink(handle.name)
    if done.returncode != 0 or not done.stdout.strip():
        return None
    return done.stdout.strip().split("\n")


def agree(binary: str, events: int, max_players: int, seed: int, save: Path | None) -> int:
    rng = random.Random(seed)
    same = colours = different = 0
    for event in range(events):
        shape = random_shape(rng, max_players)
        for round_input, pairing in rounds_of(rng, shape):
            text = trf_text(round_input)
            theirs, ours = bbp_output(binary, text), printed(pairing)
            if theirs == ours:
                same += 1
            elif theirs and sorted(map(_unordered, theirs[1:])) == sorted(
                map(_unordered, ours[1:])
            ):
                colours += 1
            else:
                different += 1
            if theirs and save is not None:
                name = f"e{seed}-{event:03d}-r{round_input.round_number:02d}"
                (save / f"{name}.trf").write_text(text, encoding="utf-8")
                (save / f"{name}.expected").write_text("\n".join(theirs) + "\n", encoding="utf-8")
            if theirs != ours:
                print(
                    f"event {event} ({shape.players} players) round "
                    f"{round_input.round_number}: bbpPairings {theirs}, ours {ours}"
                )
    total = same + colours + different
    print(
        f"{total} rounds: {same} identical, {colours} same pairs with other colours or "
        f"board order, {different} with other pairs"
    )
    return 0 if same == total else 1


def _unordered(line: str) -> tuple[str, ...]:
    return tuple(sorted(line.split()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", nargs="?", choices=("time", "soak", "agree"), default="time")
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 200, 1000])
    parser.add_argument(
        "--rounds",
        type=round_numbers,
        nargs="+",
        default=[[1], [2], [9]],
        help="which rounds of 9 to pair: numbers or ranges such as 1-3",
    )
    parser.add_argument("--seed", type=int, default=1, help="soak and agree")
    parser.add_argument("--seeds", type=int, nargs="+", help="time: histories (default --seed)")
    parser.add_argument("--events", type=int, default=50)
    parser.add_argument("--max-players", type=int, default=100)
    parser.add_argument("--bbp", help="path of a bbpPairings binary (agree)")
    parser.add_argument("--save", type=Path, help="keep agree's cases in this folder")
    parser.add_argument("--write", action="store_true", help="update docs/BENCHMARKS.md")
    args = parser.parse_args()
    if args.mode == "soak":
        return soak(args.events, args.max_players, args.seed)
    if args.mode == "agree":
        if not args.bbp:
            parser.error("agree needs --bbp PATH")
        return agree(args.bbp, args.events, args.max_players, args.seed, args.save)
    rounds = sorted({r for group in args.rounds for r in group})
    text = benchmark(args.sizes, args.seeds or [args.seed], rounds)
    print(text)
    if args.write:
        write_section(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
