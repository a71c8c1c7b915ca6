"""Draw a Celtic! design as inline SVG: pure functions from position data to markup.

Every tile is a square with its background colour and its strands drawn as cubic Béziers
between path ends. An end sits one third or two thirds along its side (see
``games.kinds.celtic.tiles``: N0 is the western end of the north side, E0 the northern end of the
east side, S0 the eastern end of the south side, W0 the southern end of the west side), so
the ends of neighbouring tiles meet exactly and a path can be followed from tile to tile. Each
curve leaves its end at right angles to the side, which keeps the joins smooth; a strand
between two sides bends through the middle of the tile, a cap's strand turns back.

The strands come from ``ORIENTATIONS[mask].strands``: change the topology table and the
drawing follows. Nothing here touches the database, so the module is tested on its own.

Markup conventions that the page's CSS, script and tests rely on:

* ``<g class="tile ..." data-cell="f5" data-sides="NE">`` per placed tile;
* ``<path class="strand">`` per strand (and a wider ``strand-edge`` path under each, for the
  outline); strands on a closed knot also carry ``knot`` and a ``--knot`` colour;
* ``<rect class="demand" data-cell="d5">`` per demand cell, ``playable`` when the viewer may
  play there (then it is focusable and acts as a button for the page script).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Final

from games.kinds.celtic.board import BOARD_SIZE, FILES, WINDOW_SIZE, Cell
from games.kinds.celtic.scoring import Knot
from games.kinds.celtic.tiles import ORIENTATIONS, SHAPE_TABLE, End, Shape, Side

TILE: Final = 100
"""Side of one tile in SVG user units."""
LABEL_SPACE: Final = 26
"""Room for the rank labels on the left and the file labels below."""
PAD: Final = 6

FILLS: Final = {"orange": "#e07b24", "blue": "#2f6db5", "neutral": "#ede3cc"}
COLOUR_NAMES: Final = {"orange": "Orange", "blue": "Blue", "neutral": "neutral"}
SHAPE_NAMES: Final = {shape.letter: shape.name.lower() for shape in Shape}
STRAND_INK: Final = "#1f2a2e"
STRAND_LIGHT: Final = "#fffaf0"
KNOT_COLOURS: Final = ("#ffd23f", "#7be0ad", "#ff9ecb", "#b8a6ff", "#9fe7ff", "#ffb86b")
"""Highlight colours for closed knots, one per knot in turn."""

# Unit vectors pointing into the tile from each side, in SVG coordinates (y grows down).
_INWARD: Final = {Side.N: (0.0, 1.0), Side.E: (-1.0, 0.0), Side.S: (0.0, -1.0), Side.W: (1.0, 0.0)}

StrandKey = tuple[str, frozenset[str]]
"""A strand of a placed tile: its cell and its two ends, like ``("e5", {"N0", "E1"})``."""


def end_point(end: End, x: float = 0, y: float = 0, size: float = TILE) -> tuple[float, float]:
    """Where ``end`` lies on the tile whose top-left corner is (x, y)."""
    near, far = size / 3, 2 * size / 3
    along = near if end.index == 0 else far
    if end.side is Side.N:
        return x + along, y
    if end.side is Side.E:
        return x + size, y + along
    if end.side is Side.S:  # numbered clockwise: S0 is the eastern end
        return x + size - along, y + size
    return x, y + size - along  # W0 is the southern end


def strand_d(a: End, b: End, x: float = 0, y: float = 0, size: float = TILE) -> str:
    """The path data of the strand from ``a`` to ``b``: one smooth cubic Bézier."""
    (x0, y0), (x1, y1) = end_point(a, x, y, size), end_point(b, x, y, size)
    reach = size * (0.5 if a.side is b.side else 0.42)
    (ax, ay), (bx, by) = _INWARD[a.side], _INWARD[b.side]
    c0 = (x0 + ax * reach, y0 + ay * reach)
    c1 = (x1 + bx * reach, y1 + by * reach)
    return f"M{_n(x0)} {_n(y0)}C{_n(c0[0])} {_n(c0[1])} {_n(c1[0])} {_n(c1[1])} {_n(x1)} {_n(y1)}"


def mask_of(sides: str) -> int:
    """The side mask of sides text like ``"NE"``."""
    return sum(Side[letter].bit for letter in sides.upper())


def canonical_mask(shape_letter: str) -> int:
    """The side mask of a shape in the orientation of the topology table."""
    spec = SHAPE_TABLE[Shape(shape_letter)]
    return sum(side.bit for side in spec.open_sides)


def tile_title(cell: str | None, sides: str, colour: str) -> str:
    shape = ORIENTATIONS[mask_of(sides)].shape
    where = f"{cell}: " if cell else ""
    return f"{where}{COLOUR_NAMES.get(colour, colour)} {shape.name.lower()}, open {sides}"


def tile_group(
    *,
    mask: int,
    colour: str,
    x: float = 0,
    y: float = 0,
    size: float = TILE,
    cell: str | None = None,
    knot_colours: Mapping[frozenset[str], str] | None = None,
    extra_class: str = "",
) -> str:
    """One tile: background square, then each strand as an outline and a light core."""
    orientation = ORIENTATIONS[mask]
    sides = orientation.sides_text
    classes = f"tile tile-{colour} shape-{orientation.shape.letter} {extra_class}".strip()
    data = f' data-cell="{escape(cell)}"' if cell else ""
    parts = [
        f'<g class="{classes}"{data} data-sides="{sides}">',
        f"<title>{escape(tile_title(cell, sides, colour))}</title>",
        f'<rect class="tile-bg" x="{_n(x)}" y="{_n(y)}" width="{_n(size)}" height="{_n(size)}" '
        f'fill="{FILLS.get(colour, FILLS["neutral"])}" stroke="#00000033" stroke-width="1"/>',
    ]
    edge, core = size * 0.15, size * 0.085
    for a, b in orientation.strands:
        d = strand_d(a, b, x, y, size)
        knot = (knot_colours or {}).get(frozenset((str(a), str(b))))
        knot_attr = f' style="--knot: {knot}"' if knot else ""
        parts.append(
            f'<path class="strand-edge" d="{d}" fill="none" stroke="{STRAND_INK}" '
            f'stroke-width="{_n(edge)}"/>'
        )
        parts.append(
            f'<path class="strand{" knot" if knot else ""}"{knot_attr} d="{d}" fill="none" '
            f'stroke="{STRAND_LIGHT}" stroke-width="{_n(core)}" data-ends="{a}-{b}"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def tile_icon_svg(mask: int, colour: str, *, size: int = 40, label: str | None = None) -> str:
    """A small stand-alone tile picture (for supplies and the orientation buttons)."""
    title = label or tile_title(None, ORIENTATIONS[mask].sides_text, colour)
    return (
        f'<svg class="tile-icon" viewBox="0 0 {TILE} {TILE}" width="{size}" height="{size}" '
        f'role="img" aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">'
        f"{tile_group(mask=mask, colour=colour)}</svg>"
    )


def shape_icon_svg(shape_letter: str, colour: str, *, size: int = 32) -> str:
    """A shape in its canonical orientation, for the supply table."""
    name = f"{COLOUR_NAMES.get(colour, colour)} {SHAPE_NAMES[shape_letter]} ({shape_letter})"
    return tile_icon_svg(canonical_mask(shape_letter), colour, size=size, label=name)


def knot_strand_colours(knots: Iterable[Knot]) -> dict[StrandKey, str]:
    """Each strand on a closed knot, with the highlight colour of its knot."""
    colours: dict[StrandKey, str] = {}
    for number, knot in enumerate(knots):
        colour = KNOT_COLOURS[number % len(KNOT_COLOURS)]
        for step in knot.steps:
            colours[(str(step.cell), frozenset((str(step.entry), str(step.exit))))] = colour
    return colours


@dataclass(frozen=True)
class View:
    """The part of the reference grid drawn: ``files`` x ``ranks`` cells from (file, rank)."""

    file: int
    rank: int
    files: int
    ranks: int

    @property
    def width(self) -> int:
        return LABEL_SPACE + self.files * TILE + PAD

    @property
    def height(self) -> int:
        return PAD + self.ranks * TILE + LABEL_SPACE

    def origin(self, cell: Cell) -> tuple[int, int]:
        """Top-left corner of ``cell`` (north is up)."""
        top_rank = self.rank + self.ranks - 1
        return LABEL_SPACE + (cell.file - self.file) * TILE, PAD + (top_rank - cell.rank) * TILE

    def cells(self) -> list[Cell]:
        return [
            Cell(f, r)
            for r in range(self.rank + self.ranks - 1, self.rank - 1, -1)
            for f in range(self.file, self.file + self.files)
        ]


def view_around(cells: Collection[Cell]) -> View:
    """A window of at least 5x5 cells around ``cells``, kept on the 9x9 grid."""
    cells = cells or [Cell(4, 4)]

    def span(values: list[int]) -> tuple[int, int]:
        low, high = min(values), max(values)
        count = max(WINDOW_SIZE, high - low + 1)
        start = low - (count - (high - low + 1)) // 2
        start = max(0, min(start, BOARD_SIZE - count)) if count <= BOARD_SIZE else low
        return start, count

    file, files = span([c.file for c in cells])
    rank, ranks = span([c.rank for c in cells])
    return View(file, rank, files, ranks)


def board_svg(
    *,
    tiles: Sequence[Mapping[str, str]],
    demand_cells: Sequence[str] = (),
    playable_cells: Collection[str] = (),
    knot_colours: Mapping[StrandKey, str] | None = None,
    last_cell: str | None = None,
    title: str = "The design",
    dom_id: str = "board",
) -> str:
    """The whole board: the window around the design, its tiles, demand cells and labels.

    ``tiles`` are dicts with ``cell``, ``sides`` and ``colour`` (as in
    ``games.kinds.celtic.kind.position_data``); ``knot_colours`` maps strands on closed
    knots to their highlight colour (see ``knot_strand_colours``). ``dom_id`` prefixes the
    ids of the title and description, so several boards can share a page.
    """
    placed = {Cell.parse(t["cell"]): t for t in tiles}
    demand = [Cell.parse(c) for c in demand_cells]
    view = view_around([*placed, *demand])
    description = f"{len(placed)} tiles placed; demand cells: {', '.join(demand_cells) or 'none'}."
    return "".join(
        [
            f'<svg class="board" viewBox="0 0 {view.width} {view.height}" '
            # A board with playable cells holds buttons: a group, since an image has no controls.
            f'xmlns="http://www.w3.org/2000/svg" role="{"group" if playable_cells else "img"}" '
            f'aria-labelledby="{dom_id}-title {dom_id}-desc">',
            f'<title id="{dom_id}-title">{escape(title)}</title>',
            f'<desc id="{dom_id}-desc">{escape(description)}</desc>',
            _grid(view),
            _labels(view),
            *_placed_tiles(view, placed, knot_colours or {}, last_cell),
            *(_demand_cell(view, cell, playable=str(cell) in playable_cells) for cell in demand),
            "</svg>",
        ]
    )


def _grid(view: View) -> str:
    """The empty squares of the window."""
    parts = ['<g class="grid">']
    for cell in view.cells():
        x, y = view.origin(cell)
        parts.append(
            f'<rect class="empty" x="{x}" y="{y}" width="{TILE}" height="{TILE}" '
            f'fill="#fcfbf7" stroke="#ebe5d8" stroke-width="1"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def _placed_tiles(
    view: View,
    placed: Mapping[Cell, Mapping[str, str]],
    knot_colours: Mapping[StrandKey, str],
    last_cell: str | None,
) -> list[str]:
    """Each tile, its strands on closed knots highlighted, then the mark of the last one."""
    parts = []
    for cell, tile in placed.items():
        x, y = view.origin(cell)
        name = str(cell)
        colours = {ends: colour for (c, ends), colour in knot_colours.items() if c == name}
        parts.append(
            tile_group(
                mask=mask_of(tile["sides"]),
                colour=tile["colour"],
                x=x,
                y=y,
                cell=name,
                knot_colours=colours,
                extra_class="last-move" if name == last_cell else "",
            )
        )
    if last_cell and Cell.parse(last_cell) in placed:
        x, y = view.origin(Cell.parse(last_cell))
        parts.append(
            f'<rect class="last-move-mark" x="{x + 3}" y="{y + 3}" width="{TILE - 6}" '
            f'height="{TILE - 6}" fill="none" stroke="#ffd23f" stroke-width="4" rx="3">'
            f"<title>{escape(last_cell)}: the last tile placed</title></rect>"
        )
    return parts


def _demand_cell(view: View, cell: Cell, *, playable: bool) -> str:
    """A demand cell: a button to choose a tile for it when the viewer may play there."""
    x, y = view.origin(cell)
    name = str(cell)
    attrs = f' tabindex="0" role="button" aria-label="Play a tile on {name}"' if playable else ""
    verb = "click to choose a tile" if playable else "an open side points here"
    return (
        f'<rect class="demand{" playable" if playable else ""}" data-cell="{name}"{attrs} '
        f'x="{x + 8}" y="{y + 8}" width="{TILE - 16}" height="{TILE - 16}" rx="8" '
        f'fill="#ffffff00" stroke="#8a8377" stroke-width="2.5" stroke-dasharray="9 6">'
        f"<title>{name}: demand cell, {verb}</title></rect>"
    )


def _labels(view: View) -> str:
    parts = ['<g class="labels" font-size="15" fill="#8a8377" text-anchor="middle">']
    for i in range(view.files):
        x = LABEL_SPACE + i * TILE + TILE / 2
        parts.append(f'<text x="{_n(x)}" y="{view.height - 8}">{FILES[view.file + i]}</text>')
    for i in range(view.ranks):
        rank = view.rank + view.ranks - 1 - i
        y = PAD + i * TILE + TILE / 2 + 5
        parts.append(f'<text x="{LABEL_SPACE / 2}" y="{_n(y)}">{rank + 1}</text>')
    parts.append("</g>")
    return "".join(parts)


def _n(value: float) -> str:
    """A coordinate with at most one decimal."""
    return f"{round(value, 1):g}"
