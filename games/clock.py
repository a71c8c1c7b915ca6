"""Correspondence time controls as pure functions (no ORM).

Three kinds: a fixed number of days for every move; a Fischer-style bank of days with an
increment per move and a cap; or no limit. Times are kept as ``timedelta`` so that a bank can
hold fractions of a day.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime, timedelta


class ClockKind(enum.StrEnum):
    PER_MOVE = "per_move"
    FISCHER = "fischer"
    NONE = "none"


@dataclass(frozen=True)
class TimeControl:
    """How much time each player has. Days are whole numbers, as correspondence sites use."""

    kind: ClockKind = ClockKind.PER_MOVE
    days_per_move: int = 3
    bank_days: int = 10
    increment_days: int = 2
    max_days: int = 20

    def __post_init__(self) -> None:
        problems = self.problems()
        if problems:
            raise ValueError("; ".join(problems))

    def problems(self) -> list[str]:
        """What is wrong with this time control, as messages a user can act on."""
        found: list[str] = []
        if self.kind is ClockKind.PER_MOVE and not 1 <= self.days_per_move <= 60:
            found.append(f"days_per_move is {self.days_per_move}: expected 1 to 60 days")
        if self.kind is ClockKind.FISCHER:
            if not 1 <= self.bank_days <= 120:
                found.append(f"bank_days is {self.bank_days}: expected 1 to 120 days")
            if not 0 <= self.increment_days <= 30:
                found.append(f"increment_days is {self.increment_days}: expected 0 to 30 days")
            if self.max_days < self.bank_days:
                found.append(
                    f"max_days is {self.max_days}: expected at least bank_days ({self.bank_days})"
                )
        return found

    @property
    def initial(self) -> timedelta | None:
        """The time each player starts with (None: no limit)."""
        if self.kind is ClockKind.PER_MOVE:
            return timedelta(days=self.days_per_move)
        if self.kind is ClockKind.FISCHER:
            return timedelta(days=self.bank_days)
        return None

    def after_move(self, *, remaining: timedelta | None, used: timedelta) -> timedelta | None:
        """The mover's time for their next turn, after spending ``used`` on this one."""
        if self.kind is ClockKind.PER_MOVE:
            return timedelta(days=self.days_per_move)
        if self.kind is ClockKind.FISCHER:
            assert remaining is not None
            bank = remaining - used + timedelta(days=self.increment_days)
            return min(bank, timedelta(days=self.max_days))
        return None

    def describe(self) -> str:
        if self.kind is ClockKind.PER_MOVE:
            return f"{self.days_per_move} day{'s' * (self.days_per_move != 1)} per move"
        if self.kind is ClockKind.FISCHER:
            return (
                f"{self.bank_days} days + {self.increment_days} per move (at most {self.max_days})"
            )
        return "no time limit"


def deadline(*, turn_started: datetime, remaining: timedelta | None) -> datetime | None:
    """When the player to move runs out of time (None: never)."""
    return None if remaining is None else turn_started + remaining
