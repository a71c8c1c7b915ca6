"""The SVG board drawing: pure functions, no database."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from games.kinds.celtic import ORIENTATIONS, Cell, End, GameState, Move, Side, random_playout
from games.kinds.celtic.kind import position_data
from games.kinds.celtic.svg import (
    board_svg,
    end_point,
    knot_strand_colours,
    mask_of,
    shape_icon_svg,
    strand_d,
    tile_icon_svg,
    view_around,
)

SVG = "{http://www.w3.org/2000/svg}"
STRANDS_PER_SHAPE = {"X": 4, "T": 3, "I": 2, "L": 2, "U": 1}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def tile_groups(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if "tile" in g.get("class", "").split()]


def strand_paths(group: ET.Element) -> list[ET.Element]:
    return [p for p in group.iter(f"{SVG}path") if "strand" in p.get("class", "").split()]


def finished_state(seed: int = 3) -> GameState:
    return random_playout(GameState.new(), random.Random(seed))


def test_end_points_sit_at_thirds_and_meet_the_neighbours_ends() -> None:
    assert end_point(End(Side.N, 0)) == pytest.approx((100 / 3, 0))
    assert end_point(End(Side.N, 1)) == pytest.approx((200 / 3, 0))
    assert end_point(End(Side.E, 0)) == pytest.approx((100, 100 / 3))
    assert end_point(End(Side.S, 0)) == pytest.approx((200 / 3, 100))  # S0 is the eastern end
    assert end_point(End(Side.W, 0)) == pytest.approx((0, 200 / 3))  # W0 is the southern end
    # An end meets its partner on the neighbouring tile at the same point of the board.
    for side, (dx, dy) in {Side.N: (0, -100), Side.E: (100, 0)}.items():
        for index in (0, 1):
            end = End(side, index)
            x, y = end_point(end)
            assert end_point(end.partner, dx, dy) == pytest.approx((x, y))


def test_a_strand_is_one_cubic_bezier_from_end_to_end() -> None:
    d = strand_d(End(Side.N, 0), End(Side.E, 1))
    assert d.startswith("M33.3 0C")
    assert d.endswith(" 100 66.7")
    assert d.count("C") == 1


@pytest.mark.parametrize("mask", sorted(ORIENTATIONS))
def test_each_orientation_draws_its_strands_from_the_topology_table(mask: int) -> None:
    orientation = ORIENTATIONS[mask]
    root = parse(tile_icon_svg(mask, "orange"))
    (group,) = tile_groups(root)
    paths = strand_paths(group)
    assert len(paths) == STRANDS_PER_SHAPE[orientation.shape.letter]
    assert {p.get("data-ends") for p in paths} == {f"{a}-{b}" for a, b in orientation.strands}
    assert group.get("data-sides") == orientation.sides_text


def test_start_position_has_the_neutral_cross_and_four_demand_cells() -> None:
    data = position_data(GameState.new())
    root = parse(board_svg(tiles=data["tiles"], demand_cells=data["demand_cells"]))
    (cross,) = tile_groups(root)
    assert cross.get("data-cell") == "e5"
    assert "tile-neutral" in cross.get("class", "")
    assert len(strand_paths(cross)) == 4
    demand = [r for r in root.iter(f"{SVG}rect") if "demand" in r.get("class", "").split()]
    assert sorted(r.get("data-cell") for r in demand) == ["d5", "e4", "e6", "f5"]
    assert root.find(f"{SVG}title").text == "The design"


def test_board_has_one_group_per_tile_and_the_right_strands_per_shape() -> None:
    state = finished_state()
    data = position_data(state)
    root = parse(board_svg(tiles=data["tiles"], demand_cells=data["demand_cells"]))
    groups = tile_groups(root)
    assert len(groups) == len(data["tiles"]) == len(state.tiles)
    by_cell = {g.get("data-cell"): g for g in groups}
    for tile in data["tiles"]:
        group = by_cell[tile["cell"]]
        assert len(strand_paths(group)) == STRANDS_PER_SHAPE[tile["shape"]]
        assert f"tile-{tile['colour']}" in group.get("class", "")
        assert group.find(f"{SVG}title").text.startswith(f"{tile['cell']}: ")


def test_knot_strands_carry_their_knot_colour() -> None:
    state = finished_state()
    knots = state.result().knots
    assert knots, "seed 3 ends with closed knots"
    data = position_data(state)
    colours = knot_strand_colours(knots)
    root = parse(board_svg(tiles=data["tiles"], knot_colours=colours))
    highlighted = [p for p in root.iter(f"{SVG}path") if "knot" in p.get("class", "").split()]
    assert len(highlighted) == len(colours) == sum(len(k.steps) for k in knots)
    assert all(p.get("style", "").startswith("--knot: #") for p in highlighted)


def test_playable_demand_cells_are_keyboard_buttons() -> None:
    state = GameState.new()
    data = position_data(state)
    root = parse(
        board_svg(tiles=data["tiles"], demand_cells=data["demand_cells"], playable_cells={"f5"})
    )
    rects = {r.get("data-cell"): r for r in root.iter(f"{SVG}rect") if r.get("data-cell")}
    assert rects["f5"].get("role") == "button" and rects["f5"].get("tabindex") == "0"
    assert rects["d5"].get("role") is None


def test_last_move_is_marked() -> None:
    state = GameState.new()
    state.apply(Move.parse("f5 W"))
    data = position_data(state)
    svg = board_svg(tiles=data["tiles"], demand_cells=data["demand_cells"], last_cell="f5")
    marks = [r for r in parse(svg).iter(f"{SVG}rect") if r.get("class") == "last-move-mark"]
    assert len(marks) == 1


def test_view_is_a_five_by_five_window_kept_on_the_grid() -> None:
    view = view_around([Cell.parse("e5")])
    assert (view.file, view.rank, view.files, view.ranks) == (2, 2, 5, 5)
    corner = view_around([Cell.parse("a1"), Cell.parse("b2")])
    assert (corner.file, corner.rank, corner.files, corner.ranks) == (0, 0, 5, 5)


def test_labels_name_the_files_and_ranks_of_the_window() -> None:
    data = position_data(GameState.new())
    texts = [t.text for t in parse(board_svg(tiles=data["tiles"])).iter(f"{SVG}text")]
    assert texts == ["c", "d", "e", "f", "g", "7", "6", "5", "4", "3"]


def test_icons_are_labelled() -> None:
    icon = parse(shape_icon_svg("L", "blue"))
    assert icon.get("aria-label") == "Blue bend (L)"
    assert mask_of("NE") == 3


def test_text_is_escaped() -> None:
    data = position_data(GameState.new())
    svg = board_svg(tiles=data["tiles"], title="<script>")
    assert "<script>" not in svg and "&lt;script&gt;" in svg
