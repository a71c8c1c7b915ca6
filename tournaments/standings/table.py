"""Standings: points first, then the organiser's ordered list of tie-breaks (C.07 Article 4.2).

Players equal on points and on every listed tie-break share a place (Article 2.1: the event
may let tied players share; a later tie-break or a play-off is the organiser's business).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from tournaments.standings.records import PlayerRecord, PointSystem
from tournaments.standings.tiebreaks import (
    TIEBREAKS,
    Event,
    TiebreakValue,
    check_edition,
    player_values,
)


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings. ``place`` is shared by players equal on everything."""

    place: int
    number: int
    name: str
    points: Fraction
    tiebreaks: dict[str, TiebreakValue]  # the requested tie-breaks, in the requested order


def compute_standings(
    players: Sequence[PlayerRecord],
    *,
    tiebreaks: Sequence[str],
    edition: str = "2026",
    points: PointSystem | None = None,
    rounds: int | None = None,
    round_robin: bool = False,
) -> list[StandingRow]:
    """The standings after ``rounds`` rounds (default: the last round with a result).

    ``tiebreaks`` is the organiser's order, codes from :data:`TIEBREAKS` (for example
    ``["de", "bh_c1", "bh", "sb"]``); ``round_robin`` says the pairings were fixed in advance,
    which changes how forfeits and byes count (Article 16). Rows come best first; players who
    share a place are in starting-number order.
    """
    order = _check_tiebreaks(tiebreaks)
    event = Event.build(players, rounds=rounds, round_robin=round_robin, points=points)
    values = player_values(event, check_edition(edition))
    groups = _split([sorted(event.players)], lambda n: _descending(values[n]["points"]))
    for code in order:
        if code == "de":
            for group in groups:
                ranks = direct_encounter_ranks(event, group)
                for number in group:
                    values[number]["de"] = ranks[number]
            groups = _split(groups, lambda n: _ascending(values[n]["de"]))
        else:
            groups = _split(groups, _descending_by(values, code))
    rows = []
    place = 1
    for group in groups:
        for number in group:
            rows.append(
                StandingRow(
                    place=place,
                    number=number,
                    name=event.players[number].name,
                    points=Fraction(values[number]["points"] or 0),
                    tiebreaks={code: values[number][code] for code in order},
                )
            )
        place += len(group)
    return rows


def all_tiebreak_values(
    players: Sequence[PlayerRecord],
    *,
    edition: str = "2026",
    points: PointSystem | None = None,
    rounds: int | None = None,
    round_robin: bool = False,
) -> dict[int, dict[str, TiebreakValue]]:
    """``points`` and every tie-break of :data:`TIEBREAKS` for each player number; ``de`` is
    the direct-encounter rank among the players level on points (1 = best)."""
    event = Event.build(players, rounds=rounds, round_robin=round_robin, points=points)
    values = player_values(event, check_edition(edition))
    for group in _split([sorted(event.players)], lambda n: _descending(values[n]["points"])):
        ranks = direct_encounter_ranks(event, group)
        for number in group:
            values[number]["de"] = ranks[number]
    return {n: {code: values[n][code] for code in ("points", *TIEBREAKS)} for n in values}


def direct_encounter_ranks(event: Event, group: Sequence[int]) -> dict[int, int]:
    """Direct encounter (Article 6) among the tied players of ``group``: rank 1 is best.

    Only games among them count (over the board; in a round robin forfeits too), averaged per
    opponent when a pair met more than once. When every pair met (always in a round robin)
    they rank by that score. Otherwise a player is ranked ahead only if its score beats what
    each other one could reach by winning the games it did not play (6.2), from the top down
    while that holds; the rest stay tied. Players still tied are compared again among
    themselves alone, until nothing changes.
    """
    members = list(group)
    if len(members) < 2:
        return {n: 1 for n in members}
    inside = set(members)
    score: dict[int, Fraction] = {}
    most: dict[int, Fraction] = {}
    everybody_met = True
    for number in members:
        against: dict[int, list[Fraction]] = {}
        for record in event.records[number]:
            opponent = event.counted_opponent(record)
            if opponent in inside and opponent != number:
                against.setdefault(opponent, []).append(event.points.points(record.outcome))
        score[number] = sum(
            (Fraction(sum(pts, Fraction(0)), len(pts)) for pts in against.values()), Fraction(0)
        )
        missing = len(members) - 1 - len(against)
        most[number] = score[number] + missing * event.points.win
        everybody_met = everybody_met and missing == 0
    ranked = sorted(members, key=lambda n: (-score[n], -most[n], n))
    rank_of: dict[int, int] = {}
    if everybody_met or event.round_robin:
        for index, number in enumerate(ranked):
            earlier = ranked[index - 1] if index else None
            same = earlier is not None and score[earlier] == score[number]
            rank_of[number] = rank_of[earlier] if same and earlier is not None else index + 1
    else:
        for index, number in enumerate(ranked):
            rest = ranked[index + 1 :]
            if rest and score[number] > max(most[n] for n in rest):
                rank_of[number] = index + 1
            else:
                for other in ranked[index:]:
                    rank_of[other] = index + 1
                break
    return _refine(event, rank_of, len(members))


def _refine(event: Event, rank_of: dict[int, int], size: int) -> dict[int, int]:
    """Apply direct encounter again inside each still-tied subgroup smaller than the group."""
    by_rank: dict[int, list[int]] = {}
    for number, rank in rank_of.items():
        by_rank.setdefault(rank, []).append(number)
    result = dict(rank_of)
    for rank, tied in by_rank.items():
        if 1 < len(tied) < size:
            for number, sub_rank in direct_encounter_ranks(event, tied).items():
                result[number] = rank + sub_rank - 1
    return result


def _descending_by(values: dict[int, dict[str, TiebreakValue]], code: str) -> _Key:
    return lambda number: _descending(values[number][code])


def _check_tiebreaks(tiebreaks: Sequence[str]) -> list[str]:
    order = list(tiebreaks)
    for code in order:
        if code not in TIEBREAKS:
            raise ValueError(f"unknown tie-break {code!r}: expected one of {', '.join(TIEBREAKS)}")
    if len(set(order)) != len(order):
        raise ValueError(f"a tie-break is listed twice in {order}")
    return order


def _descending(value: TiebreakValue) -> tuple[int, Fraction | int]:
    """Sort key for 'higher is better' values; ``None`` (no value) sorts last."""
    if value is None:
        return (1, 0)
    return (0, -value)


def _ascending(value: TiebreakValue) -> tuple[int, Fraction | int]:
    """Sort key for ranks (lower is better)."""
    return (0, value or 0)


_Key = Callable[[int], tuple[int, Fraction | int]]


def _split(groups: list[list[int]], key: _Key) -> list[list[int]]:
    """Order each tied group by ``key`` and cut it where the key changes."""
    result: list[list[int]] = []
    for group in groups:
        keys = _whole_keys({number: key(number) for number in group})
        ordered = sorted(group, key=lambda n: (keys[n], n))
        current: list[int] = []
        for number in ordered:
            if current and keys[current[-1]] != keys[number]:
                result.append(current)
                current = []
            current.append(number)
        if current:
            result.append(current)
    return result


def _whole_keys(keys: dict[int, tuple[int, Fraction | int]]) -> dict[int, tuple[int, int]]:
    """The same keys in the same order as whole numbers (each value times the lcm of the
    denominators): comparing ints is many times faster than comparing Fractions."""
    scale = lcm(*(value.denominator for _, value in keys.values()))
    return {
        number: (flag, value.numerator * (scale // value.denominator))
        for number, (flag, value) in keys.items()
    }
