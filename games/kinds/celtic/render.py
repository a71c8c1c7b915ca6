"""Draw a position or a puzzle layout in the terminal, one small block per tile.

Each cell is 7 characters wide and 3 high inside a light grid. A tile draws its open sides as
double lines ("arms") from the centre to the cell's edge, so that the arms of neighbouring
tiles join across the grid and a path can be followed by eye; the centre glyph shows the
shape (╬ cross, ╦ tee, ═ straight, ╚ bend, ╨ cap, turned as the tile is). The top-left
corner holds the colour letter (``o`` Orange, ``b`` Blue, ``n`` neutral), the top-right a
``*`` on the last tile played. An empty cell that an open side points at (a demand cell)
shows a ``·``. Files run along the top and bottom, ranks down both sides, north at the top.

Only the 5x5 window around the design is drawn (larger if a layout is larger). ``ascii=True``
draws with plain ASCII for terminals without box-drawing characters, ``colour=True`` adds ANSI
colours for the tile backgrounds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from games.kinds.celtic.board import BOARD_SIZE, FILES, WINDOW_SIZE, Cell, Tile
from games.kinds.celtic.notation import Forfeit, Move
from games.kinds.celtic.puzzles import Layout
from games.kinds.celtic.scoring import Result
from games.kinds.celtic.state import GameState
from games.kinds.celtic.tiles import PLAYERS, Colour, Side

CELL_WIDTH: Final = 7
CELL_HEIGHT: Final = 3

RANK_LABELS: Final = tuple(str(rank + 1) for rank in range(BOARD_SIZE))

COLOUR_LETTERS: Final = {Colour.ORANGE: "o", Colour.BLUE: "b", Colour.NEUTRAL: "n"}

_ANSI: Final = {
    Colour.ORANGE: "\x1b[38;5;208m",
    Colour.BLUE: "\x1b[38;5;39m",
    Colour.NEUTRAL: "\x1b[1m",
}
_ANSI_RESET: Final = "\x1b[0m"


@dataclass(frozen=True)
class Glyphs:
    """The characters one drawing style uses."""

    horizontal_arm: str
    vertical_arm: str
    centres: Mapping[int, str]
    """Centre glyph by side mask."""
    grid_horizontal: str
    grid_vertical: str
    corners: str
    """Nine corner glyphs: top-left, top, top-right, left, middle, right, bottom-left, ..."""
    demand: str


UNICODE: Final = Glyphs(
    horizontal_arm="═",
    vertical_arm="║",
    centres={
        15: "╬",
        14: "╦",
        13: "╣",
        11: "╩",
        7: "╠",
        10: "═",
        5: "║",
        3: "╚",
        6: "╔",
        12: "╗",
        9: "╝",
        1: "╨",
        2: "╞",
        4: "╥",
        8: "╡",
    },
    grid_horizontal="─",
    grid_vertical="│",
    corners="┌┬┐├┼┤└┴┘",
    demand="·",
)

ASCII: Final = Glyphs(
    horizontal_arm="=",
    vertical_arm="H",
    centres={mask: "#" for mask in range(1, 16)},
    grid_horizontal="-",
    grid_vertical=":",
    corners="+++++++++",
    demand=".",
)


@dataclass(frozen=True)
class Window:
    """The part of the 9x9 grid that is drawn: ``files`` x ``ranks`` cells from (file, rank)."""

    file: int
    rank: int
    files: int = WINDOW_SIZE
    ranks: int = WINDOW_SIZE


def window_around(cells: Iterable[Cell], size: int = WINDOW_SIZE) -> Window:
    """The ``size`` x ``size`` window (or larger, if needed) that centres the given cells.

    It stays inside the 9x9 grid when it can; with no cells it centres the start cell.
    """
    cells = list(cells) or [Cell(BOARD_SIZE // 2, BOARD_SIZE // 2)]

    def span(low: int, high: int) -> tuple[int, int]:
        length = max(size, high - low + 1)
        start = low - (length - (high - low + 1)) // 2
        start = min(max(start, 0), max(BOARD_SIZE - length, 0))
        return max(min(start, low), high - length + 1), length

    file, files = span(min(c.file for c in cells), max(c.file for c in cells))
    rank, ranks = span(min(c.rank for c in cells), max(c.rank for c in cells))
    return Window(file, rank, files, ranks)


@dataclass(frozen=True)
class _Square:
    """What one cell shows."""

    mask: int = 0
    colour: Colour | None = None
    demand: bool = False
    highlight: bool = False


def draw(
    squares: Mapping[tuple[int, int], _Square],
    window: Window,
    *,
    file_labels: str = FILES,
    rank_labels: tuple[str, ...] = RANK_LABELS,
    ascii: bool = False,
    colour: bool = False,
) -> str:
    """Draw the squares (keyed by (file, rank), rank 0 south) inside ``window``."""
    drawing = _Drawing(
        squares=squares,
        window=window,
        file_labels=file_labels,
        rank_labels=rank_labels,
        glyphs=ASCII if ascii else UNICODE,
        colour=colour,
        label_width=max(len(rank_labels[r]) for r in _ranks(window)) if window.ranks else 1,
    )
    ranks = list(reversed(_ranks(window)))
    lines = [drawing.file_line(), drawing.rule_line(None, ranks[0])]
    for upper, lower in zip(ranks, [*ranks[1:], None], strict=True):
        lines += drawing.cell_rows(upper)
        lines.append(drawing.rule_line(upper, lower))
    lines.append(drawing.file_line())
    return "\n".join(line.rstrip() for line in lines)


@dataclass(frozen=True)
class _Drawing:
    """What every line of one drawing needs: the squares, the window, labels and style."""

    squares: Mapping[tuple[int, int], _Square]
    window: Window
    file_labels: str
    rank_labels: tuple[str, ...]
    glyphs: Glyphs
    colour: bool
    label_width: int

    @property
    def files(self) -> range:
        return range(self.window.file, self.window.file + self.window.files)

    def square(self, file: int, rank: int) -> _Square:
        return self.squares.get((file, rank), _Square())

    def paint(self, text: str, sq: _Square) -> str:
        if not self.colour or sq.colour is None or not text.strip():
            return text
        return f"{_ANSI[sq.colour]}{text}{_ANSI_RESET}"

    def file_line(self) -> str:
        pad = " " * (self.label_width + 1)
        labels = (self.file_labels[f].center(CELL_WIDTH + 1) for f in self.files)
        return pad + "".join(labels).rstrip()

    def rule_line(self, upper: int | None, lower: int | None) -> str:
        """The grid line between two ranks (None beyond the window's edge)."""
        glyphs = self.glyphs
        row = 0 if upper is None else (2 if lower is None else 1)
        corners = glyphs.corners[row * 3 : row * 3 + 3]
        pieces = [corners[0]]
        for i, file in enumerate(self.files):
            open_ = (upper is not None and self.square(file, upper).mask & Side.S.bit) or (
                lower is not None and self.square(file, lower).mask & Side.N.bit
            )
            middle = glyphs.vertical_arm if open_ else glyphs.grid_horizontal
            half = glyphs.grid_horizontal * (CELL_WIDTH // 2)
            pieces.append(half + middle + half)
            pieces.append(corners[2] if i == self.window.files - 1 else corners[1])
        return " " * (self.label_width + 1) + "".join(pieces)

    def cell_rows(self, rank: int) -> list[str]:
        """The text rows of one rank of cells, its label left and right of the middle one."""
        label = self.rank_labels[rank].rjust(self.label_width)
        lines = []
        for row in range(CELL_HEIGHT):
            side_label = label if row == CELL_HEIGHT // 2 else " " * self.label_width
            pieces = [side_label, " "]
            for i, file in enumerate(self.files):
                sq = self.square(file, rank)
                west_open = sq.mask & Side.W.bit or self.square(file - 1, rank).mask & Side.E.bit
                if row == CELL_HEIGHT // 2 and west_open and i > 0:
                    pieces.append(self.glyphs.horizontal_arm)
                else:
                    pieces.append(self.glyphs.grid_vertical)
                pieces.append(self.paint(_cell_row(sq, row, self.glyphs), sq))
            pieces.append(self.glyphs.grid_vertical)
            right = " " + self.rank_labels[rank] if side_label.strip() else ""
            lines.append("".join(pieces) + right)
        return lines


def _ranks(window: Window) -> list[int]:
    return list(range(window.rank, window.rank + window.ranks))


def _cell_row(sq: _Square, row: int, glyphs: Glyphs) -> str:
    """One of the three text rows inside a cell."""
    half = CELL_WIDTH // 2
    chars = [" "] * CELL_WIDTH
    mask = sq.mask
    if row == 0:
        if mask & Side.N.bit:
            chars[half] = glyphs.vertical_arm
        if sq.colour is not None:
            chars[0] = COLOUR_LETTERS[sq.colour]
        if sq.highlight:
            chars[-1] = "*"
    elif row == CELL_HEIGHT - 1:
        if mask & Side.S.bit:
            chars[half] = glyphs.vertical_arm
    elif mask:
        chars[half] = glyphs.centres[mask]
        if mask & Side.W.bit:
            chars[:half] = glyphs.horizontal_arm * half
        if mask & Side.E.bit:
            chars[half + 1 :] = glyphs.horizontal_arm * half
    elif sq.demand:
        chars[half] = glyphs.demand
    return "".join(chars)


# --- what the rest of the project calls ------------------------------------------------------


def render_tiles(
    tiles: Iterable[Tile],
    *,
    demand: Iterable[Cell] = (),
    highlight: Cell | None = None,
    ascii: bool = False,
    colour: bool = False,
) -> str:
    """Draw placed tiles (and the demand cells) in the window around them."""
    squares: dict[tuple[int, int], _Square] = {}
    for tile in tiles:
        squares[tile.cell] = _Square(tile.mask, tile.colour, highlight=tile.cell == highlight)
    for cell in demand:
        squares.setdefault(cell, _Square(demand=True))
    window = window_around(Cell(f, r) for f, r in squares)
    return draw(squares, window, ascii=ascii, colour=colour)


def last_placed(state: GameState) -> Cell | None:
    """The cell of the last tile played, if any (passes and forfeits place nothing)."""
    for turn in reversed(state.history):
        if isinstance(turn, Move):
            return turn.cell
    return None


def render_state(state: GameState, *, ascii: bool = False, colour: bool = False) -> str:
    """Draw a game position: the board, then whose turn it is and what is left to play."""
    board = render_tiles(
        state.tiles,
        demand=state.demand_cells(),
        highlight=last_placed(state),
        ascii=ascii,
        colour=colour,
    )
    return f"{board}\n{describe_state(state)}"


def describe_state(state: GameState) -> str:
    """Ply, last turn, side to move (or the result) and each supply, in a few lines."""
    lines = []
    history = state.history
    if history:
        last = history[-1]
        who = PLAYERS[(len(history) - 1) % 2].name.title()
        if isinstance(last, Move):
            what = f"played {last}"
        elif isinstance(last, Forfeit):
            what = f"forfeited {last.move} (it broke the 5x5 window)"
        else:
            what = "passed (no legal move)"
        lines.append(f"Ply {len(history)}: {who} {what}.")
    else:
        lines.append("Ply 0: the start position.")
    mover = state.to_move
    if mover is None:
        lines.append(f"Game over: {describe_result(state.result())}")
    else:
        lines.append(f"{mover.name.title()} to move ({len(state.legal_moves())} legal moves).")
    for colour in (*PLAYERS, Colour.NEUTRAL):
        supply = state.supply(colour)
        left = " ".join(f"{shape.letter}{n}" for shape, n in supply.items() if n) or "none"
        lines.append(f"Supply {colour.value}: {left}")
    return "\n".join(lines)


def describe_result(result: Result) -> str:
    """The result string with the knots and both score lists."""
    scores = result.score

    def listed(values: tuple[int, ...]) -> str:
        return "[" + ", ".join(map(str, values)) + "]"

    return (
        f"{result.text} ({len(result.knots)} knots, {len(result.open_paths)} open paths; "
        f"Orange {listed(scores.orange)}, Blue {listed(scores.blue)})"
    )


def render_layout(layout: Layout, *, ascii: bool = False) -> str:
    """Draw a puzzle layout: columns a.. from the west, rows 1.. from the south."""
    squares = {(c, layout.height - 1 - r): _Square(mask) for r, c, mask in layout.cells() if mask}
    window = Window(0, 0, layout.width, layout.height)
    return draw(squares, window, ascii=ascii)
