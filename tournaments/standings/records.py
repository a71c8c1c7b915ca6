"""What happened to each player in each round: the input of standings, tie-breaks, pairing
systems and TRF files alike.

Orange and Blue play the roles of White and Black in the FIDE rules (Orange moves first).
Outcomes use the result codes of the FIDE Tournament Report File, so a record converts to and
from TRF without a table of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction


class Colour(StrEnum):
    """The two sides; Orange is White of the pairing rules, Blue is Black."""

    ORANGE = "w"
    BLUE = "b"

    @property
    def other(self) -> Colour:
        return Colour.BLUE if self is Colour.ORANGE else Colour.ORANGE


class Outcome(StrEnum):
    """A player's result in one round, by its TRF code."""

    WIN = "1"
    DRAW = "="
    LOSS = "0"
    FORFEIT_WIN = "+"  # the opponent did not play (no move made, or withdrew)
    FORFEIT_LOSS = "-"
    FULL_BYE = "F"  # a full-point bye requested or awarded by the organiser
    HALF_BYE = "H"  # a half-point bye requested ahead of the round
    PAIRING_BYE = "U"  # the bye a pairing system allocates to an odd player out
    ZERO_BYE = "Z"  # absent: not paired, no points
    NOT_PLAYED = ""  # the round has not been played yet, or the player was not in the event
    # TRF's unrated results of a game that lasted less than one move: they score and count as
    # games for tie-breaks like 1, = and 0, but are not rated.
    UNRATED_WIN = "W"
    UNRATED_DRAW = "D"
    UNRATED_LOSS = "L"

    @property
    def played_over_board(self) -> bool:
        """A game was really played: what FIDE counts as a played game."""
        return self in _OVER_THE_BOARD

    @property
    def has_opponent(self) -> bool:
        """An opponent was paired (played, or forfeited by one side)."""
        return self in _OVER_THE_BOARD or self in (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS)


_OVER_THE_BOARD = frozenset(
    {
        Outcome.WIN,
        Outcome.DRAW,
        Outcome.LOSS,
        Outcome.UNRATED_WIN,
        Outcome.UNRATED_DRAW,
        Outcome.UNRATED_LOSS,
    }
)


@dataclass(frozen=True)
class RoundRecord:
    """One round of one player: whom they met, with which colour, and how it ended."""

    round: int
    outcome: Outcome
    opponent: int | None = None  # the opponent's player number; None for byes and absences
    colour: Colour | None = None  # None when no game was played or forfeited


@dataclass(frozen=True)
class PlayerRecord:
    """A player of an event as standings and pairing systems see them."""

    number: int  # the starting number (1 = highest seed), as in TRF
    name: str
    rating: int | None = None
    rounds: tuple[RoundRecord, ...] = ()
    withdrawn_after: int | None = None  # the last round they took part in, if they withdrew
    extra: dict[str, str] = field(default_factory=dict, compare=False)  # federation, id, ...


@dataclass(frozen=True)
class PointSystem:
    """Points per outcome. Defaults: win 1, draw ½, loss 0, byes as FIDE scores them."""

    win: Fraction = Fraction(1)
    draw: Fraction = Fraction(1, 2)
    loss: Fraction = Fraction(0)
    pairing_bye: Fraction = Fraction(1)

    def points(self, outcome: Outcome) -> Fraction:
        return {
            Outcome.WIN: self.win,
            Outcome.UNRATED_WIN: self.win,
            Outcome.FORFEIT_WIN: self.win,
            Outcome.FULL_BYE: self.win,
            Outcome.DRAW: self.draw,
            Outcome.UNRATED_DRAW: self.draw,
            Outcome.HALF_BYE: self.draw,
            Outcome.PAIRING_BYE: self.pairing_bye,
        }.get(outcome, self.loss)
