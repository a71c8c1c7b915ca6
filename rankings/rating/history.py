"""Replay a chronological sequence of rated results into per-player rating states.

This is the one code path that turns results into ratings: the incremental update after a
game, the full recomputation, `ratings_replay` and the benchmark all call `rate_game`
(directly or through `replay`), so the same history always gives bit-identical floats.
Callers must feed results in a deterministic order: by finish time, then by id.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Generic, TypeVar

from rankings.rating.elo import EloParams, EloState, elo_update
from rankings.rating.glicko2 import (
    GlickoOutcome,
    GlickoParams,
    GlickoState,
    inactive_periods,
    rate_period,
)

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, slots=True)
class RatingParams:
    elo: EloParams = field(default_factory=EloParams)
    glicko: GlickoParams = field(default_factory=GlickoParams)


@dataclass(frozen=True, slots=True)
class PlayerState:
    """Everything the next rating update of a player depends on."""

    elo: EloState
    glicko: GlickoState
    last_played: date | None = None

    @classmethod
    def new(cls, params: RatingParams) -> PlayerState:
        return cls(
            elo=EloState.new(params.elo), glicko=GlickoState.new(params.glicko), last_played=None
        )

    @property
    def games(self) -> int:
        return self.elo.games


@dataclass(frozen=True, slots=True)
class GameRecord(Generic[K]):
    """One rated result: who played (any hashable key), player1's score, the UTC date."""

    player1: K
    player2: K
    score1: float
    played_on: date


@dataclass(frozen=True, slots=True)
class GameStep(Generic[K]):
    """One replayed game with both players' states before and after it."""

    record: GameRecord[K]
    before1: PlayerState
    before2: PlayerState
    after1: PlayerState
    after2: PlayerState


def empty_months_between(earlier: date | None, later: date) -> int:
    """Whole calendar months strictly between the months of `earlier` and `later`."""
    if earlier is None:
        return 0
    gap = (later.year * 12 + later.month) - (earlier.year * 12 + earlier.month) - 1
    return max(gap, 0)


def glicko_now(*, state: PlayerState, today: date, params: RatingParams) -> GlickoState:
    """The player's Glicko state as of `today`: the deviation grown by the empty months
    since their last game (for display; the stored state is as of the last game)."""
    return inactive_periods(
        player=state.glicko,
        periods=empty_months_between(state.last_played, today),
        params=params.glicko,
    )


def rate_game(
    *,
    state1: PlayerState,
    state2: PlayerState,
    score1: float,
    played_on: date,
    params: RatingParams,
) -> tuple[PlayerState, PlayerState]:
    """Both players' states after one rated game, computed from their states before it.

    Elo: both update from the pre-game ratings. Glicko-2: each player's deviation first
    grows for the calendar months they sat out, then the game is one rating period.
    """
    if score1 not in (0.0, 0.5, 1.0):
        raise ValueError(f"score must be 0, 0.5 or 1, not {score1!r}")
    score2 = 1.0 - score1
    elo1 = elo_update(
        player=state1.elo, opponent_rating=state2.elo.rating, score=score1, params=params.elo
    )
    elo2 = elo_update(
        player=state2.elo, opponent_rating=state1.elo.rating, score=score2, params=params.elo
    )
    pre1 = inactive_periods(
        player=state1.glicko,
        periods=empty_months_between(state1.last_played, played_on),
        params=params.glicko,
    )
    pre2 = inactive_periods(
        player=state2.glicko,
        periods=empty_months_between(state2.last_played, played_on),
        params=params.glicko,
    )
    glicko1 = rate_period(
        player=pre1,
        outcomes=[GlickoOutcome(pre2.rating, pre2.rd, score1)],
        params=params.glicko,
    )
    glicko2 = rate_period(
        player=pre2,
        outcomes=[GlickoOutcome(pre1.rating, pre1.rd, score2)],
        params=params.glicko,
    )
    return (
        PlayerState(elo=elo1, glicko=glicko1, last_played=played_on),
        PlayerState(elo=elo2, glicko=glicko2, last_played=played_on),
    )


def replay_steps(
    records: Iterable[GameRecord[K]],
    *,
    params: RatingParams,
    states: dict[K, PlayerState] | None = None,
) -> Iterator[GameStep[K]]:
    """Apply `records` in the order given, yielding each game's before/after states.

    `states` (updated in place) holds the players' states before the first record; players
    not in it start fresh.
    """
    if states is None:
        states = {}
    for record in records:
        if record.player1 == record.player2:
            raise ValueError(f"a player cannot play themselves: {record.player1!r}")
        before1 = states.get(record.player1) or PlayerState.new(params)
        before2 = states.get(record.player2) or PlayerState.new(params)
        after1, after2 = rate_game(
            state1=before1,
            state2=before2,
            score1=record.score1,
            played_on=record.played_on,
            params=params,
        )
        states[record.player1] = after1
        states[record.player2] = after2
        yield GameStep(record, before1, before2, after1, after2)


def replay(records: Iterable[GameRecord[K]], *, params: RatingParams) -> dict[K, PlayerState]:
    """Every player's state after replaying `records` from scratch, in the order given."""
    states: dict[K, PlayerState] = {}
    for _ in replay_steps(records, params=params, states=states):
        pass
    return states
