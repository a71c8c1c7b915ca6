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

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, NamedTuple

from games.rules.board import Cell, Tile
from games.rules.tiles import PLAYERS, Colour, End


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


def trace_paths(tiles: Iterable[Tile]) -> tuple[tuple[Knot, ...], tuple[OpenPath, ...]]:
    """Split every strand of the layout into knots and open paths."""
    board = {tile.cell: tile for tile in tiles}
    order = sorted(board)
    seen: set[tuple[Cell, End]] = set()

    def leads_out(cell: Cell, end: End) -> bool:
        neighbour = board.get(cell.neighbour(end.side))
        return neighbour is None or not neighbour.orientation.is_open(end.side.opposite)

    def walk(cell: Cell, entry: End) -> tuple[tuple[Step, ...], bool]:
        """Follow the path in at ``entry``; answer its steps and whether it closed."""
        steps: list[Step] = []
        start = (cell, entry)
        while True:
            exit_ = board[cell].orientation.strand_from(entry)
            steps.append(Step(cell, entry, exit_))
            seen.add((cell, entry))
            seen.add((cell, exit_))
            if leads_out(cell, exit_):
                return tuple(steps), False
            cell, entry = cell.neighbour(exit_.side), exit_.partner
            if (cell, entry) == start:
                return tuple(steps), True

    def ends(cell: Cell) -> list[End]:
        return [End(side, i) for side in board[cell].orientation.open_sides for i in (0, 1)]

    open_paths: list[OpenPath] = []
    for cell in order:
        for end in ends(cell):
            if (cell, end) not in seen and leads_out(cell, end):
                steps, _ = walk(cell, end)
                last = steps[-1]
                open_paths.append(OpenPath(steps, (cell, end), (last.cell, last.exit)))
    knots: list[Knot] = []
    for cell in order:
        for end in ends(cell):
            if (cell, end) not in seen:
                steps, closed = walk(cell, end)
                assert closed
                colours = [board[c].colour for c in _distinct_cells(steps)]
                knots.append(Knot(steps, colours.count(Colour.ORANGE), colours.count(Colour.BLUE)))
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
