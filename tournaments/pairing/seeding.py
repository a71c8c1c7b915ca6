"""Seed order: who is the strongest entrant, for sections and knockout brackets."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.base import PairingError
from tournaments.standings.records import PlayerRecord


def seed_order(players: Sequence[PlayerRecord]) -> tuple[int, ...]:
    """Player numbers from the highest seed down: rating first, unrated players last.

    Equal ratings (and unrated players) keep the order of their starting numbers, so the
    result never depends on the order of the input.
    """
    numbers = [player.number for player in players]
    if len(set(numbers)) != len(numbers):
        duplicates = sorted({n for n in numbers if numbers.count(n) > 1})
        raise PairingError(f"Player numbers must be unique; repeated: {duplicates}.")
    ranked = sorted(players, key=lambda p: (p.rating is None, -(p.rating or 0), p.number))
    return tuple(player.number for player in ranked)
