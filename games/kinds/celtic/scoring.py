"""Scoring: follow the strands from tile to tile, find the knots, compare the score lists.

A *knot* is a closed path. Its score for a player is the number of distinct tiles of that
player's colour it passes through (a tile visited twice counts once; neutral tiles count for
nobody). Each player's knot scores are sorted from highest to lowest and the two lists are
compared position by position; the first difference decides. Every knot gives one score to
each player (possibly 0), so the two lists always have the same length; comparing lists of
different lengths as if the shorter were padded with zeros would give the same answer.

Paths with an open end (``OpenPath``) score nothing; they are reported for display.
These functions take any collection of tiles, so puzzles and tests can score layouts that
did not come from a game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, NamedTuple

from games.kinds.celtic.board import CELL_OF, STEP, Cell, Tile, cell_index
from games.kinds.celtic.tiles import ORIENTATIONS, PLAYERS, Colour, End, Side


class Step(NamedTuple):
    """A path passing through one tile: in at ``entry``, along a strand, out at ``exit``."""

    cell: Cell
    entry: End
    exit: End


def _distinct_cells(steps: tuple[Step, ...]) -> tuple[Cell, ...]:
    return tuple(dict.fromkeys(step.cell for step in steps))


@dataclass(frozen=True)
class Knot:
    """A closed path; ``steps`` go once around it from its first tile in canonical order."""

    steps: tuple[Step, ...]
    orange: int
    blue: int

    @property
    def cells(self) -> tuple[Cell, ...]:
        """The tiles it visits, each once, in the order of the walk."""
        return _distinct_cells(self.steps)

    def score(self, player: Colour) -> int:
        """Distinct tiles of ``player``'s colour on this knot."""
        if player is Colour.ORANGE:
            return self.orange
        if player is Colour.BLUE:
            return self.blue
        raise ValueError("only Orange and Blue score")


@dataclass(frozen=True)
class OpenPath:
    """A path with two open ends: ``start`` and ``end`` are (cell, end) where it leaves the
    design (into an empty cell, or against a closed side in a layout that is not legal)."""

    steps: tuple[Step, ...]
    start: tuple[Cell, End]
    end: tuple[Cell, End]

    @property
    def cells(self) -> tuple[Cell, ...]:
        return _distinct_cells(self.steps)


@dataclass(frozen=True)
class Score:
    """Each player's knot scores, highest first."""

    orange: tuple[int, ...]
    blue: tuple[int, ...]

    def of(self, player: Colour) -> tuple[int, ...]:
        if player is Colour.ORANGE:
            return self.orange
        if player is Colour.BLUE:
            return self.blue
        raise ValueError("only Orange and Blue score")

    @property
    def winner(self) -> Colour | None:
        """The first position where the lists differ decides; None for a draw."""
        length = max(len(self.orange), len(self.blue))
        orange = self.orange + (0,) * (length - len(self.orange))
        blue = self.blue + (0,) * (length - len(self.blue))
        if orange == blue:
            return None
        return Colour.ORANGE if orange > blue else Colour.BLUE


RESULT_TEXTS: Final = {Colour.ORANGE: "1-0", Colour.BLUE: "0-1", None: "1/2-1/2"}


@dataclass(frozen=True)
class Result:
    """The scoring of a position. ``over`` says whether the game has ended; before that the
    result describes who would win if it ended now."""

    knots: tuple[Knot, ...]
    open_paths: tuple[OpenPath, ...]
    score: Score
    over: bool

    @property
    def winner(self) -> Colour | None:
        return self.score.winner

    @property
    def text(self) -> str:
        """``"1-0"`` (Orange wins), ``"0-1"`` (Blue wins) or ``"1/2-1/2"``."""
        return RESULT_TEXTS[self.score.winner]


# Path ends as codes 0..7 (side * 2 + number) and cells as the engine's grid indices.
_ENDS: Final = tuple(End(Side(code >> 1), code & 1) for code in range(8))
_PARTNER: Final = tuple(_ENDS.index(end.partner) for end in _ENDS)
_OPPOSITE_BIT: Final = tuple(Side(code >> 1).opposite.bit for code in range(8))
_END_STEP: Final = tuple(STEP[code >> 1] for code in range(8))
_NEXT: Final = tuple(
    tuple(_ENDS.index(o.strand_from(end)) if o.is_open(end.side) else -1 for end in _ENDS)
    if (o := ORIENTATIONS.get(mask))
    else ()
    for mask in range(16)
)
"""``_NEXT[mask][code]``: the other end of the strand starting at end ``code``."""
_OPEN_ENDS: Final = tuple(
    tuple(code for code in range(8) if mask >> (code >> 1) & 1) for mask in range(16)
)
_STEPS: dict[int, Step] = {}


def _step(index: int, entry: int, exit_: int) -> Step:
    key = index << 6 | entry << 3 | exit_
    step = _STEPS.get(key)
    if step is None:
        cell = CELL_OF[index]
        assert cell is not None
        step = _STEPS[key] = Step(cell, _ENDS[entry], _ENDS[exit_])
    return step


def trace_paths(tiles: Iterable[Tile]) -> tuple[tuple[Knot, ...], tuple[OpenPath, ...]]:
    """Split every strand of a layout of tiles (on a1..i9) into knots and open paths."""
    masks: dict[int, int] = {}
    colours: dict[int, Colour] = {}
    for tile in tiles:
        if not tile.cell.on_board:
            raise ValueError(f"tile {tile} is off the board a1..i9")
        index = cell_index(tile.cell)
        masks[index] = tile.orientation.mask
        colours[index] = tile.colour
    return trace_grid(masks, colours)


def trace_grid(
    masks: dict[int, int], colours: dict[int, Colour]
) -> tuple[tuple[Knot, ...], tuple[OpenPath, ...]]:
    """``trace_paths`` on the engine's grid indices (see ``board``)."""
    order = sorted(masks)
    seen: set[int] = set()

    def leads_out(index: int, code: int) -> bool:
        return not masks.get(index + _END_STEP[code], 0) & _OPPOSITE_BIT[code]

    def walk(index: int, code: int) -> tuple[tuple[Step, ...], bool]:
        """Follow the path in at end ``code`` of tile ``index``; answer its steps and whether
        it closed."""
        steps: list[Step] = []
        start = index << 3 | code
        while True:
            exit_ = _NEXT[masks[index]][code]
            steps.append(_step(index, code, exit_))
            seen.add(index << 3 | code)
            seen.add(index << 3 | exit_)
            if leads_out(index, exit_):
                return tuple(steps), False
            index += _END_STEP[exit_]
            code = _PARTNER[exit_]
            if index << 3 | code == start:
                return tuple(steps), True

    open_paths: list[OpenPath] = []
    for index in order:
        for code in _OPEN_ENDS[masks[index]]:
            if index << 3 | code not in seen and leads_out(index, code):
                steps, _ = walk(index, code)
                first, last = steps[0], steps[-1]
                open_paths.append(
                    OpenPath(steps, (first.cell, first.entry), (last.cell, last.exit))
                )
    knots: list[Knot] = []
    for index in order:
        for code in _OPEN_ENDS[masks[index]]:
            if index << 3 | code not in seen:
                steps, closed = walk(index, code)
                assert closed
                visited = {cell_index(step.cell) for step in steps}
                counts = Counter(colours[i] for i in visited)
                knots.append(Knot(steps, counts[Colour.ORANGE], counts[Colour.BLUE]))
    return tuple(knots), tuple(open_paths)


def score_of(knots: Iterable[Knot]) -> Score:
    """Each player's knot scores, sorted highest first."""
    knots = tuple(knots)
    scores = {player: sorted((k.score(player) for k in knots), reverse=True) for player in PLAYERS}
    return Score(tuple(scores[Colour.ORANGE]), tuple(scores[Colour.BLUE]))


def result_of(tiles: Iterable[Tile], *, over: bool) -> Result:
    """Score a layout of tiles."""
    knots, open_paths = trace_paths(tiles)
    return Result(knots, open_paths, score_of(knots), over)


def result_of_grid(masks: dict[int, int], colours: dict[int, Colour], *, over: bool) -> Result:
    """``result_of`` on the engine's grid indices."""
    knots, open_paths = trace_grid(masks, colours)
    return Result(knots, open_paths, score_of(knots), over)
