"""Benchmark: recompute every rating (Elo and Glicko-2) from a synthetic history.

    .venv/bin/python -m bench.ratings [--games 100000] [--players 2000] [--seed 1]

Uses `rankings.rating.history.replay`, the same function the recomputation command runs.
The history is generated with a seeded RNG, so every run rates the same games.
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from datetime import date

from rankings.rating.history import GameRecord, RatingParams, replay


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
    args = parser.parse_args()

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


if __name__ == "__main__":
    main()
