"""The two solitaire puzzles of the printed rules: fill a grid with all the tiles.

Easy: all 25 tiles in a 5x5 grid, every touching side matched (both open or both closed) and
no open side on the border. Hard: the same, and all strands form one single knot.

A *layout* is a grid of side masks (colours ignored; turned or mirrored copies count
separately). Counting uses a cell-by-cell transfer-matrix ("broken profile") dynamic
programme: the cells are filled row by row from the north-west, and the state after each cell
is the set of path ends crossing the frontier between filled and empty cells, how those ends
are joined through the filled part (a perfect matching), how many tiles of each shape are used
and how many knots have closed. A first pass over (open frontier sides, shape counts) alone
finds which partial states can still be completed, so the knot pass only keeps those.

Everything reads the topology table in ``tiles.py``; nothing here knows what a strand looks
like. With the table as it stands the easy puzzle has 96,448 layouts: by number of knots
1: 1,640 (the hard puzzle), 2: 6,880, 3: 19,168, 4: 26,632, 5: 24,688, 6: 12,856, 7: 4,024,
8: 400, 9: 160 (computed, never stored; the tests pin them).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Final

from games.kinds.celtic.tiles import (
    ORIENTATIONS,
    TILES_PER_SHAPE,
    End,
    Shape,
    Side,
    orientation,
)

SIZE: Final = 5
"""The puzzles use a 5x5 grid."""

TILES_OF_EACH_SHAPE: Final = sum(TILES_PER_SHAPE.values())
"""How many tiles of each shape the box holds (5): the puzzle uses all of them."""

FULL_QUOTA: Final[Mapping[Shape, int]] = {shape: TILES_OF_EACH_SHAPE for shape in Shape}

_SHAPES: Final = tuple(Shape)


class LayoutError(ValueError):
    """A layout that is not a puzzle solution (or not a layout at all); says why."""


@dataclass(frozen=True)
class Layout:
    """A rectangular grid of tiles, each given by its side mask; ``rows[0]`` is the north."""

    rows: tuple[tuple[int, ...], ...]

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0]) if self.rows else 0

    def cells(self) -> Iterator[tuple[int, int, int]]:
        """Every (row, column, mask), row 0 north, column 0 west; 0 for an empty cell."""
        for r, row in enumerate(self.rows):
            for c, mask in enumerate(row):
                yield r, c, mask

    def shape_counts(self) -> dict[Shape, int]:
        counts = dict.fromkeys(Shape, 0)
        for _, _, mask in self.cells():
            if mask:
                counts[orientation(mask).shape] += 1
        return counts

    def __str__(self) -> str:
        """One line per row, north first, each cell its open sides in N E S W order."""
        return "\n".join(" ".join(_cell_text(mask) for mask in row) for row in self.rows)

    @classmethod
    def parse(cls, text: str) -> Layout:
        """Read the form written by ``str()`` (``-`` or ``.`` for an empty cell)."""
        rows = []
        for line in text.strip().splitlines():
            rows.append(tuple(_parse_cell(word) for word in line.split()))
        if not rows or any(len(row) != len(rows[0]) for row in rows):
            raise LayoutError("expected a rectangle of cells, one line per row")
        return cls(tuple(rows))


def _cell_text(mask: int) -> str:
    return orientation(mask).sides_text if mask else "-"


def _parse_cell(word: str) -> int:
    if word in ("-", "."):
        return 0
    mask = 0
    for letter in word.upper():
        if letter not in Side.__members__ or mask & Side[letter].bit:
            raise LayoutError(f"bad cell {word!r}: expected open sides such as NE or NESW")
        mask |= Side[letter].bit
    return mask


@dataclass(frozen=True)
class PuzzleCount:
    """How many layouts solve a puzzle, in all and by their number of knots."""

    total: int
    by_knots: Mapping[int, int] = field(default_factory=dict)

    def to_json_dict(self) -> dict[str, object]:
        return {"total": self.total, "by_knots": {str(k): n for k, n in self.by_knots.items()}}


# --- checking a layout by following its strands --------------------------------------------


def count_knots(layout: Layout) -> int:
    """The number of closed paths in a layout whose open sides are all matched.

    Follows every strand from tile to tile; an end that leads off the grid or into an empty
    cell raises LayoutError.
    """
    seen: set[tuple[int, int, End]] = set()
    knots = 0
    for r, c, mask in layout.cells():
        if not mask:
            continue
        for start_strand in ORIENTATIONS[mask].strands:
            start = (r, c, start_strand[0])
            if start in seen:
                continue
            knots += 1
            node = start
            while node not in seen:
                seen.add(node)
                nr, nc, end = node
                other = ORIENTATIONS[layout.rows[nr][nc]].strand_from(end)
                seen.add((nr, nc, other))
                node = _across(layout, nr, nc, other)
    return knots


def _across(layout: Layout, r: int, c: int, end: End) -> tuple[int, int, End]:
    """The end that ``end`` of the tile at (r, c) meets in the neighbouring tile."""
    file_step, rank_step = end.side.offset
    nr, nc = r - rank_step, c + file_step
    if not (0 <= nr < layout.height and 0 <= nc < layout.width) or not layout.rows[nr][nc]:
        raise LayoutError(
            f"the open {end.side.name} side of row {r + 1}, column {c + 1} leads nowhere"
        )
    partner = end.partner
    if not ORIENTATIONS[layout.rows[nr][nc]].is_open(partner.side):
        raise LayoutError(
            f"the open {end.side.name} side of row {r + 1}, column {c + 1} is blocked"
        )
    return nr, nc, partner


def _where(r: int, c: int) -> str:
    return f"row {r + 1}, column {c + 1}"


def check_layout(
    layout: Layout,
    *,
    single_knot: bool = False,
    quota: Mapping[Shape, int] | None = FULL_QUOTA,
) -> int:
    """Check that a layout solves the puzzle and return its number of knots.

    The grid must be full, every touching pair of sides matched, no open side on the border,
    the shape counts equal to ``quota`` (None: any) and, with ``single_knot``, exactly one knot.
    Raises LayoutError naming the first problem.
    """
    if layout.height == 0 or any(len(row) != layout.width for row in layout.rows):
        raise LayoutError("a layout is a non-empty rectangle of cells")
    for r, c, mask in layout.cells():
        if mask not in ORIENTATIONS:
            raise LayoutError(f"row {r + 1}, column {c + 1} holds no tile")
        for side in Side:
            file_step, rank_step = side.offset
            nr, nc = r - rank_step, c + file_step
            inside = 0 <= nr < layout.height and 0 <= nc < layout.width
            is_open = bool(mask & side.bit)
            if not inside:
                if is_open:
                    raise LayoutError(f"row {r + 1}, column {c + 1} is open on the border")
            elif is_open != bool(layout.rows[nr][nc] & side.opposite.bit):
                raise LayoutError(
                    f"row {r + 1}, column {c + 1} and its {side.name} neighbour do not match"
                )
    if quota is not None:
        counts = layout.shape_counts()
        for shape in Shape:
            if counts[shape] != quota.get(shape, 0):
                raise LayoutError(
                    f"{counts[shape]} tiles of shape {shape.letter}, expected {quota.get(shape, 0)}"
                )
    knots = count_knots(layout)
    if single_knot and knots != 1:
        raise LayoutError(f"the strands form {knots} knots, not one")
    return knots


_NAMES: Final = {Side.N: "north", Side.E: "east", Side.S: "south", Side.W: "west"}


def check_partial_layout(layout: Layout, *, quota: Mapping[Shape, int] = FULL_QUOTA) -> None:
    """Check a grid being filled in, where ``0`` marks an empty cell.

    Every placed tile must have no open side on the border, match each placed neighbour, and
    no shape may be used more often than ``quota`` allows. Raises LayoutError naming the first
    problem, so a player hears about a wrong tile as soon as it is placed.
    """
    if layout.height != SIZE or any(len(row) != SIZE for row in layout.rows):
        raise LayoutError(f"a puzzle grid has {SIZE} rows of {SIZE} cells")
    for r, c, mask in layout.cells():
        if not mask:
            continue
        if mask not in ORIENTATIONS:
            raise LayoutError(f"{_where(r, c)} holds no tile")
        for side in Side:
            file_step, rank_step = side.offset
            nr, nc = r - rank_step, c + file_step
            is_open = bool(mask & side.bit)
            if not (0 <= nr < SIZE and 0 <= nc < SIZE):
                if is_open:
                    raise LayoutError(f"{_where(r, c)} is open on the border ({_NAMES[side]})")
                continue
            neighbour = layout.rows[nr][nc]
            if neighbour and is_open != bool(neighbour & side.opposite.bit):
                state = "open" if is_open else "closed"
                raise LayoutError(
                    f"{_where(r, c)} is {state} to the {_NAMES[side]} but {_where(nr, nc)} is not"
                )
    for shape, used in layout.shape_counts().items():
        if used > quota.get(shape, 0):
            raise LayoutError(
                f"{used} tiles of shape {shape.letter} ({shape.name.lower()}): the box holds "
                f"{quota.get(shape, 0)}"
            )


# --- the transfer-matrix programme ------------------------------------------------------------

Matching = tuple[int, ...]
"""Frontier slots (two per column, then two for the side west of the next cell): each slot's
partner slot through the filled part, or -1 where no path end crosses."""


@dataclass(frozen=True)
class _Choice:
    """One tile that may go into a cell, given whether its north and west sides are open.

    ``add`` is what placing it adds to a frontier key (its shape count and its open south and
    east sides), once the cell's own north and west bits are cleared.
    """

    mask: int
    shape_index: int
    add: int


class _Board:
    """The fixed data of one puzzle: grid size, shape quota and the frontier geometry.

    A *frontier key* packs the open frontier sides (one bit per column, then one for the side
    west of the next cell) in its low ``width + 1`` bits and the shape counts above them, in
    mixed radix (digit ``i`` counts shape ``i``, up to its quota).
    """

    def __init__(self, height: int, width: int, quota: Mapping[Shape, int] | None) -> None:
        if height < 1 or width < 1:
            raise ValueError("a puzzle board needs at least one row and one column")
        self.height = height
        self.width = width
        self.west_slot = 2 * width
        self.west_bit = 1 << width
        self.shift = width + 1
        limits = [quota.get(shape, 0) for shape in _SHAPES] if quota is not None else None
        self.weights = [_radix(limits, i) for i in range(len(_SHAPES))] if limits else [0] * 5
        self.full_counts = sum(w * n for w, n in zip(self.weights, limits or [], strict=False))
        codes = _radix(limits, len(_SHAPES)) if limits else 1
        self.room: list[bytes] = [
            bytes(
                limits is None or (code // self.weights[i]) % (limits[i] + 1) < limits[i]
                for code in range(codes)
            )
            for i in range(len(_SHAPES))
        ]
        """For each shape, whether a counts code has room for one more tile of it."""
        self._steps: dict[tuple[int, Matching, int], tuple[Matching, int, int]] = {}

    def bump(self, counts: int, shape_index: int) -> int:
        """The shape counts after one more tile of a shape, or -1 when over the quota."""
        if self.room[shape_index][counts]:
            return counts + self.weights[shape_index]
        return -1

    @cached_property
    def choices(self) -> dict[tuple[int, int, int], tuple[_Choice, ...]]:
        """The tiles allowed in each cell, keyed by (cell, north open, west open) as 0 or 1."""
        table: dict[tuple[int, int, int], tuple[_Choice, ...]] = {}
        for cell in range(self.height * self.width):
            r, c = divmod(cell, self.width)
            for north in (0, 1):
                for west in (0, 1):
                    found = []
                    for mask, o in ORIENTATIONS.items():
                        south = mask & Side.S.bit
                        east = mask & Side.E.bit
                        if (
                            bool(mask & Side.N.bit) != bool(north)
                            or bool(mask & Side.W.bit) != bool(west)
                            or (south and r == self.height - 1)
                            or (east and c == self.width - 1)
                        ):
                            continue
                        shape = _SHAPES.index(o.shape)
                        add = self.weights[shape] << self.shift
                        add |= (1 << c if south else 0) | (self.west_bit if east else 0)
                        found.append(_Choice(mask, shape, add))
                    table[cell, north, west] = tuple(found)
        return table

    def slot(self, column: int, end: End) -> int:
        """The frontier slot of an end on the north or west side of the cell in ``column``."""
        if end.side is Side.N:
            return 2 * column + end.index
        if end.side is Side.W:
            return self.west_slot + end.index
        # An end leaving south or east: the slot of the end it meets in the next cell.
        return self.slot(column, end.partner)

    def step(self, column: int, matching: Matching, mask: int) -> tuple[Matching, int, int]:
        """Place a tile in ``column`` of the frontier.

        Returns the new matching, the number of knots it closes and the new open-side profile.
        """
        key = (column, matching, mask)
        cached = self._steps.get(key)
        if cached is None:
            new, knots = self._compute_step(column, matching, mask)
            cached = self._steps[key] = (new, knots, self.profile(new))
        return cached

    def _compute_step(self, column: int, matching: Matching, mask: int) -> tuple[Matching, int]:
        tile = ORIENTATIONS[mask]
        # A small graph whose nodes are old slots (ints) and the tile's ends (End).
        links: dict[int | End, list[int | End]] = {}

        def link(a: int | End, b: int | End) -> None:
            links.setdefault(a, []).append(b)
            links.setdefault(b, []).append(a)

        for slot, partner in enumerate(matching):
            if slot < partner:
                link(slot, partner)
        for a, b in tile.strands:
            link(a, b)
        consumed = set()
        for side in (Side.N, Side.W):
            if tile.is_open(side):
                for index in (0, 1):
                    end = End(side, index)
                    consumed.add(self.slot(column, end))
                    link(end, self.slot(column, end))
        # Path ends on the new frontier: untouched old slots and the tile's south/east ends.
        new_slots: dict[int | End, int] = {
            slot: slot for slot, p in enumerate(matching) if p >= 0 and slot not in consumed
        }
        for side in (Side.S, Side.E):
            if tile.is_open(side):
                for index in (0, 1):
                    new_slots[End(side, index)] = self.slot(column, End(side, index))
        new = [-1] * len(matching)
        seen: set[int | End] = set()
        for start, slot in new_slots.items():
            if start in seen:
                continue
            previous, node = start, start
            seen.add(node)
            node = links[node][0]
            while node not in new_slots:
                seen.add(node)
                first, second = links[node]
                previous, node = node, (second if first == previous else first)
            seen.add(node)
            new[slot], new[new_slots[node]] = new_slots[node], slot
        knots = 0
        for node in links:
            if node in seen:
                continue
            knots += 1
            stack = [node]
            while stack:
                current = stack.pop()
                if current not in seen:
                    seen.add(current)
                    stack.extend(links[current])
        return tuple(new), knots

    def profile(self, matching: Matching) -> int:
        """The open frontier sides as bits: one per column, then the west side of the next cell."""
        bits = 0
        for column in range(self.width + 1):
            if matching[2 * column] >= 0:
                bits |= 1 << column
        return bits

    @cached_property
    def completable(self) -> list[set[int]]:
        """For each number of filled cells, the frontier keys from which the grid can be filled.

        Turning the grid half round maps the cells still to fill onto the first cells of the
        fill order, so a partial state can be finished exactly when its turned complement
        (frontier mirrored, the shapes still to place) is reachable from the start. One
        forward pass therefore answers both directions.
        """
        cells = self.height * self.width
        shift, west_bit, room, choices = self.shift, self.west_bit, self.room, self.choices
        layers: list[set[int]] = [{0}]
        for cell in range(cells):
            column = cell % self.width
            clear = ~((1 << column) | west_bit)
            reached: set[int] = set()
            for key in layers[-1]:
                counts = key >> shift
                base = key & clear
                for choice in choices[cell, key >> column & 1, 1 if key & west_bit else 0]:
                    if room[choice.shape_index][counts]:
                        reached.add(base + choice.add)
            layers.append(reached)
        turned = [self._turned(profile) for profile in range(1 << shift)]
        low = (1 << shift) - 1
        full = self.full_counts
        return [
            {
                key
                for key in layer
                if (full - (key >> shift)) << shift | turned[key & low] in layers[cells - k]
            }
            for k, layer in enumerate(layers)
        ]

    def _turned(self, profile: int) -> int:
        """The frontier profile of the grid turned half round: columns mirrored."""
        bits = profile & self.west_bit
        for column in range(self.width):
            if profile >> column & 1:
                bits |= 1 << (self.width - 1 - column)
        return bits


def _radix(limits: list[int], index: int) -> int:
    weight = 1
    for limit in limits[:index]:
        weight *= limit + 1
    return weight


def _board(height: int, width: int, quota: Mapping[Shape, int] | None) -> _Board:
    """The board for these parameters, kept so that its tables are computed once."""
    key = (height, width, None if quota is None else tuple(quota.get(s, 0) for s in _SHAPES))
    board = _BOARDS.get(key)
    if board is None:
        board = _BOARDS[key] = _Board(height, width, quota)
    return board


_BOARDS: dict[tuple[int, int, tuple[int, ...] | None], _Board] = {}


def count_layouts(
    height: int = SIZE, width: int = SIZE, quota: Mapping[Shape, int] | None = FULL_QUOTA
) -> PuzzleCount:
    """Count the full layouts of a grid (all sides matched, none open on the border).

    ``quota`` fixes how many tiles of each shape are used (None: any number). The result is
    grouped by the number of knots.
    """
    board = _board(height, width, quota)
    good = board.completable
    empty: Matching = (-1,) * (2 * width + 2)
    # (matching, shape counts, knots so far) -> number of partial layouts
    states: dict[tuple[Matching, int, int], int] = {(empty, 0, 0): 1}
    for cell in range(height * width):
        column = cell % width
        allowed = good[cell + 1]
        nxt: dict[tuple[Matching, int, int], int] = {}
        for (matching, counts, knots), ways in states.items():
            north = 1 if matching[2 * column] >= 0 else 0
            west = 1 if matching[board.west_slot] >= 0 else 0
            for choice in board.choices[cell, north, west]:
                bumped = board.bump(counts, choice.shape_index)
                if bumped < 0:
                    continue
                new_matching, closed, profile = board.step(column, matching, choice.mask)
                if bumped << board.shift | profile not in allowed:
                    continue
                key = (new_matching, bumped, knots + closed)
                nxt[key] = nxt.get(key, 0) + ways
        states = nxt
    by_knots: dict[int, int] = {}
    for (_, _, knots), ways in states.items():
        by_knots[knots] = by_knots.get(knots, 0) + ways
    return PuzzleCount(sum(by_knots.values()), dict(sorted(by_knots.items())))


def find_layout(
    height: int = SIZE,
    width: int = SIZE,
    quota: Mapping[Shape, int] | None = FULL_QUOTA,
    *,
    single_knot: bool = False,
    rng: random.Random | None = None,
) -> Layout | None:
    """One full layout (with ``single_knot``: one whose strands form a single knot), or None.

    A depth-first search over the cells in the same order as the count, pruned by the states
    that can still be completed and, for a single knot, by any knot closing early. ``rng``
    shuffles the choices to find different layouts; without it the search is deterministic.
    """
    board = _board(height, width, quota)
    good = board.completable
    cells = height * width
    masks: list[int] = []

    def search(cell: int, matching: Matching, counts: int, knots: int) -> bool:
        if cell == cells:
            return not single_knot or knots == 1
        column = cell % width
        north = 1 if matching[2 * column] >= 0 else 0
        west = 1 if matching[board.west_slot] >= 0 else 0
        choices = list(board.choices[cell, north, west])
        if rng is not None:
            rng.shuffle(choices)
        for choice in choices:
            bumped = board.bump(counts, choice.shape_index)
            if bumped < 0:
                continue
            new_matching, closed, profile = board.step(column, matching, choice.mask)
            if bumped << board.shift | profile not in good[cell + 1]:
                continue
            if single_knot and closed and (cell != cells - 1 or knots + closed != 1):
                continue
            masks.append(choice.mask)
            if search(cell + 1, new_matching, bumped, knots + closed):
                return True
            masks.pop()
        return False

    if not search(0, (-1,) * (2 * width + 2), 0, 0):
        return None
    return Layout(tuple(tuple(masks[r * width : (r + 1) * width]) for r in range(height)))


def find_easy(rng: random.Random | None = None) -> Layout:
    """A solution of the easy puzzle, checked by following its strands."""
    layout = find_layout(rng=rng)
    if layout is None:  # pragma: no cover - the topology table guarantees solutions
        raise LayoutError("the easy puzzle has no solution with this topology")
    check_layout(layout)
    return layout


def find_hard(rng: random.Random | None = None) -> Layout:
    """A solution of the hard puzzle (one single knot), checked by following its strands."""
    layout = find_layout(single_knot=True, rng=rng)
    if layout is None:  # pragma: no cover - the topology table guarantees solutions
        raise LayoutError("the hard puzzle has no solution with this topology")
    check_layout(layout, single_knot=True)
    return layout


def count_easy() -> PuzzleCount:
    """Count every solution of the easy puzzle, grouped by number of knots."""
    return count_layouts()


def count_hard() -> PuzzleCount:
    """Count the solutions of the hard puzzle: the easy ones that form a single knot."""
    single = count_easy().by_knots.get(1, 0)
    return PuzzleCount(single, {1: single} if single else {})


def clear_caches() -> None:
    """Forget the tables computed so far (for benchmarks that time a cold start)."""
    _BOARDS.clear()
