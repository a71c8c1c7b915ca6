"""The terminal drawing: what a person reads off it must be the position."""

from __future__ import annotations

import random

import pytest

from games.kinds.celtic import (
    Cell,
    Colour,
    Forfeit,
    GameState,
    IllegalMoveError,
    Move,
    Pass,
    Variant,
    random_playout,
)
from games.kinds.celtic.puzzles import find_hard
from games.kinds.celtic.render import (
    CELL_HEIGHT,
    CELL_WIDTH,
    UNICODE,
    Window,
    describe_state,
    last_placed,
    render_layout,
    render_state,
    render_tiles,
    window_around,
)
from games.kinds.celtic.tiles import Side

START_DRAWING = """\
     c       d       e       f       g
  ┌───────┬───────┬───────┬───────┬───────┐
  │       │       │       │       │       │
7 │       │       │       │       │       │ 7
  │       │       │       │       │       │
  ├───────┼───────┼───────┼───────┼───────┤
  │       │       │       │       │       │
6 │       │       │   ·   │       │       │ 6
  │       │       │       │       │       │
  ├───────┼───────┼───║───┼───────┼───────┤
  │       │       │n  ║   │       │       │
5 │       │   ·   ════╬════   ·   │       │ 5
  │       │       │   ║   │       │       │
  ├───────┼───────┼───║───┼───────┼───────┤
  │       │       │       │       │       │
4 │       │       │   ·   │       │       │ 4
  │       │       │       │       │       │
  ├───────┼───────┼───────┼───────┼───────┤
  │       │       │       │       │       │
3 │       │       │       │       │       │ 3
  │       │       │       │       │       │
  └───────┴───────┴───────┴───────┴───────┘
     c       d       e       f       g"""

LETTERS = {"o": Colour.ORANGE, "b": Colour.BLUE, "n": Colour.NEUTRAL}


def read_back(drawing: str, window: Window) -> dict[Cell, tuple[int, Colour | None, bool]]:
    """What a reader sees in each cell: (open sides, colour letter, demand dot)."""
    lines = drawing.splitlines()
    label_width = lines[2].index("│") - 1
    seen = {}
    for top, rank in enumerate(reversed(range(window.rank, window.rank + window.ranks))):
        middle = 2 + top * (CELL_HEIGHT + 1) + CELL_HEIGHT // 2
        for i, file in enumerate(range(window.file, window.file + window.files)):
            left = label_width + 1 + i * (CELL_WIDTH + 1) + 1
            centre = left + CELL_WIDTH // 2
            mask = 0
            if lines[middle - 1][centre] == UNICODE.vertical_arm:
                mask |= Side.N.bit
            if lines[middle + 1][centre] == UNICODE.vertical_arm:
                mask |= Side.S.bit
            if lines[middle][centre] not in " ·":
                if lines[middle][centre - 1] == UNICODE.horizontal_arm:
                    mask |= Side.W.bit
                if lines[middle][centre + 1] == UNICODE.horizontal_arm:
                    mask |= Side.E.bit
                assert UNICODE.centres[mask] == lines[middle][centre]
            else:
                mask = 0
            letter = lines[middle - 1][left]
            seen[Cell(file, rank)] = (mask, LETTERS.get(letter), lines[middle][centre] == "·")
    return seen


def random_state(seed: int, plies: int | None = None) -> GameState:
    rng = random.Random(seed)
    state = GameState.new()
    while not state.is_over() and (plies is None or state.ply < plies):
        state.apply(rng.choice(state.legal_moves()))
    return state


def test_start_position_drawing() -> None:
    drawing = render_state(GameState.new())
    assert drawing.startswith(START_DRAWING + "\n")
    assert "Ply 0: the start position." in drawing
    assert "Orange to move (60 legal moves)." in drawing
    assert "Supply neutral: T1 I1 L1 U1" in drawing


@pytest.mark.parametrize("seed", range(12))
def test_drawing_reads_back_as_the_position(seed: int) -> None:
    state = random_state(seed, plies=seed + 3)
    window = window_around([tile.cell for tile in state.tiles] + list(state.demand_cells()))
    assert (window.files, window.ranks) == (5, 5)
    seen = read_back(render_tiles(state.tiles, demand=state.demand_cells()), window)
    tiles = {tile.cell: tile for tile in state.tiles}
    for cell, (mask, colour, demand) in seen.items():
        tile = tiles.get(cell)
        assert mask == (tile.mask if tile else 0), cell
        assert colour == (tile.colour if tile else None), cell
        assert demand == (cell in state.demand_cells()), cell
    assert set(tiles) <= set(seen)


def test_window_is_five_by_five_around_the_design_and_inside_the_board() -> None:
    assert window_around([Cell(0, 0)]) == Window(0, 0)
    assert window_around([Cell(8, 8)]) == Window(4, 4)
    assert window_around([Cell(1, 3), Cell(5, 3)]) == Window(1, 1)
    assert window_around([]) == Window(2, 2)
    assert window_around([Cell(0, 0), Cell(6, 0)]) == Window(0, 0, 7, 5)


def test_last_tile_is_starred_and_passes_do_not_count() -> None:
    state = random_state(4)
    moves = [turn for turn in state.history if isinstance(turn, Move)]
    assert last_placed(state) == moves[-1].cell
    drawing = render_state(state)
    assert drawing.count("*") == 1
    starred = next(line for line in drawing.splitlines() if "*" in line)
    column = (starred.index("*") - 3) // (CELL_WIDTH + 1)
    window = window_around([t.cell for t in state.tiles] + list(state.demand_cells()))
    assert window.file + column == moves[-1].cell.file
    assert last_placed(GameState.new()) is None


def test_ascii_and_colour_options() -> None:
    state = random_playout(GameState.new(), random.Random(7))
    plain = render_state(state, ascii=True)
    assert plain.isascii()
    assert "\x1b[" not in render_state(state)
    coloured = render_state(state, colour=True)
    assert "\x1b[38;5;208m" in coloured and "\x1b[0m" in coloured


def test_game_over_description_gives_the_result() -> None:
    state = random_playout(GameState.new(), random.Random(2))
    result = state.result()
    text = describe_state(state)
    assert f"Game over: {result.text} ({len(result.knots)} knots" in text
    assert "to move" not in text


def test_puzzle_layout_drawing_reads_back() -> None:
    layout = find_hard()
    drawing = render_layout(layout)
    seen = read_back(drawing, Window(0, 0))
    for r, c, mask in layout.cells():
        assert seen[Cell(c, layout.height - 1 - r)][0] == mask
    assert drawing.splitlines()[0].split() == ["a", "b", "c", "d", "e"]


def test_passes_and_forfeits_are_described() -> None:
    games = (random_state(seed) for seed in range(500))
    game = next(g for g in games if any(isinstance(t, Pass) for t in g.history))
    at = next(i for i, t in enumerate(game.history) if isinstance(t, Pass))
    passed = GameState.replay(game.history[: at + 1])
    who = ["Orange", "Blue"][at % 2]
    assert f"Ply {at + 1}: {who} passed (no legal move)." in describe_state(passed)

    assert first_forfeit_text(game) is not None


def first_forfeit_text(game: GameState) -> str | None:
    """Replay ``game`` in the window-forfeit variant until some move breaks only the window."""
    for ply in range(len(game.history)):
        state = GameState.replay(game.history[:ply], Variant(window_forfeit=True))
        for cell in state.demand_cells():
            for mask in range(1, 16):
                trial = state.clone()
                try:
                    turns = trial.apply(Move(cell, mask, neutral=False))
                except IllegalMoveError:
                    continue
                if isinstance(turns[0], Forfeit):
                    text = describe_state(trial)
                    assert f"forfeited {cell} " in text and "broke the 5x5 window" in text
                    return text
    return None
