"""Scoring: knots, distinct tiles, neutral tiles, and comparing the score lists."""

from __future__ import annotations

import pytest

from games.kinds.celtic import (
    Cell,
    Colour,
    End,
    GameState,
    Score,
    Side,
    Tile,
    orientation,
    result_of,
)

ORANGE, BLUE, NEUTRAL = Colour.ORANGE, Colour.BLUE, Colour.NEUTRAL


def tile(cell: str, sides: str, colour: Colour) -> Tile:
    return Tile(Cell.parse(cell), orientation(sum(Side[s].bit for s in sides)), colour)


def ring(corner: str, colours: tuple[Colour, Colour, Colour, Colour]) -> list[Tile]:
    """Four bends in a 2x2 square (south-west corner given): two knots through all four."""
    sw = Cell.parse(corner)
    cells = [
        sw,
        Cell(sw.file + 1, sw.rank),
        Cell(sw.file, sw.rank + 1),
        Cell(sw.file + 1, sw.rank + 1),
    ]
    sides = ["NE", "NW", "ES", "SW"]
    return [tile(str(c), s, col) for c, s, col in zip(cells, sides, colours, strict=True)]


def test_four_caps_around_the_cross_make_one_knot() -> None:
    state = GameState.replay(["d5 E", "f5 W", "e4 N", "e6 S"])
    assert state.is_over()
    result = state.result()
    assert result.over
    assert len(result.knots) == 1
    knot = result.knots[0]
    assert sorted(str(c) for c in knot.cells) == ["d5", "e4", "e5", "e6", "f5"]
    assert len(knot.steps) == 8  # the cross is passed four times
    assert (knot.orange, knot.blue) == (2, 2)
    assert result.open_paths == ()
    assert result.score == Score((2,), (2,))
    assert result.winner is None
    assert result.text == "1/2-1/2"


def test_neutral_tiles_count_for_nobody() -> None:
    result = GameState.replay(["d5 E", "f5 W", "e4 N", "e6 S n"]).result()
    assert result.score == Score((2,), (1,))
    assert result.winner is Colour.ORANGE
    assert result.text == "1-0"
    knot = result.knots[0]
    assert knot.score(ORANGE) == 2
    assert knot.score(BLUE) == 1
    with pytest.raises(ValueError, match="only Orange and Blue score"):
        knot.score(NEUTRAL)


def test_a_tile_visited_twice_counts_once() -> None:
    # The orange straight on d5 carries the knot west to the cap on c5 and back.
    state = GameState.replay(["d5 EW", "f5 W", "c5 E", "e4 N", "e6 S"])
    assert state.is_over()
    (knot,) = state.result().knots
    visits = [str(step.cell) for step in knot.steps]
    assert visits.count("d5") == 2
    assert len(knot.steps) == 10
    assert (knot.orange, knot.blue) == (3, 2)  # d5, c5, e6 against f5, e4
    assert state.result().text == "1-0"


def test_no_knots_is_a_draw_and_open_paths_are_reported() -> None:
    result = GameState.new().result()
    assert not result.over
    assert result.knots == ()
    assert result.score == Score((), ())
    assert result.text == "1/2-1/2"
    # The cross's four strands each run from one side to the next: four open paths.
    assert len(result.open_paths) == 4
    path = result.open_paths[0]
    assert path.cells == (Cell.parse("e5"),)
    assert path.start == (Cell.parse("e5"), End(Side.N, 0))
    assert path.end == (Cell.parse("e5"), End(Side.E, 1))


def test_a_ring_of_bends_is_two_knots() -> None:
    result = result_of(ring("a1", (ORANGE, ORANGE, BLUE, NEUTRAL)), over=True)
    assert len(result.knots) == 2
    assert all(len(k.cells) == 4 and len(k.steps) == 4 for k in result.knots)
    assert result.score == Score((2, 2), (1, 1))


def test_third_knot_decides() -> None:
    tiles = ring("a1", (ORANGE, ORANGE, BLUE, BLUE)) + ring(
        "e5", (ORANGE, NEUTRAL, NEUTRAL, NEUTRAL)
    )
    result = result_of(tiles, over=True)
    assert result.score == Score((2, 2, 1, 1), (2, 2, 0, 0))
    assert result.winner is Colour.ORANGE
    assert result.text == "1-0"


def test_equal_lists_draw() -> None:
    tiles = ring("a1", (ORANGE, ORANGE, BLUE, BLUE)) + ring("e5", (BLUE, NEUTRAL, ORANGE, NEUTRAL))
    result = result_of(tiles, over=True)
    assert result.score == Score((2, 2, 1, 1), (2, 2, 1, 1))
    assert result.winner is None
    assert result.text == "1/2-1/2"


def test_highest_scores_need_not_come_from_the_same_knot() -> None:
    tiles = ring("a1", (ORANGE, ORANGE, ORANGE, NEUTRAL)) + ring("e5", (BLUE, BLUE, BLUE, BLUE))
    result = result_of(tiles, over=True)
    assert result.score == Score((3, 3, 0, 0), (4, 4, 0, 0))
    assert result.winner is Colour.BLUE
    assert result.text == "0-1"


@pytest.mark.parametrize(
    ("orange", "blue", "winner"),
    [
        ((7, 3, 2), (9, 3, 2), BLUE),  # the example of the printed rules
        ((5, 3, 1), (5, 3, 2), BLUE),  # the third knot decides
        ((5, 4, 0), (5, 3, 3), ORANGE),  # the second
        ((4, 2), (4, 2), None),
        ((), (), None),
        ((3,), (3, 1), BLUE),  # lists of different lengths compare as if padded with zeros
        ((3, 0), (3,), None),
    ],
)
def test_score_lists_compare_position_by_position(
    orange: tuple[int, ...], blue: tuple[int, ...], winner: Colour | None
) -> None:
    score = Score(orange, blue)
    assert score.winner is winner
    assert score.of(ORANGE) == orange
    assert score.of(BLUE) == blue


def test_a_mismatched_layout_leaves_paths_open() -> None:
    # Not a legal position: the cap's open side points at the closed side of a neighbour.
    result = result_of([tile("a1", "E", ORANGE), tile("b1", "N", BLUE)], over=False)
    assert result.knots == ()
    assert len(result.open_paths) == 2
    assert result.open_paths[0].start == (Cell.parse("a1"), End(Side.E, 0))
