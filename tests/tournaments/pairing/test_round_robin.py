"""Round robin: the FIDE Berger tables, double cycles, byes and the pairing plug-in."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tournaments.pairing.base import Pair, PairingError, PairingSystem, RoundPairing
from tournaments.pairing.round_robin import (
    berger_table,
    pair_round_robin,
    round_robin_round,
    round_robin_rounds,
)
from tournaments.standings.records import PlayerRecord

FIDE_TABLES_FILE = Path(__file__).with_name("fide_berger_tables.txt")
Table = list[list[tuple[int, int]]]


def _fide_tables() -> dict[int, Table]:
    """The typed FIDE tables, by even field size: {4: [[(1, 4), (2, 3)], ...], ...}."""
    tables: dict[int, Table] = {}
    size = 0
    for line in FIDE_TABLES_FILE.read_text().splitlines():
        if heading := re.fullmatch(r"\d+ or (\d+) players", line):
            size = int(heading[1])
            tables[size] = []
        elif line.startswith("Rd "):
            boards = line.split(":", 1)[1].split(",")
            tables[size].append([_board(board) for board in boards])
    return tables


def _board(text: str) -> tuple[int, int]:
    orange, blue = text.strip().split("-")
    return int(orange), int(blue)


FIDE = _fide_tables()


def _as_lists(table: tuple[tuple[tuple[int, int], ...], ...]) -> Table:
    return [list(round_) for round_ in table]


def _round(boards: list[tuple[int, int]], byes: tuple[int, ...] = ()) -> RoundPairing:
    return RoundPairing(pairs=tuple(Pair(o, b) for o, b in boards), byes=byes)


def _without_empty_seat(boards: list[tuple[int, int]], players: int) -> RoundPairing:
    """A table round for a field of ``players``: a game with seat players + 1 is a bye."""
    empty = players + 1
    games = [(o, b) for o, b in boards if empty not in (o, b)]
    byes = tuple(seat for board in boards if empty in board for seat in board if seat != empty)
    return _round(games, byes)


def _schedule(players: int, cycles: int) -> list[RoundPairing]:
    rounds = round_robin_rounds(players, cycles=cycles)
    return [round_robin_round(players, r, cycles=cycles) for r in range(1, rounds + 1)]


def test_the_typed_fide_tables_cover_3_to_16_players() -> None:
    assert sorted(FIDE) == [4, 6, 8, 10, 12, 14, 16]
    assert all(len(FIDE[size]) == size - 1 for size in FIDE)


@pytest.mark.parametrize("players", range(3, 17))
def test_berger_table_is_the_fide_table(players: int) -> None:
    assert _as_lists(berger_table(players)) == FIDE[players + players % 2]


@pytest.mark.parametrize("players", range(3, 17))
def test_single_round_robin_follows_the_fide_table_with_the_bye_for_the_last_seat(
    players: int,
) -> None:
    expected = []
    for boards in FIDE[players + players % 2]:
        expected.append(_without_empty_seat(boards, players))
    assert _schedule(players, cycles=1) == expected


@pytest.mark.parametrize("players", range(3, 17))
def test_double_round_robin_exchanges_the_last_two_rounds_then_reverses_colours(
    players: int,
) -> None:
    """FIDE C.05 Annex 1: the second cycle reverses the colours; the first cycle plays its
    last two rounds in exchanged order, so nobody has one colour three times running."""
    table = FIDE[players + players % 2]
    first_cycle = [*table[:-2], table[-1], table[-2]]
    second_cycle = [[(b, o) for o, b in boards] for boards in table]
    expected = []
    for boards in first_cycle + second_cycle:
        expected.append(_without_empty_seat(boards, players))
    assert _schedule(players, cycles=2) == expected


def test_double_round_robin_of_four_players_in_full() -> None:
    assert _schedule(4, cycles=2) == [
        _round([(1, 4), (2, 3)]),
        _round([(2, 4), (3, 1)]),
        _round([(4, 3), (1, 2)]),
        _round([(4, 1), (3, 2)]),
        _round([(3, 4), (2, 1)]),
        _round([(4, 2), (1, 3)]),
    ]


def test_double_round_robin_of_three_players_gives_each_a_round_off_per_cycle() -> None:
    assert _schedule(3, cycles=2) == [
        _round([(2, 3)], byes=(1,)),
        _round([(3, 1)], byes=(2,)),
        _round([(1, 2)], byes=(3,)),
        _round([(3, 2)], byes=(1,)),
        _round([(2, 1)], byes=(3,)),
        _round([(1, 3)], byes=(2,)),
    ]


def test_five_players_the_one_who_would_meet_six_has_the_round_off() -> None:
    assert round_robin_round(5, 1) == _round([(2, 5), (3, 4)], byes=(1,))
    assert round_robin_round(5, 2) == _round([(5, 3), (1, 2)], byes=(4,))
    assert round_robin_round(5, 5) == _round([(4, 2), (5, 1)], byes=(3,))


@pytest.mark.parametrize("players", range(3, 17))
def test_double_round_robin_never_gives_one_colour_three_rounds_running(players: int) -> None:
    schedule = _schedule(players, cycles=2)
    for seat in range(1, players + 1):
        colours = "".join(_colour(seat, round_) for round_ in schedule)
        assert "OOO" not in colours and "BBB" not in colours, (seat, colours)


@pytest.mark.parametrize(("players", "cycles"), [(3, 1), (6, 1), (7, 2), (16, 2)])
def test_every_two_players_meet_once_per_cycle_with_both_colours_over_two(
    players: int, cycles: int
) -> None:
    games = [(p.orange, p.blue) for round_ in _schedule(players, cycles) for p in round_.pairs]
    meetings = {frozenset(game) for game in games}
    assert len(games) == cycles * players * (players - 1) // 2
    assert len(meetings) == players * (players - 1) // 2
    if cycles == 2:
        assert set(games) == {(b, o) for o, b in games}


@pytest.mark.parametrize(
    ("players", "cycles", "rounds"),
    [(2, 1, 1), (3, 1, 3), (4, 1, 3), (4, 2, 6), (9, 1, 9), (10, 1, 9), (11, 2, 22), (16, 2, 30)],
)
def test_number_of_rounds(players: int, cycles: int, rounds: int) -> None:
    assert round_robin_rounds(players, cycles=cycles) == rounds


def test_two_players_play_one_game_per_cycle() -> None:
    assert _schedule(2, cycles=2) == [_round([(1, 2)]), _round([(2, 1)])]


@pytest.mark.parametrize("players", [1, 0, -3])
def test_too_few_players_is_refused(players: int) -> None:
    with pytest.raises(PairingError, match=f"at least 2 players, not {players}"):
        berger_table(players)


@pytest.mark.parametrize("cycles", [0, 3])
def test_only_single_and_double_round_robins(cycles: int) -> None:
    with pytest.raises(PairingError, match=f"1 cycle \\(single\\) or 2 \\(double\\), not {cycles}"):
        round_robin_rounds(6, cycles=cycles)


@pytest.mark.parametrize("round_number", [0, 6, -1])
def test_a_round_outside_the_schedule_is_refused(round_number: int) -> None:
    with pytest.raises(PairingError, match=f"Round {round_number} does not exist.*rounds 1 to 5"):
        round_robin_round(6, round_number)


def _field(size: int) -> list[PlayerRecord]:
    return [PlayerRecord(number=n, name=f"P{n}", rating=2000 - n) for n in range(1, size + 1)]


def test_plug_in_is_a_pairing_system() -> None:
    system: PairingSystem = pair_round_robin  # mypy checks the signature
    assert system(_field(4), round_number=3, total_rounds=3) == _round([(2, 4), (3, 1)])


def test_plug_in_pairs_by_starting_number_and_reads_the_cycles_from_the_round_count() -> None:
    players = list(reversed(_field(6)))  # the order of the input does not matter
    single = pair_round_robin(players, round_number=2, total_rounds=5)
    double = pair_round_robin(players, round_number=7, total_rounds=10)
    assert single == _round([(6, 4), (5, 3), (1, 2)])
    assert double == _round([(4, 6), (3, 5), (2, 1)])


def test_plug_in_keeps_the_games_of_absent_players_on_the_schedule() -> None:
    paired = pair_round_robin(_field(4), round_number=1, total_rounds=3, absent=frozenset({4}))
    assert paired == _round([(1, 4), (2, 3)])


def test_plug_in_gives_the_round_off_of_an_odd_field_as_a_bye() -> None:
    paired = pair_round_robin(_field(5), round_number=3, total_rounds=10)
    assert paired == _round([(3, 1), (4, 5)], byes=(2,))


def test_plug_in_refuses_starting_numbers_that_are_not_the_seats() -> None:
    players = [*_field(3), PlayerRecord(number=7, name="P7")]
    with pytest.raises(PairingError, match=r"starting numbers 1 to 4; got \[1, 2, 3, 7\]"):
        pair_round_robin(players, round_number=1, total_rounds=3)


@pytest.mark.parametrize("total_rounds", [4, 9, 15])
def test_plug_in_refuses_a_round_count_of_neither_cycle(total_rounds: int) -> None:
    with pytest.raises(
        PairingError, match=f"5 rounds \\(single\\) or 10 \\(double\\), not {total_rounds}"
    ):
        pair_round_robin(_field(6), round_number=1, total_rounds=total_rounds)


def _colour(seat: int, round_: RoundPairing) -> str:
    for pair in round_.pairs:
        if seat in (pair.orange, pair.blue):
            return "O" if pair.orange == seat else "B"
    return "-"
