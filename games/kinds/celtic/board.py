"""Board geometry: cells of the 9x9 reference grid, placed tiles, and precomputed tables.

Cells are named like chess squares: files a..i from west to east, ranks 1..9 from south to
north; the start tile lies on e5. Internally the engine numbers cells on an 11x11 grid with a
one-cell margin (``index = (file + 1) * 11 + (rank + 1)``), so that stepping to a neighbour
is one addition and never falls off the list; the margin cells are never played.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from celtictext import quote
from games.kinds.celtic.errors import NotationError
from games.kinds.celtic.tiles import Colour, Orientation, Shape, Side

BOARD_SIZE: Final = 9
"""Files a..i and ranks 1..9."""

WINDOW_SIZE: Final = 5
"""Tiles and demand cells must fit this many columns and this many rows (rule 4)."""

FILES: Final = "abcdefghi"

CELL_EXPECTED: Final = "expected a cell a1-i9 (file a-i, then rank 1-9), like 'e5'"


class Cell(NamedTuple):
    """A cell of the reference grid: ``file`` 0..8 for a..i, ``rank`` 0..8 for 1..9.

    Constructing a cell does not check the range (the engine answers an off-board cell with
    ``Rule.OFF_BOARD``); ``Cell.parse`` only accepts a1..i9.
    """

    file: int
    rank: int

    def __str__(self) -> str:
        if self.on_board:
            return f"{FILES[self.file]}{self.rank + 1}"
        return f"({self.file},{self.rank})"

    def __repr__(self) -> str:
        if self.on_board:
            return f"Cell.parse({str(self)!r})"
        return f"Cell({self.file}, {self.rank})"

    @property
    def on_board(self) -> bool:
        return 0 <= self.file < BOARD_SIZE and 0 <= self.rank < BOARD_SIZE

    def neighbour(self, side: Side) -> Cell:
        """The cell across ``side`` (possibly off the board)."""
        df, dr = side.offset
        return Cell(self.file + df, self.rank + dr)

    @classmethod
    def parse(cls, text: str) -> Cell:
        """Parse ``"e5"`` (any case, surrounding spaces allowed)."""
        word = text.strip().lower()
        if (
            len(word) == 2
            and word[0] in FILES
            and word[1].isdigit()
            and 1 <= int(word[1]) <= BOARD_SIZE
        ):
            return cls(FILES.index(word[0]), int(word[1]) - 1)
        raise NotationError(f"{quote(text)} is not a cell: {CELL_EXPECTED}")


START_CELL: Final = Cell(4, 4)
"""e5, where the neutral start tile lies."""

ALL_CELLS: Final = tuple(Cell(f, r) for f in range(BOARD_SIZE) for r in range(BOARD_SIZE))
"""Every cell of the reference grid, in canonical order (a1, a2, ..., i9)."""


class Tile(NamedTuple):
    """A placed tile: where it lies, how it is turned, and its background colour."""

    cell: Cell
    orientation: Orientation
    colour: Colour

    @property
    def mask(self) -> int:
        return self.orientation.mask

    @property
    def shape(self) -> Shape:
        return self.orientation.shape

    def __str__(self) -> str:
        return f"{self.cell} {self.orientation.sides_text} {self.colour.value}"


# --- the engine's internal cell numbering ----------------------------------------------------

GRID: Final = BOARD_SIZE + 2
"""Width of the padded internal grid."""

GRID_CELLS: Final = GRID * GRID


def cell_index(cell: Cell) -> int:
    """The internal index of an on-board cell."""
    return (cell.file + 1) * GRID + cell.rank + 1


CELL_OF: Final[tuple[Cell | None, ...]] = tuple(
    Cell(i // GRID - 1, i % GRID - 1) if Cell(i // GRID - 1, i % GRID - 1).on_board else None
    for i in range(GRID_CELLS)
)
"""Internal index -> Cell (None in the margin)."""

FILE_OF: Final = tuple(i // GRID - 1 for i in range(GRID_CELLS))
RANK_OF: Final = tuple(i % GRID - 1 for i in range(GRID_CELLS))

STEP: Final = tuple(df * GRID + dr for df, dr in (side.offset for side in Side))
"""Index step to the neighbour across each side, indexed by ``Side``."""

SIDE_BITS: Final = tuple(side.bit for side in Side)
OPPOSITE_BITS: Final = tuple(side.opposite.bit for side in Side)


def _fitting(key: int) -> tuple[int, ...]:
    must_open, must_close = key & 15, key >> 4
    return tuple(
        mask for mask in range(1, 16) if mask & must_open == must_open and not mask & must_close
    )


FITTING: Final = tuple(_fitting(key) for key in range(256))
"""For ``must_open | must_close << 4``: the side masks with those sides open and closed."""
