"""The plug-in interface of pairing systems.

A pairing system is a pure function: the players' records so far in, the next round's pairs
(with colours) and byes out. Round robin, knockout and Swiss implement it; the tournaments app
calls whichever the event chose and knows nothing of how it pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from tournaments.standings.records import PlayerRecord


class PairingError(ValueError):
    """The round cannot be paired (the message says why: too few players, no legal pairing)."""


@dataclass(frozen=True)
class Pair:
    """One game: the player numbers of Orange (moves first, White of the rules) and Blue."""

    orange: int
    blue: int


@dataclass(frozen=True)
class RoundPairing:
    """A round: its games in board order, and the players who get a pairing-allocated bye."""

    pairs: tuple[Pair, ...]
    byes: tuple[int, ...] = ()


class PairingSystem(Protocol):
    """What the tournaments app calls to pair round ``round_number`` (1-based).

    ``players`` holds every player still in the event with their rounds so far; ``absent``
    names those who are not to be paired this round (withdrawn, or a requested bye).
    """

    def __call__(
        self,
        players: Sequence[PlayerRecord],
        *,
        round_number: int,
        total_rounds: int,
        absent: frozenset[int] = frozenset(),
    ) -> RoundPairing: ...
