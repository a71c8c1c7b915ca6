"""Round robin by the FIDE Berger tables (FIDE Handbook C.05, Annex 1).

Seats are the players' starting numbers, 1 to n. The table for an even n has n - 1 rounds;
an odd field uses the table of n + 1, and whoever meets seat n + 1 has the round off. In a
double round robin the second cycle repeats the table with the colours reversed, and, as FIDE
recommends, the last two rounds of the first cycle are exchanged so nobody gets the same
colour three times running across the turn of the cycles.

Absent players are paired all the same: a round robin's schedule is fixed in advance, so the
game of a withdrawn or absent player stays on the board and the app decides it (a forfeit).
The round off of an odd field scores nothing in a round robin: the app records it as a
zero-point bye, unlike the pairing-allocated bye of a Swiss.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.base import Pair, PairingError, RoundPairing
from tournaments.standings.records import PlayerRecord

Seats = tuple[int, int]  # (orange seat, blue seat)
BergerTable = tuple[tuple[Seats, ...], ...]  # round (0-based) -> boards in order

SUPPORTED_CYCLES = (1, 2)


def berger_table(players: int) -> BergerTable:
    """The FIDE Berger table for ``players`` players, as FIDE prints it.

    An odd field gets the table of the next even number: the last seat is then the bye.
    Each round lists its boards in order as (orange seat, blue seat).
    """
    if players < 2:
        raise PairingError(f"A round robin needs at least 2 players, not {players}.")
    seats = players + players % 2
    return tuple(_berger_round(seats, index) for index in range(seats - 1))


def _berger_round(seats: int, index: int) -> tuple[Seats, ...]:
    """Round ``index`` (0-based) of the table for an even number of seats.

    Seats 1 to seats - 1 sit on a ring; each round the ring turns by seats / 2 places. The
    ring's first seat meets the last seat (Orange in odd rounds, Blue in even ones); the others
    meet across the ring, the earlier one on the ring with Orange.
    """
    ring_size = seats - 1
    start = index * (seats // 2) % ring_size
    ring = [(start + offset) % ring_size + 1 for offset in range(ring_size)]
    first_board = (ring[0], seats) if index % 2 == 0 else (seats, ring[0])
    others = tuple((ring[board], ring[ring_size - board]) for board in range(1, seats // 2))
    return (first_board, *others)


def round_robin_rounds(players: int, *, cycles: int = 1) -> int:
    """How many rounds a round robin of ``players`` players takes over ``cycles`` cycles."""
    _check_cycles(cycles)
    if players < 2:
        raise PairingError(f"A round robin needs at least 2 players, not {players}.")
    return (players + players % 2 - 1) * cycles  # the rows of berger_table(players)


def round_robin_round(players: int, round_number: int, *, cycles: int = 1) -> RoundPairing:
    """Round ``round_number`` (1-based) of a single or double round robin, by seat.

    The pairs hold seats (starting numbers); the player who meets the empty seat of an odd
    field is in ``byes``.
    """
    total = round_robin_rounds(players, cycles=cycles)
    if not 1 <= round_number <= total:
        raise PairingError(
            f"Round {round_number} does not exist: a round robin of {players} players over "
            f"{cycles} cycle(s) has rounds 1 to {total}."
        )
    per_cycle = total // cycles
    cycle_index, index = divmod(round_number - 1, per_cycle)
    if cycles == 2 and cycle_index == 0:
        index = _first_cycle_order(per_cycle)[index]
    boards = _berger_round(players + players % 2, index)  # one row of berger_table(players)
    if cycle_index == 1:
        boards = tuple((blue, orange) for orange, blue in boards)
    empty_seat = players + 1
    pairs: list[Pair] = []
    byes: list[int] = []
    for orange, blue in boards:
        if empty_seat not in (orange, blue):
            pairs.append(Pair(orange, blue))
        else:
            byes.append(blue if orange == empty_seat else orange)
    return RoundPairing(pairs=tuple(pairs), byes=tuple(byes))


def _first_cycle_order(rounds: int) -> list[int]:
    """Table rounds in the order the first cycle of a double round robin plays them."""
    order = list(range(rounds))
    if rounds >= 2:
        order[-2], order[-1] = order[-1], order[-2]
    return order


def pair_round_robin(
    players: Sequence[PlayerRecord],
    *,
    round_number: int,
    total_rounds: int,
    absent: frozenset[int] = frozenset(),
) -> RoundPairing:
    """The ``PairingSystem`` plug-in: round ``round_number`` of the event's round robin.

    ``players`` is the whole field, numbered 1 to n (the Berger seats); ``total_rounds`` says
    whether it is a single or a double round robin. ``absent`` is ignored on purpose: the
    schedule is fixed, and an absent player's game is a forfeit for the app to record.
    """
    del absent  # the schedule does not change for absences; see the module docstring
    field = len(players)
    numbers = sorted(player.number for player in players)
    if numbers != list(range(1, field + 1)):
        raise PairingError(
            f"Round robin seats are the starting numbers 1 to {field}; got {numbers}."
        )
    per_cycle = round_robin_rounds(field)
    cycles, leftover = divmod(total_rounds, per_cycle)
    if leftover or cycles not in SUPPORTED_CYCLES:
        raise PairingError(
            f"A round robin of {field} players has {per_cycle} rounds (single) or "
            f"{2 * per_cycle} (double), not {total_rounds}."
        )
    return round_robin_round(field, round_number, cycles=cycles)


def _check_cycles(cycles: int) -> None:
    if cycles not in SUPPORTED_CYCLES:
        raise PairingError(f"A round robin has 1 cycle (single) or 2 (double), not {cycles}.")
