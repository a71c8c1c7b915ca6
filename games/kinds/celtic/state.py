"""The game state: the position, whose turn it is, and the history that rebuilds it.

``GameState`` is the one mutable object of the engine. ``apply()`` checks a move against the
rules, places it, and records the automatic passes that follow; the history of turns is the
serialization (``GameState.replay(state.history)`` rebuilds an equal state).

Speed matters (random playouts), so the state keeps incremental bookkeeping next to the
board: for every empty cell the sides its placed neighbours require open and closed, the set of
demand cells, and the bounding box of tiles plus demand cells. Placing a tile on a demand cell
only adds the cells across its open sides to that box, so rule 4 becomes "this side may not
open if that would stretch the box past five". Legal moves for a (cell, constraints, supply)
combination are computed once and cached in a module-level table.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from celtictext import quote
from games.kinds.celtic.board import (
    CELL_OF,
    FILE_OF,
    FITTING,
    GRID,
    GRID_CELLS,
    OPPOSITE_BITS,
    RANK_OF,
    SIDE_BITS,
    START_CELL,
    STEP,
    WINDOW_SIZE,
    Cell,
    Tile,
    cell_index,
)
from games.kinds.celtic.errors import IllegalMoveError, NotationError, Rule
from games.kinds.celtic.notation import Forfeit, Move, Pass, Turn, parse_turn, turn_label
from games.kinds.celtic.scoring import Result, result_of_grid
from games.kinds.celtic.tiles import (
    ORIENTATIONS,
    PLAYERS,
    START_SHAPE,
    TILES_PER_SHAPE,
    Colour,
    Shape,
    Side,
)

_NEUTRAL: Final = 2
_COLOURS: Final = (Colour.ORANGE, Colour.BLUE, Colour.NEUTRAL)
"""Internal colour numbers: 0 Orange, 1 Blue, 2 neutral (players are 0 and 1)."""
_COLOUR_INDEX: Final = {colour: i for i, colour in enumerate(_COLOURS)}
_SHAPES: Final = tuple(Shape)
_SHAPE_INDEX: Final = tuple(_SHAPES.index(ORIENTATIONS[m].shape) if m else -1 for m in range(16))
_SHAPE_BIT: Final = tuple(1 << i if i >= 0 else 0 for i in _SHAPE_INDEX)
_ALL_SHAPE_BITS: Final = (1 << len(_SHAPES)) - 1
_START_MASK: Final = 15
_SIDE_WORDS: Final = ("north", "east", "south", "west")
_W, _E, _S, _N = Side.W.bit, Side.E.bit, Side.S.bit, Side.N.bit
_NEIGHBOURS: Final = tuple(zip(STEP, SIDE_BITS, OPPOSITE_BITS, strict=True))

_MOVES: Final[tuple[Move | None, ...]] = tuple(
    Move(cell, mask, bool(neutral)) if cell is not None and mask else None
    for cell in CELL_OF
    for mask in range(16)
    for neutral in (0, 1)
)
"""Every move, built once: ``_MOVES[index * 32 + mask * 2 + neutral]``."""

_GENERATED: dict[int, tuple[Move, ...]] = {}
"""Cache: (cell index, must-open/must-close key, shapes available) -> the legal moves there."""
_GENERATED_LIMIT: Final = 200_000
"""Bound on the cache, so a long-running server's memory stays flat (about 30 MB at most)."""


def _generated(code: int) -> tuple[Move, ...]:
    index, key, own, neutral = code >> 18, (code >> 10) & 255, code & 31, (code >> 5) & 31
    moves: list[Move] = []
    for mask in FITTING[key]:
        bit = _SHAPE_BIT[mask]
        for flag, available in ((0, own), (1, neutral)):
            if available & bit:
                move = _MOVES[index * 32 + mask * 2 + flag]
                assert move is not None
                moves.append(move)
    if len(_GENERATED) >= _GENERATED_LIMIT:
        _GENERATED.clear()
    result = _GENERATED[code] = tuple(moves)
    return result


@dataclass(frozen=True)
class Variant:
    """Rule options. ``window_forfeit``: a move that breaks only the 5x5 window (rule 4) is
    taken back and costs the turn (recorded as a ``Forfeit``) instead of being rejected."""

    window_forfeit: bool = False

    @property
    def name(self) -> str:
        """``"standard"`` or ``"window-forfeit"``, as in a record's Variant header."""
        return "window-forfeit" if self.window_forfeit else "standard"

    @classmethod
    def from_name(cls, name: str) -> Variant:
        word = name.strip().lower().replace("_", "-")
        if word == "standard":
            return cls()
        if word == "window-forfeit":
            return cls(window_forfeit=True)
        raise NotationError(
            f"unknown variant {quote(name)}: expected 'standard' or 'window-forfeit'"
        )


class GameState:
    """A game in progress: create with ``GameState.new()`` or ``GameState.replay(history)``."""

    __slots__ = (
        "_avail",
        "_board",
        "_closed",
        "_colour",
        "_demand",
        "_history",
        "_legal",
        "_maxf",
        "_maxr",
        "_minf",
        "_minr",
        "_open",
        "_supply",
        "_to_move",
        "_variant",
    )

    _variant: Variant
    _board: list[int]
    _colour: list[int]
    _open: list[int]
    _closed: list[int]
    _demand: set[int]
    _minf: int
    _maxf: int
    _minr: int
    _maxr: int
    _supply: list[list[int]]
    _avail: list[int]
    _history: list[Turn]
    _to_move: int
    _legal: list[Move]

    # --- construction ------------------------------------------------------------------------

    @classmethod
    def new(cls, variant: Variant = Variant()) -> GameState:
        """The start position: the neutral cross on e5, Orange to move."""
        state = cls.__new__(cls)
        state._variant = variant
        state._board = [0] * GRID_CELLS
        state._colour = [-1] * GRID_CELLS
        state._open = [0] * GRID_CELLS
        state._closed = [0] * GRID_CELLS
        state._demand = set()
        state._minf = state._maxf = START_CELL.file
        state._minr = state._maxr = START_CELL.rank
        state._supply = [[TILES_PER_SHAPE[colour]] * len(_SHAPES) for colour in _COLOURS]
        state._avail = [_ALL_SHAPE_BITS] * len(_COLOURS)
        state._history = []
        state._place(cell_index(START_CELL), _START_MASK, _NEUTRAL)
        assert _SHAPES[_SHAPE_INDEX[_START_MASK]] is START_SHAPE
        state._to_move = 0
        state._legal = state._generate(0)
        return state

    @classmethod
    def replay(
        cls,
        turns: Iterable[Turn | str],
        variant: Variant = Variant(),
    ) -> GameState:
        """Rebuild a state from its history, checking every entry.

        Entries are turns or their notation (``"f5 NE"``, ``"pass"``, ``"forfeit f4 N"``).
        A move must be legal, a pass must be one the engine records automatically at that
        point, and a forfeit must be a move that breaks only the window in the
        ``window_forfeit`` variant. The first bad entry raises ``IllegalMoveError`` (or
        ``NotationError``) whose message starts with its label, like "move 7 (Blue) f3 NE: ".

        Any prefix of a history replays: if it stops right after a move that forces a pass,
        the state records that pass itself (so its ``ply`` is one more than the entries given).
        """
        state = cls.new(variant)
        for index, entry in enumerate(turns):
            player = PLAYERS[index % 2]
            try:
                turn = parse_turn(entry, player) if isinstance(entry, str) else entry
            except NotationError as error:
                raise NotationError(f"{turn_label(index, str(entry))}: {error}") from None
            try:
                state._replay_one(index, turn)
            except IllegalMoveError as error:
                label = turn_label(index, str(turn))
                raise IllegalMoveError(error.rule, error.reason, label) from None
        return state

    def _replay_one(self, index: int, turn: Turn) -> None:
        player = PLAYERS[index % 2]
        if isinstance(turn, Pass | Forfeit) and turn.player is not player:
            raise IllegalMoveError(
                Rule.WRONG_PLAYER,
                f"this turn belongs to {_name(player)}, not {_name(turn.player)}",
            )
        if len(self._history) > index:
            recorded = self._history[index]
            if turn != recorded:
                raise IllegalMoveError(
                    Rule.PASS_MISSING,
                    f"{_name(player)} has no legal move here, so the engine records a pass",
                )
            return
        if isinstance(turn, Pass):
            if self._to_move < 0:
                raise IllegalMoveError(Rule.GAME_OVER, "the game is over")
            raise IllegalMoveError(
                Rule.PASS_NOT_FORCED,
                f"{_name(player)} has {len(self._legal)} legal moves, so cannot pass",
            )
        move = turn.move if isinstance(turn, Forfeit) else turn
        window_ok = self._check(move)[2]
        if isinstance(turn, Forfeit) and window_ok:
            raise IllegalMoveError(
                Rule.NOT_A_FORFEIT, "this move is legal, so it cannot have been forfeited"
            )
        if isinstance(turn, Move) and not window_ok and self._variant.window_forfeit:
            raise IllegalMoveError(
                Rule.WINDOW,
                f"{self._window_problem(move)}, so it is recorded as 'forfeit {move}'",
            )
        self.apply(move)

    def clone(self) -> GameState:
        """An independent copy."""
        other = GameState.__new__(GameState)
        other._variant = self._variant
        other._board = self._board[:]
        other._colour = self._colour[:]
        other._open = self._open[:]
        other._closed = self._closed[:]
        other._demand = set(self._demand)
        other._minf, other._maxf = self._minf, self._maxf
        other._minr, other._maxr = self._minr, self._maxr
        other._supply = [row[:] for row in self._supply]
        other._avail = self._avail[:]
        other._history = self._history[:]
        other._to_move = self._to_move
        other._legal = self._legal[:]
        return other

    # --- reading the position ------------------------------------------------------------------

    @property
    def variant(self) -> Variant:
        return self._variant

    @property
    def to_move(self) -> Colour | None:
        """The player to move, or None when the game is over."""
        return PLAYERS[self._to_move] if self._to_move >= 0 else None

    @property
    def ply(self) -> int:
        """The number of recorded turns (moves, passes and forfeits)."""
        return len(self._history)

    @property
    def history(self) -> tuple[Turn, ...]:
        return tuple(self._history)

    def supply(self, colour: Colour) -> dict[Shape, int]:
        """How many tiles of each shape of ``colour`` are left to play."""
        counts = self._supply[_COLOUR_INDEX[colour]]
        return {shape: counts[i] for i, shape in enumerate(_SHAPES)}

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The placed tiles, in canonical cell order."""
        return tuple(
            Tile(cell, ORIENTATIONS[self._board[i]], _COLOURS[self._colour[i]])
            for i, cell in enumerate(CELL_OF)
            if cell is not None and self._board[i]
        )

    def tile_at(self, cell: Cell) -> Tile | None:
        if not cell.on_board:
            return None
        index = cell_index(cell)
        mask = self._board[index]
        return Tile(cell, ORIENTATIONS[mask], _COLOURS[self._colour[index]]) if mask else None

    def demand_cells(self) -> tuple[Cell, ...]:
        """The empty cells an open side points at, in canonical order."""
        return tuple(cell for i in sorted(self._demand) if (cell := CELL_OF[i]) is not None)

    def extent(self) -> tuple[Cell, Cell]:
        """South-west and north-east corners of the box around tiles and demand cells."""
        return Cell(self._minf, self._minr), Cell(self._maxf, self._maxr)

    def is_over(self) -> bool:
        return self._to_move < 0

    def result(self) -> Result:
        """The scoring of the current position (final once ``is_over()``)."""
        board = self._board
        colour = self._colour
        placed = [i for i in range(GRID_CELLS) if board[i]]
        return result_of_grid(
            {i: board[i] for i in placed},
            {i: _COLOURS[colour[i]] for i in placed},
            over=self._to_move < 0,
        )

    def legal_moves(self, player: Colour | None = None) -> list[Move]:
        """The legal moves of ``player`` (default: the side to move), in canonical order.

        Empty when the game is over. For the player not to move, these are the moves they
        would have if it were their turn in this position.
        """
        if player is None or (self._to_move >= 0 and player is PLAYERS[self._to_move]):
            return self._legal[:]
        if self._to_move < 0:
            return []
        return self._generate(_COLOUR_INDEX[player])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self._variant == other._variant and self._history == other._history

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        mover = self.to_move
        status = f"{mover.value} to move" if mover else "over"
        return f"<GameState {self._variant.name} ply={self.ply} {status}>"

    # --- playing -------------------------------------------------------------------------------

    def apply(self, move: Move | str) -> tuple[Turn, ...]:
        """Play ``move`` for the side to move and return the turns it recorded.

        The turns are the move itself (or a ``Forfeit`` in the ``window_forfeit`` variant),
        followed by a ``Pass`` if the next player then has no legal move. An illegal move
        raises ``IllegalMoveError`` and leaves the state unchanged.
        """
        if isinstance(move, str):
            move = Move.parse(move)
        index, colour, window_ok = self._check(move)
        mover = self._to_move
        turn: Turn
        if window_ok:
            self._place(index, move.mask, colour)
            turn = move
        elif self._variant.window_forfeit:
            turn = Forfeit(PLAYERS[mover], move)
        else:
            raise IllegalMoveError(Rule.WINDOW, self._window_problem(move), str(move))
        history = self._history
        history.append(turn)
        start = len(history) - 1
        self._advance(mover)
        return tuple(history[start:])

    def _check(self, move: Move) -> tuple[int, int, bool]:
        """Check rules 1-3; answer (cell index, colour number, whether rule 4 holds)."""
        mover = self._to_move
        if mover < 0:
            raise IllegalMoveError(Rule.GAME_OVER, "the game is over", str(move))
        file, rank = move.cell
        if not (0 <= file < 9 and 0 <= rank < 9):
            raise IllegalMoveError(
                Rule.OFF_BOARD, "the cell is off the board (expected a1-i9)", str(move)
            )
        index = (file + 1) * GRID + rank + 1
        mask = move.mask
        colour = _NEUTRAL if move.neutral else mover
        if not self._avail[colour] & _SHAPE_BIT[mask]:
            shape = _SHAPES[_SHAPE_INDEX[mask]]
            raise IllegalMoveError(
                Rule.NOT_IN_SUPPLY,
                f"no {_COLOURS[colour].value} {shape.name.lower()} ({shape.letter}) "
                "is left in the supply",
                str(move),
            )
        if self._board[index]:
            raise IllegalMoveError(Rule.OCCUPIED, f"{move.cell} already holds a tile", str(move))
        must_open = self._open[index]
        if not must_open:
            raise IllegalMoveError(
                Rule.NOT_DEMAND,
                f"{move.cell} is not a demand cell (no open side of the design points at it)",
                str(move),
            )
        if mask & must_open != must_open or mask & self._closed[index]:
            raise IllegalMoveError(Rule.MISMATCH, self._mismatch(index, mask), str(move))
        return index, colour, not mask & self._forbidden(index)

    def _forbidden(self, index: int) -> int:
        """Sides that may not open on this (demand) cell without breaking the 5x5 window."""
        forbid = 0
        if self._maxf - self._minf == WINDOW_SIZE - 1:
            file = FILE_OF[index]
            if file == self._minf:
                forbid |= _W
            if file == self._maxf:
                forbid |= _E
        if self._maxr - self._minr == WINDOW_SIZE - 1:
            rank = RANK_OF[index]
            if rank == self._minr:
                forbid |= _S
            if rank == self._maxr:
                forbid |= _N
        return forbid

    def _mismatch(self, index: int, mask: int) -> str:
        for side, (step, bit, opposite) in zip(Side, _NEIGHBOURS, strict=True):
            neighbour = self._board[index + step]
            if neighbour and bool(neighbour & opposite) != bool(mask & bit):
                theirs = "open" if neighbour & opposite else "closed"
                ours = "open" if mask & bit else "closed"
                return (
                    f"{CELL_OF[index + step]}'s {_SIDE_WORDS[side.opposite]} side is {theirs} "
                    f"but this tile's {_SIDE_WORDS[side]} side is {ours}"
                )
        raise AssertionError("no mismatching neighbour")  # pragma: no cover

    def _window_problem(self, move: Move) -> str:
        file, rank = move.cell
        mask = move.mask
        files = max(self._maxf, file + 1 if mask & _E else file) - min(
            self._minf, file - 1 if mask & _W else file
        )
        ranks = max(self._maxr, rank + 1 if mask & _N else rank) - min(
            self._minr, rank - 1 if mask & _S else rank
        )
        spans = [
            f"{count + 1} {word}"
            for count, word in ((files, "columns"), (ranks, "rows"))
            if count >= WINDOW_SIZE
        ]
        return (
            f"the tiles and demand cells would span {' and '.join(spans)}; "
            f"they must fit a {WINDOW_SIZE}x{WINDOW_SIZE} window (rule 4)"
        )

    def _place(self, index: int, mask: int, colour: int) -> None:
        board = self._board
        board[index] = mask
        self._colour[index] = colour
        shape = _SHAPE_INDEX[mask]
        counts = self._supply[colour]
        counts[shape] -= 1
        if not counts[shape]:
            self._avail[colour] &= ~(1 << shape)
        demand = self._demand
        demand.discard(index)
        need_open = self._open
        need_closed = self._closed
        for step, bit, opposite in _NEIGHBOURS:
            other = index + step
            if board[other]:
                continue
            if mask & bit:
                need_open[other] |= opposite
                demand.add(other)
            else:
                need_closed[other] |= opposite
        file = FILE_OF[index]
        rank = RANK_OF[index]
        if mask & _W and file - 1 < self._minf:
            self._minf = file - 1
        if mask & _E and file + 1 > self._maxf:
            self._maxf = file + 1
        if mask & _S and rank - 1 < self._minr:
            self._minr = rank - 1
        if mask & _N and rank + 1 > self._maxr:
            self._maxr = rank + 1

    def _advance(self, mover: int) -> None:
        """After ``mover``'s turn: hand over, record a forced pass, or end the game."""
        other = 1 - mover
        moves = self._generate(other)
        if moves:
            self._to_move = other
            self._legal = moves
            return
        moves = self._generate(mover)
        if moves:
            self._history.append(_PASSES[other])
            self._to_move = mover
        else:
            self._to_move = -1
        self._legal = moves

    def _generate(self, player: int) -> list[Move]:
        available = self._avail[player] | self._avail[_NEUTRAL] << 5
        moves: list[Move] = []
        if not available:
            return moves
        need_open = self._open
        need_closed = self._closed
        minf, maxf, minr, maxr = self._minf, self._maxf, self._minr, self._maxr
        wide = maxf - minf == WINDOW_SIZE - 1
        tall = maxr - minr == WINDOW_SIZE - 1
        cache = _GENERATED
        for index in sorted(self._demand):
            closed = need_closed[index]
            if wide:
                file = FILE_OF[index]
                if file == minf:
                    closed |= _W
                if file == maxf:
                    closed |= _E
            if tall:
                rank = RANK_OF[index]
                if rank == minr:
                    closed |= _S
                if rank == maxr:
                    closed |= _N
            code = index << 18 | (need_open[index] | closed << 4) << 10 | available
            found = cache.get(code)
            moves += _generated(code) if found is None else found
        return moves


_PASSES: Final = (Pass(Colour.ORANGE), Pass(Colour.BLUE))


def _name(player: Colour) -> str:
    return player.name.title()


def random_playout(state: GameState, rng: random.Random) -> GameState:
    """Play uniformly random legal moves on a copy of ``state`` until the game ends."""
    game = state.clone()
    while game._to_move >= 0:
        game.apply(rng.choice(game._legal))
    return game
