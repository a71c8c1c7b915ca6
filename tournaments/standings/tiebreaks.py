"""Tie-break values of FIDE C.07 (Play-off and Tie-Break Regulations), pure functions.

Two editions are implemented: ``"2026"`` (in force from 1 March 2026, the default) and
``"2024"`` (in force from 1 August 2024 to 28 February 2026). They define every tie-break named
here the same way; they differ only in the value given to the *dummy opponent* of a
participant's unplayed round in Buchholz and Sonneborn-Berger (Article 16, see
:func:`_dummy_value`). Article numbers below are those of the 2024 text; the 2026 text keeps
the same definitions.

Article 16 (unplayed rounds), as implemented:

* A round is *played* when a game was played over the board (TRF ``1 = 0`` and the unrated
  ``W D L``). Forfeits, byes and absences are *unplayed*. In a round robin (pre-determined
  pairings) a forfeit still counts as a game against the scheduled opponent.
* A *voluntarily unplayed round* (VUR) is an unplayed round that did not bring a win's points:
  a half-point bye, a zero-point bye, a forfeit loss, or an absence (``H Z -`` or no record).
  Pairing-allocated byes, full-point byes and forfeit wins are not VURs.
* The score a participant lends to its opponents' Buchholz and Sonneborn-Berger (16.3) is its
  own score, except that the rounds after its last round that was not a VUR, when it had no
  scheduled opponent, count as draws: a player who withdrew lends the score of one who drew
  the rest. (Round robin: no adjustment.)
* A participant's own unplayed round counts in Buchholz and Sonneborn-Berger as a game against
  a dummy opponent (16.4) whose score is, in a Swiss:

  - 2024: the participant's own final score;
  - 2026: the smaller of the participant's own score and, for a forfeit, the (adjusted) score
    of the scheduled opponent, or, for a round without an opponent, the score of a player who
    drew every round.

  In a round robin a round without opponent adds nothing.
* Cuts (Article 14): Cut-1 removes the least significant value, taking first the lowest value
  among the VURs when there are any; Median-1 does the same and also removes the highest value.

The reading of Article 16 follows the FIDE Tie-Break Server (O. Milvang, the TEC's reference
checker) where the regulation's wording leaves room; article numbers from 6 on and the 2026
dummy rule are taken from that checker (which implements both editions), as only the opening
articles of the regulation's text could be consulted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from math import ceil, lcm
from typing import Literal

from tournaments.standings.records import Colour, Outcome, PlayerRecord, PointSystem, RoundRecord

Edition = Literal["2024", "2026"]
EDITIONS: tuple[Edition, ...] = ("2026", "2024")

#: Every tie-break code understood by :func:`tournaments.standings.compute_standings`.
TIEBREAKS: tuple[str, ...] = (
    "bh",
    "bh_c1",
    "bh_m1",
    "sb",
    "de",
    "win",
    "won",
    "bpg",
    "ks",
    "ps",
    "aro",
)

#: Higher is better for every tie-break except ``de`` (a rank, 1 is best) and ``aro`` may be
#: ``None`` (no rated opponent met), which ranks last.
TiebreakValue = Fraction | int | None

_VOLUNTARILY_UNPLAYED = frozenset(
    {Outcome.HALF_BYE, Outcome.ZERO_BYE, Outcome.FORFEIT_LOSS, Outcome.NOT_PLAYED}
)


def check_edition(edition: str) -> Edition:
    """The edition, checked: ``"2026"`` or ``"2024"``; anything else is a ``ValueError``."""
    if edition == "2026":
        return "2026"
    if edition == "2024":
        return "2024"
    raise ValueError(f"unknown C.07 edition {edition!r}: expected one of {', '.join(EDITIONS)}")


@dataclass(frozen=True)
class Event:
    """The players' records normalised for tie-breaks: one record per round, 1..``rounds``.

    Missing rounds (not paired, withdrawn, joined late) are absences (``NOT_PLAYED``).
    """

    players: Mapping[int, PlayerRecord]
    rounds: int
    records: Mapping[int, tuple[RoundRecord, ...]]
    round_robin: bool
    points: PointSystem

    @classmethod
    def build(
        cls,
        players: Sequence[PlayerRecord],
        *,
        rounds: int | None = None,
        round_robin: bool = False,
        points: PointSystem | None = None,
    ) -> Event:
        by_number: dict[int, PlayerRecord] = {}
        for player in players:
            if player.number in by_number:
                raise ValueError(f"player number {player.number} appears twice")
            by_number[player.number] = player
        total = rounds if rounds is not None else rounds_played(players)
        if total < 0:
            raise ValueError(f"rounds must be 0 or more, not {total}")
        records = {n: _by_round(p, total, by_number) for n, p in by_number.items()}
        return cls(by_number, total, records, round_robin, points or PointSystem())

    def score(self, number: int) -> Fraction:
        return _in_points(self.score_units[number], self.scale)

    # Tie-breaks add up whole *units* of ``1 / scale`` points (halves for 1-½-0), so that
    # a 5,000-player table is integer sums, not tens of thousands of Fraction additions.

    @cached_property
    def scale(self) -> int:
        """The smallest ``d`` that makes every outcome's points times ``d`` whole."""
        return lcm(*(self.points.points(outcome).denominator for outcome in Outcome))

    @cached_property
    def unit_points(self) -> dict[Outcome, int]:
        """Each outcome's points in units of ``1 / scale``."""
        return {o: int(self.points.points(o) * self.scale) for o in Outcome}

    @cached_property
    def score_units(self) -> dict[int, int]:
        """Each player's score in units."""
        units = self.unit_points
        return {n: sum(units[r.outcome] for r in records) for n, records in self.records.items()}

    def counted_opponent(self, record: RoundRecord) -> int | None:
        """The opponent a round counts as a game against: played over the board, or (round
        robin) forfeited against the scheduled opponent."""
        if record.opponent is None:
            return None
        if record.outcome.played_over_board:
            return record.opponent
        if self.round_robin and record.outcome.has_opponent:
            return record.opponent
        return None


def rounds_played(players: Sequence[PlayerRecord]) -> int:
    """The last round in which anybody has a result (an absence recorded as ``Z`` counts)."""
    return max(
        (r.round for p in players for r in p.rounds if r.outcome is not Outcome.NOT_PLAYED),
        default=0,
    )


def _by_round(
    player: PlayerRecord, total: int, everyone: Mapping[int, PlayerRecord]
) -> tuple[RoundRecord, ...]:
    slots: list[RoundRecord | None] = [None] * total
    for record in player.rounds:
        if record.round < 1:
            raise ValueError(f"player {player.number}: round {record.round} is not 1 or more")
        if record.round > total:
            if record.outcome is Outcome.NOT_PLAYED:
                continue
            raise ValueError(
                f"player {player.number}: a result in round {record.round}, "
                f"after the last round counted ({total})"
            )
        if slots[record.round - 1] is not None:
            raise ValueError(f"player {player.number}: two records for round {record.round}")
        if record.opponent is not None and record.opponent not in everyone:
            raise ValueError(
                f"player {player.number}: round {record.round} names opponent "
                f"{record.opponent}, who is not in the event"
            )
        slots[record.round - 1] = record
    return tuple(
        slot if slot is not None else RoundRecord(round=index + 1, outcome=Outcome.NOT_PLAYED)
        for index, slot in enumerate(slots)
    )


@dataclass(frozen=True)
class _Contribution:
    """One round's share of a Buchholz: the opponent's (or dummy's) score."""

    value: int  # in units (``Event.scale``), as is the next
    own_points: int  # what the participant scored that round (the SB factor)
    voluntarily_unplayed: bool


def adjusted_score(event: Event, number: int) -> Fraction:
    """The score a participant lends to its opponents' Buchholz and SB (Article 16.3)."""
    return _in_points(_adjusted_units(event, number), event.scale)


def _adjusted_units(event: Event, number: int) -> int:
    records = event.records[number]
    if event.round_robin:
        return event.score_units[number]
    last_present = max(
        (r.round for r in records if r.outcome not in _VOLUNTARILY_UNPLAYED), default=0
    )
    units = event.unit_points
    total = 0
    for record in records:
        has_opponent = record.outcome.has_opponent and record.opponent is not None
        if record.round > last_present and not has_opponent:
            total += units[Outcome.DRAW]
        else:
            total += units[record.outcome]
    return total


def _dummy_value(
    event: Event,
    edition: Edition,
    number: int,
    record: RoundRecord,
    adjusted: Mapping[int, int],
) -> int:
    """The dummy opponent's score (units) for an unplayed round of a Swiss (Article 16.4)."""
    own = event.score_units[number]
    if edition == "2024":
        return own
    if record.outcome.has_opponent and record.opponent is not None:
        return min(own, adjusted[record.opponent])
    return min(own, event.unit_points[Outcome.DRAW] * event.rounds)


def _contributions(
    event: Event, edition: Edition, number: int, adjusted: Mapping[int, int]
) -> list[_Contribution]:
    result = []
    for record in event.records[number]:
        own_points = event.unit_points[record.outcome]
        opponent = event.counted_opponent(record)
        if opponent is not None:
            result.append(_Contribution(adjusted[opponent], own_points, False))
        elif not event.round_robin:
            value = _dummy_value(event, edition, number, record, adjusted)
            vur = record.outcome in _VOLUNTARILY_UNPLAYED
            result.append(_Contribution(value, own_points, vur))
    return result


def _cut_lowest(items: list[_Contribution]) -> list[_Contribution]:
    """Cut-1 (Article 14): drop the least significant value, a VUR's first if any."""
    if not items:
        return items
    pool = [c for c in items if c.voluntarily_unplayed] or items
    victim = min(pool, key=lambda c: c.value)
    rest = list(items)
    rest.remove(victim)
    return rest


def _cut_highest(items: list[_Contribution]) -> list[_Contribution]:
    if not items:
        return items
    rest = list(items)
    rest.remove(max(rest, key=lambda c: c.value))
    return rest


def _total(items: list[_Contribution]) -> int:
    return sum(c.value for c in items)


def _koya_threshold(event: Event) -> Fraction:
    """Half the maximum possible score (Article 9.2): a round robin with an odd number of
    players gives everybody one round off per cycle."""
    games = event.rounds
    count = len(event.players)
    if event.round_robin and count and event.rounds % count == 0:
        games -= event.rounds // count
    return event.points.win * games / 2


@lru_cache(maxsize=4096)
def _in_points(units: int, scale: int) -> Fraction:
    """``units / scale`` as points: the same few values recur all over a table, so each is
    made once (a ``Fraction`` is immutable, sharing it is safe)."""
    return Fraction(units, scale)


def _average_rating(ratings: list[int]) -> int | None:
    """ARO (Article 10.1): the mean rounded to the nearest whole number, halves up."""
    if not ratings:
        return None
    total, count = sum(ratings), len(ratings)
    # round(total / count), halves away from zero, in whole numbers
    if total >= 0:
        return (2 * total + count) // (2 * count)
    return -((count - 2 * total) // (2 * count))


def player_values(event: Event, edition: str = "2026") -> dict[int, dict[str, TiebreakValue]]:
    """Every tie-break of every player except ``de`` (which depends on who is tied), with
    ``points`` too.

    ``bh`` Buchholz (8.1), ``bh_c1`` Cut-1 and ``bh_m1`` Median-1 (14.1, 14.2), ``sb``
    Sonneborn-Berger (9.1), ``win`` rounds that brought a win's points, byes and forfeits
    included (7.1), ``won`` games won over the board (7.2), ``bpg`` games played over the
    board with Blue/Black (7.3), ``ks`` Koya (9.2), ``ps`` progressive score (7.5), ``aro``
    average rating of the opponents met over the board (10.1; unrated opponents left out,
    ``None`` when there is none).
    """
    checked = check_edition(edition)
    scale = event.scale
    adjusted = {n: _adjusted_units(event, n) for n in event.players}
    lowest_koya = ceil(_koya_threshold(event) * scale)  # in units
    values: dict[int, dict[str, TiebreakValue]] = {}
    for number in event.players:
        records = event.records[number]
        items = _contributions(event, checked, number, adjusted)
        values[number] = {
            "points": event.score(number),
            "bh": _in_points(_total(items), scale),
            "bh_c1": _in_points(_total(_cut_lowest(items)), scale),
            "bh_m1": _in_points(_total(_cut_highest(_cut_lowest(items))), scale),
            "sb": _in_points(sum(c.value * c.own_points for c in items), scale * scale),
            "win": _rounds_with_a_win(records, event.unit_points),
            "won": sum(1 for r in records if r.outcome in (Outcome.WIN, Outcome.UNRATED_WIN)),
            "bpg": sum(
                1 for r in records if r.outcome.played_over_board and r.colour is Colour.BLUE
            ),
            "ks": _in_points(_koya(event, records, lowest=lowest_koya), scale),
            "ps": _in_points(_progressive(records, event.unit_points), scale),
            "aro": _average_rating(_opponent_ratings(event, records)),
        }
    return values


def _rounds_with_a_win(records: Sequence[RoundRecord], units: Mapping[Outcome, int]) -> int:
    """``win`` (7.1): rounds that brought a win's points, byes and forfeits included."""
    win = units[Outcome.WIN]
    played = (r for r in records if r.outcome is not Outcome.NOT_PLAYED)
    return sum(1 for r in played if units[r.outcome] == win)


def _koya(event: Event, records: Sequence[RoundRecord], *, lowest: int) -> int:
    """``ks`` (9.2): the points (units) scored against opponents with at least ``lowest``
    units."""
    scores, units = event.score_units, event.unit_points
    return sum(
        units[r.outcome]
        for r in records
        if r.outcome.has_opponent and r.opponent is not None and scores[r.opponent] >= lowest
    )


def _progressive(records: Sequence[RoundRecord], units: Mapping[Outcome, int]) -> int:
    """``ps`` (7.5): the sum of the running score (units) after each round."""
    running = progressive = 0
    for record in records:
        running += units[record.outcome]
        progressive += running
    return progressive


def _opponent_ratings(event: Event, records: Sequence[RoundRecord]) -> list[int]:
    """The ratings of the rated opponents met over the board (for ``aro``, 10.1)."""
    return [
        rating
        for r in records
        if r.outcome.played_over_board and r.opponent is not None
        for rating in [event.players[r.opponent].rating]
        if rating is not None
    ]
