"""Random Swiss events for tests, soak runs and benchmarks.

Each round the chosen pairing system pairs the players present; results are drawn at random
(draws, forfeits), some players ask for a half-point bye or miss a round, a few enter late
or withdraw. Randomness comes only from the ``rng`` passed in, so a seed replays an event.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from fractions import Fraction

from tournaments.pairing.base import RoundPairing
from tournaments.standings.records import Colour, Outcome, PlayerRecord, RoundRecord

Pairer = Callable[..., RoundPairing]


@dataclass(frozen=True)
class EventShape:
    """How the random event behaves; rates are per player and round."""

    players: int
    rounds: int
    draw_rate: float = 0.25
    forfeit_rate: float = 0.02
    half_bye_rate: float = 0.03
    absence_rate: float = 0.03
    late_entries: int = 0  # players who join in round 2 or 3
    withdraw_rate: float = 0.01
    forbidden_pairs: int = 0  # random pairs who may never meet
    accelerated: bool = False  # Baku acceleration: the top half gets virtual points
    full_bye_rate: float = 0.0  # full-point byes granted ahead of a round (F)
    initial_colour: Colour = Colour.ORANGE


def baku_acceleration(players: int, rounds: int) -> dict[int, tuple[Fraction, ...]]:
    """C.04.5 Baku acceleration: the first half (rounded up to even) of the starting list
    gets 1 virtual point in the first half of the first-half rounds, then ½ until half the
    event is over; nobody has any after that."""
    group_a = 2 * ((players + 3) // 4)
    first = (rounds + 1) // 2
    full = (first + 1) // 2
    bonus = tuple(Fraction(1) if r <= full else Fraction(1, 2) for r in range(1, first + 1))
    return {number: bonus for number in range(1, group_a + 1)}


@dataclass(frozen=True)
class RoundInput:
    """What a pairing system sees before round ``round_number``: the records so far, with
    the absences of this round already entered (``H``/``Z``), and who is absent."""

    round_number: int
    total_rounds: int
    players: tuple[PlayerRecord, ...]
    absent: frozenset[int]
    forbidden_pairs: tuple[frozenset[int], ...] = ()
    acceleration: dict[int, tuple[Fraction, ...]] = field(default_factory=dict)
    initial_colour: Colour = Colour.ORANGE


@dataclass
class _Entrant:
    number: int
    rating: int
    joins: int
    rounds: list[RoundRecord] = field(default_factory=list)
    withdrawn_after: int | None = None

    def record(self) -> PlayerRecord:
        return PlayerRecord(
            number=self.number,
            name=f"Player {self.number}",
            rating=self.rating,
            rounds=tuple(self.rounds),
            withdrawn_after=self.withdrawn_after,
        )


def random_event(
    rng: random.Random, shape: EventShape, pair: Pairer
) -> Iterator[tuple[RoundInput, RoundPairing]]:
    """Play an event round by round, yielding each round's input and its pairing."""
    entrants = _entrants(rng, shape)
    numbers = [e.number for e in entrants]
    forbidden = tuple(frozenset(rng.sample(numbers, 2)) for _ in range(shape.forbidden_pairs))
    acceleration = baku_acceleration(shape.players, shape.rounds) if shape.accelerated else {}
    for round_number in range(1, shape.rounds + 1):
        absent = _enter_absences(rng, shape, entrants, round_number)
        records = tuple(e.record() for e in entrants if e.joins <= round_number or e.rounds)
        round_input = RoundInput(
            round_number,
            shape.rounds,
            records,
            frozenset(absent),
            forbidden,
            acceleration,
            shape.initial_colour,
        )
        pairing = pair(
            list(records),
            round_number=round_number,
            total_rounds=shape.rounds,
            absent=frozenset(absent),
            forbidden_pairs=forbidden,
            acceleration=acceleration,
            initial_colour=shape.initial_colour,
        )
        yield round_input, pairing
        _play(rng, shape, {e.number: e for e in entrants}, round_number, pairing)


def _entrants(rng: random.Random, shape: EventShape) -> list[_Entrant]:
    total = shape.players + shape.late_entries
    ratings = sorted((rng.randint(1000, 2600) for _ in range(total)), reverse=True)
    late = set(rng.sample(range(shape.players, total), shape.late_entries))
    return [
        _Entrant(
            number=i + 1,
            rating=ratings[i] if i < shape.players else rng.randint(1000, 2600),
            joins=rng.randint(2, min(3, shape.rounds)) if i in late else 1,
        )
        for i in range(total)
    ]


def _enter_absences(
    rng: random.Random, shape: EventShape, entrants: list[_Entrant], round_number: int
) -> set[int]:
    """Enter this round's byes and absences ahead of the pairing; return who is absent."""
    absent = set()
    for entrant in entrants:
        if entrant.joins > round_number:
            entrant.rounds.append(RoundRecord(round_number, Outcome.ZERO_BYE))
            absent.add(entrant.number)
            continue
        if entrant.withdrawn_after is None and rng.random() < shape.withdraw_rate:
            entrant.withdrawn_after = round_number - 1
        if entrant.withdrawn_after is not None:
            outcome = Outcome.ZERO_BYE
        elif round_number < shape.rounds and rng.random() < shape.half_bye_rate:
            outcome = Outcome.HALF_BYE
        elif shape.full_bye_rate and rng.random() < shape.full_bye_rate:
            outcome = Outcome.FULL_BYE
        elif rng.random() < shape.absence_rate:
            outcome = Outcome.ZERO_BYE
        else:
            continue
        entrant.rounds.append(RoundRecord(round_number, outcome))
        absent.add(entrant.number)
    return absent


def _play(
    rng: random.Random,
    shape: EventShape,
    by_number: dict[int, _Entrant],
    round_number: int,
    pairing: RoundPairing,
) -> None:
    for bye in pairing.byes:
        by_number[bye].rounds.append(RoundRecord(round_number, Outcome.PAIRING_BYE))
    for game in pairing.pairs:
        white, black = by_number[game.orange], by_number[game.blue]
        white_result = _result(rng, shape, white.rating - black.rating)
        black_result = _OPPOSITE[white_result]
        white.rounds.append(RoundRecord(round_number, white_result, black.number, Colour.ORANGE))
        black.rounds.append(RoundRecord(round_number, black_result, white.number, Colour.BLUE))


_OPPOSITE = {
    Outcome.WIN: Outcome.LOSS,
    Outcome.LOSS: Outcome.WIN,
    Outcome.DRAW: Outcome.DRAW,
    Outcome.FORFEIT_WIN: Outcome.FORFEIT_LOSS,
    Outcome.FORFEIT_LOSS: Outcome.FORFEIT_WIN,
}


def _result(rng: random.Random, shape: EventShape, rating_gap: int) -> Outcome:
    """White's result: a forfeit now and then, draws, else the Elo expectation decides."""
    if rng.random() < shape.forfeit_rate:
        return rng.choice((Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS))
    if rng.random() < shape.draw_rate:
        return Outcome.DRAW
    expected = 1 / (1 + 10 ** (-rating_gap / 400))
    return Outcome.WIN if rng.random() < expected else Outcome.LOSS


def with_rounds(record: PlayerRecord, rounds: tuple[RoundRecord, ...]) -> PlayerRecord:
    return replace(record, rounds=rounds)


def quick_history(rng: random.Random, players: int, rounds: int) -> list[PlayerRecord]:
    """Records of ``players`` after ``rounds`` rounds paired greedily by score (neighbours
    who have not met, colours by preference), with random results: a fast stand-in for a
    real event's history when only the next round's pairing is of interest (benchmarks)."""
    entrants = [_Entrant(number=i + 1, rating=2600 - 10 * i, joins=1) for i in range(players)]
    shape = EventShape(players=players, rounds=rounds)
    points = {e.number: 0.0 for e in entrants}
    for round_number in range(1, rounds + 1):
        order = sorted(entrants, key=lambda e: (-points[e.number], e.number))
        waiting = list(order)
        while len(waiting) > 1:
            first = waiting.pop(0)
            met = {r.opponent for r in first.rounds}
            partner = next((e for e in waiting if e.number not in met), waiting[0])
            waiting.remove(partner)
            whites = sum(r.colour is Colour.ORANGE for r in first.rounds)
            white, black = (partner, first) if whites * 2 > len(first.rounds) else (first, partner)
            result = _result(rng, replace(shape, forfeit_rate=0), white.rating - black.rating)
            white.rounds.append(RoundRecord(round_number, result, black.number, Colour.ORANGE))
            black.rounds.append(
                RoundRecord(round_number, _OPPOSITE[result], white.number, Colour.BLUE)
            )
            for entrant, outcome in ((white, result), (black, _OPPOSITE[result])):
                points[entrant.number] += {Outcome.WIN: 1.0, Outcome.DRAW: 0.5}.get(outcome, 0.0)
        for entrant in waiting:
            entrant.rounds.append(RoundRecord(round_number, Outcome.PAIRING_BYE))
            points[entrant.number] += 1.0
    return [e.record() for e in entrants]
