"""The puzzle counter and solver, checked against brute force on small boards."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.kinds.celtic.board import Cell, Tile
from games.kinds.celtic.puzzles import (
    FULL_QUOTA,
    Layout,
    LayoutError,
    PuzzleCount,
    check_layout,
    count_easy,
    count_hard,
    count_knots,
    count_layouts,
    find_easy,
    find_hard,
    find_layout,
)
from games.kinds.celtic.scoring import trace_paths
from games.kinds.celtic.tiles import Colour, Shape, Side, orientation


def brute_force(height: int, width: int) -> list[Layout]:
    """Every full layout of a small grid, by trying every set of open interior sides."""
    edges = [((r, c), (r, c + 1), Side.E) for r in range(height) for c in range(width - 1)]
    edges += [((r, c), (r + 1, c), Side.S) for r in range(height - 1) for c in range(width)]
    layouts = []
    for chosen in itertools.product((False, True), repeat=len(edges)):
        masks = [[0] * width for _ in range(height)]
        for is_open, (a, b, side) in zip(chosen, edges, strict=True):
            if is_open:
                masks[a[0]][a[1]] |= side.bit
                masks[b[0]][b[1]] |= side.opposite.bit
        if all(all(row) for row in masks):
            layouts.append(Layout(tuple(tuple(row) for row in masks)))
    return layouts


def tally(layouts: list[Layout]) -> PuzzleCount:
    by_knots = Counter(count_knots(layout) for layout in layouts)
    return PuzzleCount(len(layouts), dict(sorted(by_knots.items())))


@pytest.mark.parametrize(
    ("height", "width"), [(1, 2), (1, 5), (2, 2), (2, 3), (3, 3), (2, 5), (3, 4)]
)
def test_count_matches_brute_force_without_quota(height: int, width: int) -> None:
    assert count_layouts(height, width, quota=None) == tally(brute_force(height, width))


def test_count_matches_brute_force_with_quota() -> None:
    by_counts: dict[tuple[int, ...], list[Layout]] = {}
    for layout in brute_force(3, 3):
        by_counts.setdefault(tuple(layout.shape_counts().values()), []).append(layout)
    assert len(by_counts) > 5
    for counts, layouts in by_counts.items():
        quota = dict(zip(Shape, counts, strict=True))
        assert count_layouts(3, 3, quota) == tally(layouts)
    impossible = {Shape.CROSS: 9}
    assert count_layouts(3, 3, impossible) == PuzzleCount(0, {})


def test_two_by_two_has_seven_layouts() -> None:
    # The ring of four bends, two pairs of caps (two ways) and the four three-sided paths.
    assert count_layouts(2, 2, quota=None).total == 7


def test_ring_of_four_bends_forms_two_knots() -> None:
    # Worked by hand from the table: each twisted corner keeps the two lanes apart.
    ring = Layout.parse("ES SW\nNE NW")
    assert count_knots(ring) == 2


def test_three_in_a_row_form_one_knot() -> None:
    assert count_knots(Layout.parse("E EW W")) == 1


def test_easy_puzzle_count() -> None:
    count = count_easy()
    assert count.total == 96448
    assert count.by_knots == {
        1: 1640,
        2: 6880,
        3: 19168,
        4: 26632,
        5: 24688,
        6: 12856,
        7: 4024,
        8: 400,
        9: 160,
    }
    assert sum(count.by_knots.values()) == count.total
    assert count.to_json_dict()["by_knots"] == {str(k): n for k, n in count.by_knots.items()}
    assert count_hard() == PuzzleCount(1640, {1: 1640})


def test_found_solutions_check() -> None:
    easy = find_easy()
    hard = find_hard()
    assert check_layout(easy) >= 1
    assert check_layout(hard, single_knot=True) == 1
    assert easy.shape_counts() == FULL_QUOTA
    assert (easy.height, easy.width) == (5, 5)


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_random_solutions_check(seed: int) -> None:
    easy = find_easy(random.Random(seed))
    check_layout(easy)
    hard = find_hard(random.Random(seed))
    assert check_layout(hard, single_knot=True) == 1


def test_small_single_knot_search_agrees_with_count() -> None:
    quota = None
    assert count_layouts(2, 3, quota).by_knots.get(1, 0) > 0
    layout = find_layout(2, 3, quota, single_knot=True)
    assert layout is not None
    assert check_layout(layout, single_knot=True, quota=None) == 1


def test_impossible_layout_search_returns_none() -> None:
    # A single cell has no tile without an open side on the border.
    assert find_layout(1, 1, None) is None
    assert count_layouts(1, 1, None) == PuzzleCount(0, {})


def test_layout_text_round_trip() -> None:
    layout = find_easy()
    assert Layout.parse(str(layout)) == layout
    assert str(layout).count("\n") == 4


@pytest.mark.parametrize(
    ("text", "single_knot", "message"),
    [
        ("E W", False, "tiles of shape"),
        ("N", False, "open on the border"),
        ("E N", False, "do not match"),
        ("-", False, "holds no tile"),
        ("ES SW\nNE NW", True, "2 knots, not one"),
    ],
)
def test_check_layout_names_the_problem(text: str, single_knot: bool, message: str) -> None:
    quota = None if message != "tiles of shape" else FULL_QUOTA
    with pytest.raises(LayoutError, match=message):
        check_layout(Layout.parse(text), single_knot=single_knot, quota=quota)


def test_parse_rejects_bad_cells() -> None:
    with pytest.raises(LayoutError, match="bad cell"):
        Layout.parse("NN E")
    with pytest.raises(LayoutError, match="rectangle"):
        Layout.parse("E W\nE")


@pytest.mark.parametrize("seed", range(5))
def test_knots_agree_with_the_engine_scoring(seed: int) -> None:
    """The puzzle's own strand walk and the game's scoring must count the same knots."""
    layout = find_easy(random.Random(seed))
    tiles = [
        Tile(Cell(c, layout.height - 1 - r), orientation(mask), Colour.NEUTRAL)
        for r, c, mask in layout.cells()
    ]
    knots, open_paths = trace_paths(tiles)
    assert open_paths == ()
    assert len(knots) == count_knots(layout) == check_layout(layout)
