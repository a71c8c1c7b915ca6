"""What the rules and puzzles pages show, computed from the engine and drawn by the board
renderer, so the pages can never disagree with the game the site plays."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from games.kinds.celtic import GameState, Move, Shape
from games.kinds.celtic.board import FILES
from games.kinds.celtic.puzzles import SIZE, Layout, check_layout, find_easy, find_hard
from games.kinds.celtic.svg import KNOT_COLOURS, board_svg, knot_strand_colours, tile_icon_svg
from games.kinds.celtic.tiles import TILES_PER_SHAPE, orientation, orientations_of
from games.kinds.knot.kind import KIND as KNOT

SCORING_EXAMPLE = (
    "f5 SW n", "e4 NSW n", "e3 NW", "d3 NE", "d5 NES", "e6 ES", "f6 W n", "f4 N",
    "d6 NSW", "c6 NEW", "d7 S", "c7 S", "b6 NE", "d4 NES", "b7 S",
)  # fmt: skip
"""A complete game (a seeded random playout) whose two best knots tie and whose second
knots decide: the page computes its knots and scores from these moves."""

PUZZLES = {"easy": False, "hard": True}
"""Each puzzle's name and whether it asks for one single knot."""


@dataclass(frozen=True)
class ShapeRow:
    letter: str
    name: str
    in_box: str
    orientations: list[dict[str, str]]


def shape_rows() -> list[ShapeRow]:
    """Every shape with each of its orientations drawn as a tile and named by its sides."""
    rows = []
    for shape in Shape:
        rows.append(
            ShapeRow(
                letter=shape.letter,
                name=shape.name.lower(),
                in_box=", ".join(f"{n} {colour.value}" for colour, n in TILES_PER_SHAPE.items()),
                orientations=[
                    {"sides": o.sides_text, "icon": tile_icon_svg(o.mask, "neutral", size=64)}
                    for o in orientations_of(shape)
                ],
            )
        )
    return rows


def notation_examples() -> list[dict[str, str]]:
    """Loosely typed moves and the canonical text the engine reads them as."""
    typed = ["f5 ne", "F5 EN", "d5  nesw n", "c4 SW"]
    return [{"typed": text, "canonical": str(Move.parse(text))} for text in typed]


@dataclass(frozen=True)
class ScoringExample:
    moves: list[str]
    board: str
    knots: list[dict[str, object]]
    orange: tuple[int, ...]
    blue: tuple[int, ...]
    result: str
    over: bool


@cache
def scoring_example() -> ScoringExample:
    """The example game replayed by the engine: its final design, knots and scores."""
    state = GameState.new()
    for text in SCORING_EXAMPLE:
        state.apply(Move.parse(text))
    result = state.result()
    tiles = [
        {"cell": str(t.cell), "sides": t.orientation.sides_text, "colour": t.colour.value}
        for t in state.tiles
    ]
    return ScoringExample(
        moves=list(SCORING_EXAMPLE),
        board=board_svg(
            tiles=tiles,
            knot_colours=knot_strand_colours(result.knots),
            title="The example game's final design, its knots highlighted",
            dom_id="scoring-board",
        ),
        knots=[
            {
                "cells": " ".join(str(c) for c in k.cells),
                "orange": k.orange,
                "blue": k.blue,
                "colour": KNOT_COLOURS[number % len(KNOT_COLOURS)],
            }
            for number, k in enumerate(result.knots)
        ],
        orange=result.score.orange,
        blue=result.score.blue,
        result=result.text,
        over=state.is_over(),
    )


def layout_board(layout: Layout, *, title: str, dom_id: str) -> str:
    """A puzzle grid drawn like a game board: row 1 is rank 5, column 1 is file a."""
    tiles = [
        {
            "cell": f"{FILES[c]}{SIZE - r}",
            "sides": orientation(mask).sides_text,
            "colour": "neutral",
        }
        for r, c, mask in layout.cells()
        if mask
    ]
    return board_svg(tiles=tiles, title=title, dom_id=dom_id)


@cache
def puzzle_solution(name: str) -> tuple[str, int]:
    """One solution of the named puzzle, drawn, with its number of knots (checked)."""
    single = PUZZLES[name]
    layout = find_hard() if single else find_easy()
    knots = check_layout(layout, single_knot=single)
    board = layout_board(
        layout, title=f"A solution of the {name} puzzle", dom_id=f"{name}-solution"
    )
    return board, knots


def orientation_icons() -> dict[str, dict[str, str]]:
    """Every orientation's picture and shape letter keyed by its sides, for the puzzle
    page's tile picker and its count of tiles left."""
    return {
        o.sides_text: {"icon": tile_icon_svg(o.mask, "neutral", size=48), "shape": shape.letter}
        for shape in Shape
        for o in orientations_of(shape)
    }


@cache
def knot_start_board() -> str:
    """Celtic Knot's board as a game of two starts, drawn by the kind (an SVG)."""
    return KNOT.svg(KNOT.replay(2, []))
