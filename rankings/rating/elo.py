"""Elo as the Celtic! world ranking computes it.

A player's K for a game is `k_new` while they have fewer than `new_games` rated games
before it, then `k_established`; once their rating has been `master_threshold` or more
after any game, K is `k_master` for good (this takes precedence over `k_new`). The
expected score uses the rating difference clipped to [-max_diff, max_diff]. Ratings are
kept at full float precision; rounding is for display only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class EloParams:
    start: float = 1500.0
    k_new: float = 40.0
    k_established: float = 20.0
    k_master: float = 10.0
    new_games: int = 30
    master_threshold: float = 2400.0
    max_diff: float = 400.0


@dataclass(frozen=True, slots=True)
class EloState:
    """A player's Elo after some number of rated games.

    `master` records that the rating has been at or above the master threshold after
    some game, which fixes K at `k_master` from then on.
    """

    rating: float
    games: int = 0
    master: bool = False
    peak: float | None = None

    @classmethod
    def new(cls, params: EloParams) -> EloState:
        return cls(rating=params.start, games=0, master=False, peak=None)


def expected_score(*, own: float, opponent: float, max_diff: float = 400.0) -> float:
    """E = 1 / (1 + 10^(d/400)) with d = opponent - own clipped to [-max_diff, max_diff]."""
    diff = min(max(opponent - own, -max_diff), max_diff)
    return 1.0 / (1.0 + math.pow(10.0, diff / 400.0))


def k_factor(*, state: EloState, params: EloParams) -> float:
    """The K a player with this state gets for their next game."""
    if state.master:
        return params.k_master
    if state.games < params.new_games:
        return params.k_new
    return params.k_established


def elo_update(
    *, player: EloState, opponent_rating: float, score: float, params: EloParams
) -> EloState:
    """The player's state after one game against an opponent rated `opponent_rating`.

    `score` is 1 for a win, 0.5 for a draw and 0 for a loss.
    """
    if score not in (0.0, 0.5, 1.0):
        raise ValueError(f"score must be 0, 0.5 or 1, not {score!r}")
    expected = expected_score(own=player.rating, opponent=opponent_rating, max_diff=params.max_diff)
    rating = player.rating + k_factor(state=player, params=params) * (score - expected)
    return EloState(
        rating=rating,
        games=player.games + 1,
        master=player.master or rating >= params.master_threshold,
        peak=rating if player.peak is None else max(player.peak, rating),
    )
