"""The order of the ranking list, from each player's current ratings (pure Python).

`rankings.services` stores the result (position, world rank) so that reading the list is a
plain paginated query; this module is the one definition of that order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True, slots=True)
class Standing:
    """What the order depends on for one player."""

    player_id: int
    name: str
    rating: float
    last_played: date | None


@dataclass(frozen=True, slots=True)
class Placed:
    """A player's place in the list: `position` counts every listed player (active ones
    first); `rank` is the world rank, None for an inactive player."""

    player_id: int
    position: int
    rank: int | None


def place_players(standings: Iterable[Standing], *, active_since: date) -> list[Placed]:
    """Active players (last game on or after `active_since`) by rating, best first, ties
    by name, ranked 1, 2, ...; then inactive players in the same order, without a rank."""
    ordered = sorted(standings, key=lambda s: (-s.rating, s.name))
    active = [s for s in ordered if s.last_played is not None and s.last_played >= active_since]
    inactive = [s for s in ordered if s.last_played is None or s.last_played < active_since]
    placed = [Placed(s.player_id, position, position) for position, s in enumerate(active, 1)]
    placed += [
        Placed(s.player_id, position, None)
        for position, s in enumerate(inactive, start=len(active) + 1)
    ]
    return placed


def ranks_at(standings: Iterable[Standing], *, active_since: date) -> dict[int, int]:
    """World ranks of the active players among `standings` (ties by name, then id)."""
    ordered = sorted(
        (s for s in standings if s.last_played is not None and s.last_played >= active_since),
        key=lambda s: (-s.rating, s.name, s.player_id),
    )
    return {s.player_id: rank for rank, s in enumerate(ordered, start=1)}
