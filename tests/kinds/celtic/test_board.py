"""Cells of the reference grid and placed tiles."""

from __future__ import annotations

import pytest

from games.kinds.celtic import ALL_CELLS, START_CELL, Cell, NotationError, Side


def test_cell_names() -> None:
    assert str(Cell(0, 0)) == "a1"
    assert str(Cell(8, 8)) == "i9"
    assert str(START_CELL) == "e5"
    assert Cell.parse("e5") == START_CELL == Cell(4, 4)
    assert Cell.parse(" F7 ") == Cell(5, 6)
    assert repr(Cell(5, 6)) == "Cell.parse('f7')"


def test_every_cell_round_trips() -> None:
    assert len(ALL_CELLS) == 81
    assert list(ALL_CELLS) == sorted(ALL_CELLS)
    for cell in ALL_CELLS:
        assert Cell.parse(str(cell)) == cell
        assert eval(repr(cell)) == cell


@pytest.mark.parametrize("text", ["", "e", "j5", "e0", "e10", "5e", "ee", "e 5", "a1a"])
def test_bad_cells(text: str) -> None:
    with pytest.raises(NotationError, match="expected a cell a1-i9"):
        Cell.parse(text)


def test_neighbours() -> None:
    assert START_CELL.neighbour(Side.N) == Cell.parse("e6")
    assert START_CELL.neighbour(Side.E) == Cell.parse("f5")
    assert START_CELL.neighbour(Side.S) == Cell.parse("e4")
    assert START_CELL.neighbour(Side.W) == Cell.parse("d5")
    edge = Cell.parse("a1").neighbour(Side.W)
    assert not edge.on_board
    assert str(edge) == "(-1,0)"
