"""Compact hand-written events for the Swiss tests.

Each player is a string of rounds separated by spaces: ``3w1`` (met 3 with Orange/White and
won), ``4b=`` (drew with Blue), ``2w+`` / ``2b-`` (forfeit won / lost), or a lone code for
a round without an opponent: ``U`` (pairing-allocated bye), ``H``, ``F``, ``Z``.
"""

from __future__ import annotations

from tournaments.pairing.base import RoundPairing
from tournaments.standings.records import Colour, Outcome, PlayerRecord, RoundRecord


def event(*players: str) -> list[PlayerRecord]:
    """Players numbered 1, 2, ... in the order given."""
    return [
        PlayerRecord(number=n, name=f"P{n}", rounds=_rounds(text))
        for n, text in enumerate(players, start=1)
    ]


def _rounds(text: str) -> tuple[RoundRecord, ...]:
    rounds = []
    for index, token in enumerate(text.split(), start=1):
        if token[:-2].isdigit():
            colour = Colour.ORANGE if token[-2] == "w" else Colour.BLUE
            rounds.append(RoundRecord(index, Outcome(token[-1]), int(token[:-2]), colour))
        else:
            rounds.append(RoundRecord(index, Outcome(token)))
    return tuple(rounds)


def boards(pairing: RoundPairing) -> list[str]:
    """The round as bbpPairings prints it, without the count: ``white black``, bye ``N 0``."""
    return [f"{p.orange} {p.blue}" for p in pairing.pairs] + [f"{b} 0" for b in pairing.byes]
