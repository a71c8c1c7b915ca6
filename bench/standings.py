"""Benchmark: best/worst possible places and standings for a 16-player round robin.

    .venv/bin/python -m bench.standings [--seed 1]

For every cut-off round of a seeded 16-player single round robin (15 rounds), times
``possible_places`` for all players with the remaining games known, and ``compute_standings``
with a full tie-break list; three result mixes: random (30 % draws), all draws (everybody
level: the most open case) and strength-ordered (the favourite wins). Prints a Markdown table
for the "Standings" section of docs/BENCHMARKS.md. Timings never go into tests.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from tournaments.pairing.round_robin import round_robin_round, round_robin_rounds
from tournaments.standings import compute_standings, possible_places
from tournaments.standings.records import Colour, Outcome, PlayerRecord, RoundRecord

PLAYERS = 16
Result = Callable[[random.Random, int, int], str]


def random_result(rng: random.Random, orange: int, blue: int) -> str:
    roll = rng.random()
    return "=" if roll < 0.3 else ("1-0" if roll < 0.65 else "0-1")


def all_draws(rng: random.Random, orange: int, blue: int) -> str:
    return "="


def favourite_wins(rng: random.Random, orange: int, blue: int) -> str:
    return "1-0" if orange < blue else "0-1"


OUTCOMES = {"1-0": (Outcome.WIN, Outcome.LOSS), "=": (Outcome.DRAW, Outcome.DRAW),
            "0-1": (Outcome.LOSS, Outcome.WIN)}  # fmt: skip


def event_after(
    rounds: list[list[tuple[int, int]]], played: int, result: Result, rng: random.Random
) -> tuple[list[PlayerRecord], list[tuple[int, int]]]:
    records: dict[int, list[RoundRecord]] = {n: [] for n in range(1, PLAYERS + 1)}
    for number, pairs in enumerate(rounds[:played], start=1):
        for orange, blue in pairs:
            first, second = OUTCOMES[result(rng, orange, blue)]
            records[orange].append(RoundRecord(number, first, blue, Colour.ORANGE))
            records[blue].append(RoundRecord(number, second, orange, Colour.BLUE))
    players = [PlayerRecord(n, f"P{n}", 2000 - n, tuple(r)) for n, r in records.items()]
    remaining = [pair for pairs in rounds[played:] for pair in pairs]
    return players, remaining


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rounds = [
        [(p.orange, p.blue) for p in round_robin_round(PLAYERS, n).pairs]
        for n in range(1, round_robin_rounds(PLAYERS) + 1)
    ]
    print("| results | places: slowest cut-off (round) | places: all 15 cut-offs | standings |")
    print("| --- | --- | --- | --- |")
    for label, result in (("random", random_result), ("all draws", all_draws),
                          ("favourite wins", favourite_wins)):  # fmt: skip
        rng = random.Random(args.seed)
        slowest, slowest_round, total, table = 0.0, 0, 0.0, 0.0
        for played in range(0, len(rounds)):
            players, remaining = event_after(rounds, played, result, rng)
            start = time.perf_counter()
            possible_places(players, remaining_games=remaining)
            spent = time.perf_counter() - start
            total += spent
            if spent > slowest:
                slowest, slowest_round = spent, played
            start = time.perf_counter()
            compute_standings(players, tiebreaks=["de", "sb", "ks", "win", "bh"], round_robin=True)
            table = max(table, time.perf_counter() - start)
        print(
            f"| {label} | {slowest * 1000:.1f} ms (after round {slowest_round}) "
            f"| {total * 1000:.1f} ms | {table * 1000:.1f} ms (slowest) |"
        )


if __name__ == "__main__":
    main()
