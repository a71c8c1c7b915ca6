"""Sections: a field split into round robins in snake order of rating; the seed order."""

from __future__ import annotations

import pytest

from tournaments.pairing.base import PairingError
from tournaments.pairing.sections import section_count, snake_sections
from tournaments.pairing.seeding import seed_order
from tournaments.standings.records import PlayerRecord


def _players(ratings: dict[int, int | None]) -> list[PlayerRecord]:
    """Players by starting number with their ratings."""
    return [PlayerRecord(number=n, name=f"P{n}", rating=r) for n, r in ratings.items()]


def _seeded(count: int) -> list[PlayerRecord]:
    """``count`` players whose starting numbers are also their seeds."""
    return _players({n: 2400 - 25 * n for n in range(1, count + 1)})


def test_seed_order_by_rating_unrated_last_ties_by_starting_number() -> None:
    players = _players({1: 1500, 2: 1720, 3: None, 4: 1850, 5: 1720, 6: 1990, 7: None})
    assert seed_order(players) == (6, 4, 2, 5, 1, 3, 7)
    assert seed_order(list(reversed(players))) == (6, 4, 2, 5, 1, 3, 7)


def test_seed_order_refuses_repeated_numbers() -> None:
    players = [*_seeded(3), PlayerRecord(number=2, name="again")]
    with pytest.raises(PairingError, match=r"unique; repeated: \[2\]"):
        seed_order(players)


def test_eight_players_in_two_sections_of_four_by_rating() -> None:
    players = _players({1: 1500, 2: 1720, 3: 1610, 4: 1850, 5: 1400, 6: 1990, 7: 1550, 8: None})
    # Seeds: 6, 4, 2, 3, 7, 1, 5, 8. Snake: A B | B A | A B | B A.
    assert snake_sections(players, section_size=4) == ((6, 3, 7, 8), (4, 2, 1, 5))


def test_twelve_players_in_three_sections_of_four() -> None:
    assert snake_sections(_seeded(12), section_size=4) == (
        (1, 6, 7, 12),
        (2, 5, 8, 11),
        (3, 4, 9, 10),
    )


def test_a_remainder_continues_the_snake_and_never_exceeds_the_size() -> None:
    # 10 players, at most 4 a section: three sections; the tenth goes on down the snake to C.
    assert snake_sections(_seeded(10), section_size=4) == ((1, 6, 7), (2, 5, 8), (3, 4, 9, 10))
    # 9 players, at most 8 a section: two sections of 5 and 4.
    assert snake_sections(_seeded(9), section_size=8) == ((1, 4, 5, 8, 9), (2, 3, 6, 7))


def test_a_field_within_the_size_stays_one_section_in_seed_order() -> None:
    players = _players({1: 1600, 2: 1800, 3: 1700})
    assert snake_sections(players, section_size=6) == ((2, 3, 1),)


@pytest.mark.parametrize("size", range(3, 11))
@pytest.mark.parametrize("players", range(1, 41))
def test_sections_hold_everyone_once_within_the_size_and_differ_by_one_at_most(
    players: int, size: int
) -> None:
    sections = snake_sections(_seeded(players), section_size=size)
    sizes = [len(section) for section in sections]
    assert len(sections) == section_count(players, section_size=size)
    assert sorted(n for section in sections for n in section) == list(range(1, players + 1))
    assert max(sizes) <= size
    assert max(sizes) - min(sizes) <= 1


@pytest.mark.parametrize(
    ("players", "size", "count"), [(8, 8, 1), (9, 8, 2), (16, 8, 2), (17, 6, 3)]
)
def test_section_count(players: int, size: int, count: int) -> None:
    assert section_count(players, section_size=size) == count


@pytest.mark.parametrize("size", [2, 0, -4])
def test_sections_need_room_for_three(size: int) -> None:
    with pytest.raises(PairingError, match=f"at least 3 players, not {size}"):
        snake_sections(_seeded(10), section_size=size)


def test_no_players_no_sections() -> None:
    with pytest.raises(PairingError, match="no players"):
        snake_sections([], section_size=6)
