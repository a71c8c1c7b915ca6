"""Correspondence time controls and the clock maths, as pure functions (no ORM, no Django).

Three kinds: a fixed number of days for every move; a Fischer-style bank of days with an
increment per move and a cap; or no limit. Times are kept as ``timedelta`` so that a bank can
hold fractions of a day.

A player's clock does not run during their *pauses*: weekends (Saturday 00:00 to Monday 00:00
in their own time zone) when the game has weekends off, and their vacations when the game
allows them. Pauses are streams of ``(start, end)`` intervals sorted by start; weekends are
generated lazily, so a stream may be endless. All instants are aware datetimes and are
compared in UTC, so a weekend across a daylight-saving change lasts 47 or 49 hours.
"""

from __future__ import annotations

import enum
import heapq
import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

Interval = tuple[datetime, datetime]


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
    weekends_off: bool = False
    vacation_allowed: bool = True

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
        if self.kind is ClockKind.NONE:
            return "no time limit"
        if self.kind is ClockKind.PER_MOVE:
            text = f"{self.days_per_move} day{'s' * (self.days_per_move != 1)} per move"
        else:
            text = (
                f"{self.bank_days} days + {self.increment_days} per move (at most {self.max_days})"
            )
        if self.weekends_off:
            text += ", weekends off"
        if not self.vacation_allowed:
            text += ", no vacations"
        return text


# --- pauses -------------------------------------------------------------------------------


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        raise ValueError(f"{moment!r} has no time zone: expected an aware datetime")
    return moment.astimezone(UTC)


def weekends(zone: ZoneInfo, *, since: datetime) -> Iterator[Interval]:
    """The weekends in ``zone`` that end after ``since``, in order, endlessly (UTC bounds).

    A weekend runs from Saturday 00:00 to Monday 00:00 local time. Where a daylight-saving
    change skips local midnight, the weekend starts when the new day does.
    """
    since = _utc(since)
    day = since.astimezone(zone).date()
    saturday = day - timedelta(days=(day.weekday() - 5) % 7)
    while True:
        start = datetime.combine(saturday, time(0), tzinfo=zone).astimezone(UTC)
        end = datetime.combine(saturday + timedelta(days=2), time(0), tzinfo=zone).astimezone(UTC)
        if end > since:
            yield start, end
        saturday += timedelta(days=7)


def merged(*streams: Iterable[Interval]) -> Iterator[Interval]:
    """One sorted stream of the union of sorted ``streams``: overlapping or touching
    intervals become one. Lazy, so endless streams are fine."""
    current: Interval | None = None
    for start, end in heapq.merge(*streams):
        if current is not None and start <= current[1]:
            current = (current[0], max(current[1], end))
            continue
        if current is not None:
            yield current
        current = (start, end)
    if current is not None:
        yield current


def running_time(start: datetime, end: datetime, pauses: Iterable[Interval]) -> timedelta:
    """How long a clock runs from ``start`` to ``end`` (zero if ``end`` is not later), not
    counting ``pauses`` (sorted, not overlapping, e.g. from :func:`merged`)."""
    start, end = _utc(start), _utc(end)
    if end <= start:
        return timedelta(0)
    total = end - start
    for pause_start, pause_end in pauses:
        if pause_start >= end:
            break
        overlap = min(pause_end, end) - max(pause_start, start)
        if overlap > timedelta(0):
            total -= overlap
    return total


def deadline_after(start: datetime, budget: timedelta, pauses: Iterable[Interval]) -> datetime:
    """The first instant at which ``budget`` of running time has passed since ``start``.

    ``pauses`` must be sorted and not overlap, and must not cover all time after ``start``.
    ``running_time(start, deadline_after(start, b, p), p) == b``.
    """
    moment, left = _utc(start), budget
    for pause_start, pause_end in pauses:
        if pause_end <= moment:
            continue
        if pause_start > moment:
            if pause_start - moment >= left:
                break
            left -= pause_start - moment
        moment = pause_end
    return moment + left


#: The most one weekend can last: two days, plus the hour a daylight-saving change adds.
LONGEST_WEEKEND = timedelta(days=2, hours=1)


def running_time_at_least(
    start: datetime, end: datetime, *, weekends_off: bool, vacations: Iterable[Interval] = ()
) -> timedelta:
    """A lower bound of the running time from ``start`` to ``end``, found without listing
    the weekends: as if every weekend that can touch the span lasted ``LONGEST_WEEKEND``
    and no vacation overlapped another pause. For scans that must skip most games cheaply.
    """
    start, end = _utc(start), _utc(end)
    if end <= start:
        return timedelta(0)
    paused = timedelta(0)
    if weekends_off:
        paused += LONGEST_WEEKEND * ((end - start) // timedelta(days=7) + 1)
    for pause_start, pause_end in vacations:
        overlap = min(_utc(pause_end), end) - max(_utc(pause_start), start)
        paused += max(overlap, timedelta(0))
    return max(end - start - paused, timedelta(0))


def pause_at(moment: datetime, pauses: Iterable[Interval]) -> Interval | None:
    """The pause that ``moment`` falls in (start included, end excluded), or None."""
    moment = _utc(moment)
    for start, end in pauses:
        if start > moment:
            return None
        if moment < end:
            return start, end
    return None


class PauseReason(enum.StrEnum):
    WEEKEND = "weekend"
    VACATION = "vacation"


@dataclass(frozen=True)
class Pauses:
    """When one player's clock stands still in one game.

    ``weekend_zone``: the player's time zone if the game has weekends off, else None.
    ``vacations``: the player's vacations (any order) if the game allows them, else empty.
    """

    weekend_zone: ZoneInfo | None = None
    vacations: tuple[Interval, ...] = ()

    def stream(self, *, since: datetime) -> Iterator[Interval]:
        """All pauses ending after ``since``, merged and sorted."""
        since = _utc(since)
        vacations = sorted((_utc(s), _utc(e)) for s, e in self.vacations if _utc(e) > since)
        if self.weekend_zone is None:
            return merged(vacations)
        return merged(weekends(self.weekend_zone, since=since), vacations)

    def reason_at(self, moment: datetime) -> PauseReason | None:
        """Why the clock is stopped at ``moment`` (a vacation before a weekend), or None."""
        if pause_at(moment, merged(sorted(self.vacations))):
            return PauseReason.VACATION
        if self.weekend_zone is not None:
            first_weekend = itertools.islice(weekends(self.weekend_zone, since=moment), 1)
            if pause_at(moment, first_weekend):
                return PauseReason.WEEKEND
        return None


@dataclass(frozen=True)
class ClockReading:
    """The clock of the player to move at one moment."""

    time_left: timedelta
    paused: PauseReason | None
    resumes_at: datetime | None


def read_clock(*, deadline: datetime, now: datetime, pauses: Pauses) -> ClockReading:
    """The running time left until ``deadline`` and, if the clock is stopped, why and until
    when it stays stopped."""
    time_left = running_time(now, deadline, pauses.stream(since=now))
    reason = pauses.reason_at(now)
    current = pause_at(now, pauses.stream(since=now)) if reason else None
    return ClockReading(
        time_left=time_left, paused=reason, resumes_at=current[1] if current else None
    )
