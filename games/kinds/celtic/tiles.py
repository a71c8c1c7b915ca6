"""The tile topology: the one table of shapes and strands that everything else reads.

A tile side is one of N, E, S, W. An open side carries two path *ends*, numbered 0 and 1
clockwise around the tile (N0 is the western end of the north side, E0 the northern end of
the east side, and so on). Where two tiles touch, end 0 of one meets end 1 of the other.

Tiles are only ever turned, never flipped, and the fifteen orientations of the five shapes
have fifteen different sets of open sides. So an orientation is identified by its *side mask*
(N=1, E=2, S=4, W=8) and the shape follows from the mask.

To change the topology, change ``SHAPE_TABLE``: geometry, legality, scoring and drawing all
derive from it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final, NamedTuple


class Side(enum.IntEnum):
    """A side of a tile, numbered clockwise from north."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def bit(self) -> int:
        """This side's bit in a side mask."""
        return 1 << self  # an IntEnum is its value: no lookup of .value in this hot path

    @property
    def opposite(self) -> Side:
        return Side((self.value + 2) % 4)

    def turned(self, quarter_turns: int) -> Side:
        """The side this one becomes after turning the tile clockwise."""
        return Side((self.value + quarter_turns) % 4)

    @property
    def offset(self) -> tuple[int, int]:
        """(file step, rank step) to the neighbouring cell across this side."""
        return _SIDE_OFFSETS[self]


_SIDE_OFFSETS: Final = {Side.N: (0, 1), Side.E: (1, 0), Side.S: (0, -1), Side.W: (-1, 0)}


class End(NamedTuple):
    """One path end: a side of the tile and its number (0 or 1) on that side."""

    side: Side
    index: int  # type: ignore[assignment]  # the field shadows tuple.index

    def __str__(self) -> str:
        return f"{self.side.name}{self.index}"

    def turned(self, quarter_turns: int) -> End:
        return End(self.side.turned(quarter_turns), self.index)

    @property
    def partner(self) -> End:
        """The end of the neighbouring tile that this end meets across its side."""
        return End(self.side.opposite, 1 - self.index)

    @classmethod
    def parse(cls, text: str) -> End:
        return cls(Side[text[0]], int(text[1]))


Strand = tuple[End, End]


class Shape(enum.Enum):
    """The five basic tile shapes, by their notation letter."""

    CROSS = "X"
    TEE = "T"
    STRAIGHT = "I"
    BEND = "L"
    CAP = "U"

    @property
    def letter(self) -> str:
        return self.value

    @property
    def spec(self) -> ShapeSpec:
        return SHAPE_TABLE[self]


class Colour(enum.Enum):
    """A tile's background colour. Orange and Blue are also the two players."""

    ORANGE = "orange"
    BLUE = "blue"
    NEUTRAL = "neutral"

    @property
    def opponent(self) -> Colour:
        """The other player (only for ORANGE and BLUE)."""
        if self is Colour.NEUTRAL:
            raise ValueError("the neutral colour has no opponent")
        return Colour.BLUE if self is Colour.ORANGE else Colour.ORANGE


PLAYERS: Final = (Colour.ORANGE, Colour.BLUE)


@dataclass(frozen=True)
class ShapeSpec:
    """One row of the topology table, in the shape's canonical orientation."""

    shape: Shape
    open_sides: tuple[Side, ...]
    strands: tuple[Strand, ...]
    crossings: int


def _spec(shape: Shape, open_sides: str, strands: str, crossings: int) -> ShapeSpec:
    pairs = tuple(
        (End.parse(a), End.parse(b)) for a, b in (pair.split("-") for pair in strands.split())
    )
    return ShapeSpec(shape, tuple(Side[s] for s in open_sides), pairs, crossings)


SHAPE_TABLE: Final[dict[Shape, ShapeSpec]] = {
    spec.shape: spec
    for spec in (
        _spec(Shape.CROSS, "NESW", "N0-E1 E0-S1 S0-W1 W0-N1", 4),
        _spec(Shape.TEE, "ESW", "E0-S1 S0-W1 W0-E1", 3),
        _spec(Shape.STRAIGHT, "EW", "E0-W0 E1-W1", 1),
        _spec(Shape.BEND, "NE", "N0-E0 N1-E1", 1),
        _spec(Shape.CAP, "N", "N0-N1", 0),
    )
}
"""The whole topology. Strands are written as pairs of ends in the canonical orientation."""

TILES_PER_SHAPE: Final = {Colour.NEUTRAL: 1, Colour.ORANGE: 2, Colour.BLUE: 2}
"""How many tiles of each shape each colour has in the box."""

START_SHAPE: Final = max(SHAPE_TABLE.values(), key=lambda spec: spec.crossings).shape
"""The neutral tile with the most crossings starts the game."""


@dataclass(frozen=True)
class Orientation:
    """A shape turned into one position, identified by its set of open sides."""

    mask: int
    shape: Shape
    quarter_turns: int
    strands: tuple[Strand, ...]

    @property
    def open_sides(self) -> tuple[Side, ...]:
        return tuple(side for side in Side if self.mask & side.bit)

    @property
    def sides_text(self) -> str:
        """The open sides in N E S W order, as written in move notation (``"NE"``)."""
        return sides_to_text(self.mask)

    def is_open(self, side: Side) -> bool:
        return bool(self.mask & side.bit)

    def strand_from(self, end: End) -> End:
        """The other end of the strand that starts at ``end``."""
        return _STRAND_PARTNERS[self.mask][end]


def sides_to_text(mask: int) -> str:
    """The sides a side mask opens, in N E S W order: ``"NE"`` for 3."""
    return _SIDES_TEXT[mask]


_SIDES_TEXT: Final = tuple("".join(side.name for side in Side if m & 1 << side) for m in range(16))


def _mask(sides: tuple[Side, ...]) -> int:
    return sum(side.bit for side in sides)


def _orientations() -> dict[int, Orientation]:
    found: dict[int, Orientation] = {}
    for spec in SHAPE_TABLE.values():
        for turns in range(4):
            mask = _mask(tuple(side.turned(turns) for side in spec.open_sides))
            if mask in found:
                if found[mask].shape is not spec.shape:
                    raise AssertionError(f"two shapes share the open sides {sides_to_text(mask)}")
                continue
            strands = tuple((a.turned(turns), b.turned(turns)) for a, b in spec.strands)
            found[mask] = Orientation(mask, spec.shape, turns, strands)
    return dict(sorted(found.items()))


ORIENTATIONS: Final[dict[int, Orientation]] = _orientations()
"""Every orientation of every shape, keyed by side mask (1..15)."""

_STRAND_PARTNERS: Final[dict[int, dict[End, End]]] = {
    mask: {a: b for strand in o.strands for a, b in (strand, strand[::-1])}
    for mask, o in ORIENTATIONS.items()
}


def orientation(mask: int) -> Orientation:
    """The orientation with this side mask; ValueError if no tile opens exactly these sides."""
    try:
        return ORIENTATIONS[mask]
    except KeyError:
        raise ValueError(f"no tile has the open-side mask {mask!r}; expected 1..15") from None


def orientations_of(shape: Shape) -> tuple[Orientation, ...]:
    return tuple(o for o in ORIENTATIONS.values() if o.shape is shape)
