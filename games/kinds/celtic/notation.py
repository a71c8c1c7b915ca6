"""Move notation, and the three kinds of turn a game history records.

A move is written as its cell, its open sides in N E S W order, and an optional ``n`` for a
neutral tile: ``f5 NE`` (a bend of the mover's colour on f5, open north and east),
``d5 NESW n`` (the neutral cross). Parsing accepts any case, the side letters in any order,
and extra spaces between and around the words; the open sides must be written as one word.
Text that could be read two ways is refused: ``f5 N E`` (is ``E`` a side?) and ``d5 EWn``
(is the last letter the north side or the neutral marker?). Messages quote at most a short
part of the input.
Moves carry no colour: a non-neutral move places a tile of the mover's colour.

A game history is a sequence of turns, strictly alternating Orange, Blue, Orange, ...:

* a played ``Move``, written ``f5 NE``;
* a ``Pass``, recorded automatically for a player with no legal move, written ``pass``;
* a ``Forfeit`` (only in the ``window_forfeit`` variant): the submitted move broke the 5x5
  window, was taken back and cost the turn, written ``forfeit f4 N``.
"""

from __future__ import annotations

from dataclasses import dataclass

from celtictext import quote
from games.kinds.celtic.board import Cell
from games.kinds.celtic.errors import NotationError
from games.kinds.celtic.tiles import (
    PLAYERS,
    Colour,
    Orientation,
    Shape,
    Side,
    orientation,
    sides_to_text,
)

MOVE_EXPECTED = (
    "expected a cell a1-i9, open sides from N E S W, and an optional n for neutral, "
    "like 'f5 NE' or 'd5 NESW n'"
)
TURN_EXPECTED = f"{MOVE_EXPECTED}; or 'pass', or 'forfeit' followed by a move"

_SIDE_LETTERS = {side.name: side for side in Side}
_NEUTRAL_WORDS = frozenset({"n", "neutral"})


@dataclass(frozen=True, order=True, slots=True)
class Move:
    """Place a tile on ``cell`` with the open sides in ``mask`` (N=1, E=2, S=4, W=8).

    The tile is the mover's colour, or neutral when ``neutral`` is true; its shape follows
    from the mask. Moves order canonically by cell (a1, a2, ..., i9), mask, own before neutral.
    """

    cell: Cell
    mask: int
    neutral: bool = False

    def __post_init__(self) -> None:
        orientation(self.mask)  # raises ValueError for a mask outside 1..15

    @property
    def orientation(self) -> Orientation:
        return orientation(self.mask)

    @property
    def shape(self) -> Shape:
        return orientation(self.mask).shape

    @property
    def sides_text(self) -> str:
        return sides_to_text(self.mask)

    def __str__(self) -> str:
        text = f"{self.cell} {sides_to_text(self.mask)}"
        return f"{text} n" if self.neutral else text

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse a move like ``"f5 NE"`` or ``"d5 nesw N"``; NotationError if it is not one."""
        words = text.split()
        if not words:
            raise NotationError(f"empty move: {MOVE_EXPECTED}")

        def fail(problem: str) -> NotationError:
            return NotationError(f"{quote(text.strip())} is not a move: {problem}; {MOVE_EXPECTED}")

        try:
            cell = Cell.parse(words[0])
        except NotationError:
            raise fail(f"{quote(words[0])} is not a cell on the board") from None
        if len(words) == 1:
            raise fail("it has no open sides")
        sides = words[1]
        if _neutral_marker_glued(sides):
            upper = sides.upper()
            raise fail(
                f"{quote(sides)} is ambiguous: write {quote(upper)} for the open sides, "
                f"or {quote(upper[:-1] + ' n')} for a neutral tile"
            )
        mask = 0
        for letter in sides.upper():
            side = _SIDE_LETTERS.get(letter)
            if side is None:
                raise fail(f"{letter!r} in {quote(sides)} is not a side")
            if mask & side.bit:
                raise fail(f"the side {letter} appears twice in {quote(sides)}")
            mask |= side.bit
        extra = words[2:]
        if len(extra) > 1 or (extra and extra[0].lower() not in _NEUTRAL_WORDS):
            raise fail(f"unexpected {quote(' '.join(extra))} after the sides {quote(sides)}")
        return cls(cell, mask, bool(extra))


def _neutral_marker_glued(sides: str) -> bool:
    """True for a sides word whose last letter is an N in another case than the letter before
    it (``EWn``, ``ewN``): it could be the north side or the neutral marker ``n``."""
    if len(sides) < 2 or sides[-1] not in "nN":
        return False
    return sides[-1].isupper() != sides[-2].isupper()


@dataclass(frozen=True, slots=True)
class Pass:
    """``player`` had no legal move; the engine recorded the pass."""

    player: Colour

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Forfeit:
    """``player`` submitted ``move``, which broke the 5x5 window (``window_forfeit`` variant).

    The tile was taken back and the turn passed to the opponent.
    """

    player: Colour
    move: Move

    def __str__(self) -> str:
        return f"forfeit {self.move}"


Turn = Move | Pass | Forfeit
"""One entry of a game history."""


def turn_label(index: int, text: str) -> str:
    """How messages name the history entry at ``index``: ``"move 7 (Blue) f3 NE"``.

    Entries alternate Orange, Blue, so entry ``index`` is move ``index // 2 + 1`` of its player.
    """
    player = PLAYERS[index % 2]
    return f"move {index // 2 + 1} ({player.name.title()}) {text}"


def parse_turn(text: str, player: Colour) -> Turn:
    """Parse one history entry (``"f5 NE"``, ``"pass"``, ``"forfeit f4 N"``) by ``player``."""
    words = text.split()
    if not words:
        raise NotationError(f"empty turn: {TURN_EXPECTED}")
    first = words[0].lower()
    if first == "pass":
        if len(words) > 1:
            raise NotationError(
                f"{quote(text.strip())}: nothing may follow 'pass'; {TURN_EXPECTED}"
            )
        return Pass(player)
    if first == "forfeit":
        if len(words) == 1:
            raise NotationError(f"{quote(text.strip())}: 'forfeit' needs the move; {TURN_EXPECTED}")
        return Forfeit(player, Move.parse(" ".join(words[1:])))
    return Move.parse(text)
