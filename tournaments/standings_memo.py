"""Standings and possible places remembered per process for the records they were computed
from, so that the pages and API answers between two results of a large event reuse them.

The key is the records themselves (frozen, hashable: every field the computation reads) with
the settings, never an id: a changed result, entry or setting is a different key, so nothing
is ever stale and nothing needs clearing. A 5,000-player event costs seconds to rank and
tens of milliseconds to look up (docs/BENCHMARKS.md, "Large events").
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from tournaments.standings import PlaceRange, PlayerRecord, StandingRow
from tournaments.standings import compute_standings as _compute_standings
from tournaments.standings import possible_places as _possible_places

Records = tuple[PlayerRecord, ...]
MEMORY = 8  # sections remembered, each for the standings and for the places


@lru_cache(maxsize=MEMORY)
def compute_standings(
    records: Records,
    *,
    tiebreaks: tuple[str, ...],
    edition: str,
    rounds: int | None,
    round_robin: bool,
) -> tuple[StandingRow, ...]:
    """``tournaments.standings.compute_standings``, remembered (rows are shared: read only)."""
    return tuple(
        _compute_standings(
            records, tiebreaks=tiebreaks, edition=edition, rounds=rounds, round_robin=round_robin
        )
    )


@lru_cache(maxsize=MEMORY)
def possible_places(
    records: Records,
    *,
    remaining_games: tuple[tuple[int, int], ...] | None = None,
    rounds_left: int = 0,
) -> Mapping[int, PlaceRange]:
    """``tournaments.standings.possible_places``, remembered (shared: read only)."""
    return _possible_places(records, remaining_games=remaining_games, rounds_left=rounds_left)
