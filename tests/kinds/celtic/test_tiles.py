"""The topology table: ends, strands, the fifteen orientations, turning."""

from __future__ import annotations

import pytest

from games.kinds.celtic import ORIENTATIONS, SHAPE_TABLE, End, Shape, Side, orientation
from games.kinds.celtic.tiles import START_SHAPE, TILES_PER_SHAPE, Colour, orientations_of


@pytest.mark.parametrize("mask", range(1, 16))
def test_every_open_side_carries_two_ends_each_in_exactly_one_strand(mask: int) -> None:
    o = ORIENTATIONS[mask]
    ends = [end for strand in o.strands for end in strand]
    expected = sorted(End(side, i) for side in o.open_sides for i in (0, 1))
    assert sorted(ends) == expected  # each end once: no end twice, none missing
    for a, b in o.strands:
        assert o.strand_from(a) == b
        assert o.strand_from(b) == a


def test_fifteen_distinct_masks_cover_every_nonempty_side_set() -> None:
    assert sorted(ORIENTATIONS) == list(range(1, 16))
    counts = {shape: len(orientations_of(shape)) for shape in Shape}
    assert counts == {Shape.CROSS: 1, Shape.TEE: 4, Shape.STRAIGHT: 2, Shape.BEND: 4, Shape.CAP: 4}


def test_shapes_follow_from_the_open_sides() -> None:
    assert orientation(0b1111).shape is Shape.CROSS
    assert orientation(Side.N.bit | Side.S.bit).shape is Shape.STRAIGHT
    assert orientation(Side.E.bit | Side.W.bit).shape is Shape.STRAIGHT
    assert orientation(Side.N.bit | Side.E.bit).shape is Shape.BEND
    assert orientation(Side.W.bit | Side.N.bit).shape is Shape.BEND
    assert orientation(Side.S.bit).shape is Shape.CAP
    assert orientation(0b1110).shape is Shape.TEE
    with pytest.raises(ValueError, match=r"1\.\.15"):
        orientation(0)


def test_crossing_counts_and_start_tile() -> None:
    crossings = {shape: spec.crossings for shape, spec in SHAPE_TABLE.items()}
    assert crossings == {
        Shape.CROSS: 4,
        Shape.TEE: 3,
        Shape.STRAIGHT: 1,
        Shape.BEND: 1,
        Shape.CAP: 0,
    }
    assert START_SHAPE is Shape.CROSS
    assert TILES_PER_SHAPE == {Colour.NEUTRAL: 1, Colour.ORANGE: 2, Colour.BLUE: 2}


def test_turning_keeps_end_numbers() -> None:
    assert End(Side.N, 0).turned(1) == End(Side.E, 0)
    assert End(Side.W, 1).turned(1) == End(Side.N, 1)
    assert End(Side.S, 0).turned(3) == End(Side.E, 0)
    # The bend turned a quarter: N0-E0, N1-E1 becomes E0-S0, E1-S1.
    turned = ORIENTATIONS[Side.E.bit | Side.S.bit]
    assert turned.quarter_turns == 1
    assert set(turned.strands) == {
        (End(Side.E, 0), End(Side.S, 0)),
        (End(Side.E, 1), End(Side.S, 1)),
    }


def test_meeting_ends_pair_zero_with_one() -> None:
    assert End(Side.N, 0).partner == End(Side.S, 1)
    assert End(Side.E, 0).partner == End(Side.W, 1)
    assert all(end.partner.partner == end for end in (End(s, i) for s in Side for i in (0, 1)))
