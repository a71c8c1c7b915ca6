"""The Celtic Knot board: one map, and every table the engine needs, computed from it at import.

``MAP`` is the board of KNOT-RULES.md, rank 9 on top, one symbol per square (the legend is in
``PATH_SYMBOLS`` and docs/KNOT.md). The strand is not written down separately: it is walked on
the map from a1 heading north, going straight on at crossings and at the diamond and turning
where the path turns; at crossings over and under alternate, the first one (c3) passed over.

Spaces are numbered 0..62 in the order of their names (file, rank, upper before lower), so
sorting numbers sorts names. A coin never rests on the diamond ``EXIT``.
"""

from __future__ import annotations

from collections import deque
from typing import Final

from celtictext import quote
from games.kinds.base import KindError

MAP: Final = """
     a b c d e f g h i
  9  . . o o o . o O O  9
  8  . . o : o : o : O  8
  7  o o + o + o + o o  7
  6  o . o : o . o : .  6
  5  o o ^ o D o ^ o o  5
  4  . . o : o : o : o  4
  3  o o + o + o + o o  3
  2  X . o . o . o . .  2
  1  X X o . o o o . .  1
     a b c d e f g h i
"""

FILES: Final = "abcdefghi"
SIZE: Final = 9
PATH_SYMBOLS: Final = "oXO+^D"
"""Path squares: plain, start marks X and O, crossing, crossing with a pit on top, diamond."""
CROSSING_SYMBOLS: Final = "+^"
MAX_COINS: Final = 6
"""Coins per player, and so the most coins a stack can flip."""
MAX_SUM: Final = 2 * MAX_COINS

Square = tuple[int, int]
"""(file 0..8, rank 0..8)."""


def _read_map(text: str) -> dict[Square, str]:
    symbols: dict[Square, str] = {}
    for line in text.strip("\n").splitlines()[1:-1]:
        words = line.split()
        rank = int(words[0]) - 1
        for file, symbol in enumerate(words[1 : 1 + SIZE]):
            symbols[file, rank] = symbol
    return symbols


SYMBOLS: Final = _read_map(MAP)
PATH: Final = frozenset(square for square, symbol in SYMBOLS.items() if symbol in PATH_SYMBOLS)
CROSSINGS: Final = frozenset(s for s, symbol in SYMBOLS.items() if symbol in CROSSING_SYMBOLS)
PIT_SQUARES: Final = frozenset(s for s, symbol in SYMBOLS.items() if symbol == "^")
(DIAMOND,) = (s for s, symbol in SYMBOLS.items() if symbol == "D")
START_SQUARES: Final = tuple(sorted(s for s, symbol in SYMBOLS.items() if symbol in "XO"))

Space = tuple[Square, bool]
"""A square and whether it is the lower space of a crossing."""


def square_name(square: Square) -> str:
    return f"{FILES[square[0]]}{square[1] + 1}"


def _walk_strand() -> list[Space]:
    """The closed strand from a1 heading north, with each crossing's level on each pass."""
    strand: list[Space] = []
    square, step = (0, 0), (0, 1)
    strand.append((square, False))
    square = (0, 1)
    crossings_passed = 0
    while square != (0, 0):
        lower = False
        if square in CROSSINGS:
            lower = crossings_passed % 2 == 1
            crossings_passed += 1
        elif square == DIAMOND:
            crossings_passed += 1  # the diamond sits on a crossing too: over, under alternate
        strand.append((square, lower))
        step = _next_step(square, step)
        square = (square[0] + step[0], square[1] + step[1])
    return strand


def _next_step(square: Square, step: Square) -> Square:
    """Straight on at crossings and the diamond; elsewhere the one way on that is not back."""
    if square in CROSSINGS or square == DIAMOND:
        return step
    ways = [
        (df, dr)
        for df, dr in ((0, 1), (1, 0), (0, -1), (-1, 0))
        if (square[0] + df, square[1] + dr) in PATH and (df, dr) != (-step[0], -step[1])
    ]
    if len(ways) != 1:
        raise AssertionError(f"the map's path branches at {square_name(square)}: {ways}")
    return ways[0]


STRAND_SPACES: Final = _walk_strand()
LOOP_LENGTH: Final = len(STRAND_SPACES)

_ALL_SPACES = sorted(set(STRAND_SPACES), key=lambda space: (space[0], space[1]))
SPACE_COUNT: Final = len(_ALL_SPACES)
NAMES: Final = tuple(square_name(sq) + ("u" if lower else "") for sq, lower in _ALL_SPACES)
SQUARE_OF: Final = tuple(square for square, _ in _ALL_SPACES)
IS_LOWER: Final = tuple(lower for _, lower in _ALL_SPACES)
INDEX: Final = {name: index for index, name in enumerate(NAMES)}
LOOP: Final = tuple(INDEX[square_name(sq) + ("u" if lower else "")] for sq, lower in STRAND_SPACES)
"""The strand as space numbers, 64 entries; the diamond appears twice."""
EXIT: Final = INDEX[square_name(DIAMOND)]
PITS: Final = frozenset(INDEX[square_name(square)] for square in PIT_SQUARES)
BELOW: Final = {pit: INDEX[NAMES[pit] + "u"] for pit in PITS}
"""Each pit and the lower space a coin starting on it may drop to."""
START_SPACES: Final = tuple(INDEX[square_name(square)] for square in START_SQUARES)
LOOP_PLACE: Final = {space: place for place, space in enumerate(LOOP) if space != EXIT}
"""Where each space other than the diamond lies on the strand (exactly once)."""


def marker_square(space: int) -> Square:
    """Where a space's coins are put: its own square, or north-east of it for a lower space."""
    file, rank = SQUARE_OF[space]
    return (file + 1, rank + 1) if IS_LOWER[space] else (file, rank)


MARKER_NAMES: Final = {
    square_name(marker_square(space)): space for space in range(SPACE_COUNT) if IS_LOWER[space]
}


def _along(place: int, points: int) -> set[int]:
    """The spaces ``points`` along the strand from ``place``, one each way."""
    return {LOOP[(place + points) % LOOP_LENGTH], LOOP[(place - points) % LOOP_LENGTH]}


def _destinations(space: int, points: int) -> tuple[int, ...]:
    ends = _along(LOOP_PLACE[space], points)
    routes = 2
    if space in PITS:
        below = BELOW[space]
        ends |= _along(LOOP_PLACE[below], points - 1) if points > 1 else {below}
        routes += 2 if points > 1 else 1
    if len(ends) != routes:
        raise AssertionError(f"two routes of {points} from {NAMES[space]} end on one space")
    return tuple(sorted(ends))


ROUTES: Final = tuple(
    tuple(
        _destinations(space, points) if space != EXIT and points else ()
        for points in range(MAX_SUM + 1)
    )
    for space in range(SPACE_COUNT)
)
"""``ROUTES[space][points]``: the destinations of a move of exactly ``points`` from ``space``."""


def _distances_to_exit() -> tuple[int, ...]:
    """Fewest points from each space to the diamond, a pit's drop counting one point."""
    comes_from: dict[int, set[int]] = {space: set() for space in range(SPACE_COUNT)}
    for place, space in enumerate(LOOP):
        for nxt in _along(place, 1):
            comes_from[nxt].add(space)
    for pit, below in BELOW.items():
        comes_from[below].add(pit)
    distance = {EXIT: 0}
    queue = deque([EXIT])
    while queue:
        space = queue.popleft()
        for earlier in comes_from[space] - distance.keys():
            distance[earlier] = distance[space] + 1
            queue.append(earlier)
    return tuple(distance[space] for space in range(SPACE_COUNT))


DISTANCE: Final = _distances_to_exit()

SPACE_EXPECTED: Final = (
    "expected a space of the knot: a square on the path like 'd3', or a crossing's lower "
    "space like 'c3u' (or its marker square 'd4')"
)


def parse_space(text: str) -> int:
    """The space ``text`` names (any case; a lower space also by its marker square)."""
    word = text.strip().lower()
    if word in INDEX:
        return INDEX[word]
    if word in MARKER_NAMES:
        return MARKER_NAMES[word]
    raise KindError(f"{quote(text)} is not a space: {SPACE_EXPECTED}.")
