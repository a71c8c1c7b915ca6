"""Sections: a big field split into several round robins of a chosen size.

Players go to the sections in snake order of their seeds: the 1st to section A, the 2nd to
B, ..., the k-th to the last section, then back (the (k+1)-th to the last section again,
down to A), and so on. Every section thus gets a fair share of strong and weak players.

The number of sections is the smallest that keeps every section within the chosen size, so
a remainder never makes a section bigger than asked: 10 players in sections of 4 make three
sections (of 3, 3 and 4 players). Sizes never differ by more than one.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.base import PairingError
from tournaments.pairing.seeding import seed_order
from tournaments.standings.records import PlayerRecord

MIN_SECTION_SIZE = 3


def section_count(players: int, *, section_size: int) -> int:
    """How many sections ``players`` players make with at most ``section_size`` in each."""
    if section_size < MIN_SECTION_SIZE:
        raise PairingError(
            f"A section needs room for at least {MIN_SECTION_SIZE} players, not {section_size}."
        )
    if players < 1:
        raise PairingError(f"There are no players to split into sections ({players}).")
    return -(-players // section_size)  # ceiling division


def snake_sections(
    players: Sequence[PlayerRecord], *, section_size: int
) -> tuple[tuple[int, ...], ...]:
    """The sections (A, B, C, ...) as player numbers, each from its highest seed down.

    Seeds come from ratings (see ``seed_order``); within a section, the listed order is a
    natural choice of Berger seats 1, 2, 3, ... (or the organiser draws them by lot).
    """
    count = section_count(len(players), section_size=section_size)
    sections: list[list[int]] = [[] for _ in range(count)]
    for seed_index, number in enumerate(seed_order(players)):
        sweep, position = divmod(seed_index, count)
        section = position if sweep % 2 == 0 else count - 1 - position
        sections[section].append(number)
    return tuple(tuple(section) for section in sections)
