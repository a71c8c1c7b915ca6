"""The board: the map, the strand walked on it, levels, pits, routes and distances."""

from __future__ import annotations

import pytest

from games.kinds.base import KindError
from games.kinds.knot.board import (
    BELOW,
    DISTANCE,
    EXIT,
    INDEX,
    LOOP,
    MAX_SUM,
    NAMES,
    PATH,
    PITS,
    ROUTES,
    SPACE_COUNT,
    START_SPACES,
    parse_space,
)
from tests.kinds.knot.helpers import SPEC_LOOP, loop_destinations


def dests(start: str, points: int) -> set[str]:
    return {NAMES[space] for space in ROUTES[INDEX[start]][points]}


def test_the_map_has_55_path_squares_and_63_spaces() -> None:
    assert len(PATH) == 55
    assert SPACE_COUNT == 63
    assert sum(name.endswith("u") for name in NAMES) == 8
    assert NAMES[EXIT] == "e5"
    assert sorted(NAMES[pit] for pit in PITS) == ["c5", "g5"]
    assert {NAMES[p]: NAMES[b] for p, b in BELOW.items()} == {"c5": "c5u", "g5": "g5u"}
    assert [NAMES[s] for s in START_SPACES] == ["a1", "a2", "b1", "h9", "i8", "i9"]


def test_the_strand_walked_on_the_map_is_the_one_the_rules_list() -> None:
    assert [NAMES[space] for space in LOOP] == SPEC_LOOP
    assert SPEC_LOOP.count("e5") == 2


@pytest.mark.parametrize(
    ("name", "distance"),
    [("a1", 9), ("a2", 10), ("b1", 8), ("c5", 3), ("c5u", 2), ("e3", 2), ("e3u", 10),
     ("g7", 12), ("i7", 11), ("e5", 0), ("g5", 3), ("d5", 1)],
)  # fmt: skip
def test_distances_to_the_diamond(name: str, distance: int) -> None:
    assert DISTANCE[INDEX[name]] == distance


def test_every_route_matches_the_strand_of_the_rules() -> None:
    for space in range(SPACE_COUNT):
        if space == EXIT:
            continue
        for points in range(1, MAX_SUM + 1):
            assert dests(NAMES[space], points) == loop_destinations(NAMES[space], points)


def test_crossings_keep_their_level() -> None:
    assert dests("c3", 1) == {"b3", "d3"}  # over the bridge, east-west
    assert dests("c3u", 1) == {"c2", "c4"}  # under it, north-south
    assert dests("b3", 2) == {"d3", "a2"}  # straight over c3, never onto c3u
    assert dests("c2", 2) == {"c4", "b1"}  # straight under c3, never up onto c3


def test_the_pit_drops_only_as_the_first_point() -> None:
    assert dests("c5", 1) == {"c4", "c6", "c5u"}
    assert dests("c5", 2) == {"c3u", "c7u", "b5", "d5"}
    assert dests("c4", 2) == {"c6", "c2"}  # passing over the pit: no drop
    assert dests("g5", 3) == {"g2", "g8", "e5", "i5"}


def test_no_route_climbs_from_a_lower_space() -> None:
    for lower in ("c5u", "g5u", "c3u", "e7u"):
        upper = lower[:-1]
        for points in range(1, MAX_SUM + 1):
            assert upper not in dests(lower, points) or points >= 8  # only round the loop
    assert dests("c5u", 1) == {"b5", "d5"}


def test_the_diamond_must_be_hit_exactly() -> None:
    assert "e5" in dests("e3", 2)
    assert dests("e3", 3) == {"e6", "f1"}  # one point left: straight over the diamond
    assert dests("d5", 2) == {"f5", "b5"}


def test_the_routes_of_one_move_end_on_different_spaces() -> None:
    for space in range(SPACE_COUNT):
        for points in range(1, MAX_SUM + 1):
            if space != EXIT:
                expected = 2 + (space in PITS) * (1 if points == 1 else 2)
                assert len(ROUTES[space][points]) == expected


def test_spaces_parse_in_any_case_and_lower_spaces_by_their_marker_square() -> None:
    assert NAMES[parse_space(" C3U ")] == "c3u"
    assert NAMES[parse_space("d4")] == "c3u"
    assert NAMES[parse_space("h8")] == "g7u"
    assert NAMES[parse_space("E5")] == "e5"


@pytest.mark.parametrize("text", ["j1", "b2", "c3x", "", "e5u", "a0"])
def test_a_square_off_the_path_is_refused_with_what_is_expected(text: str) -> None:
    with pytest.raises(KindError, match="is not a space: expected a space of the knot"):
        parse_space(text)
