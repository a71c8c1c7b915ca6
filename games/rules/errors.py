"""The engine's exceptions: text that does not parse, and a well-formed move that is illegal.

Both subclass ``ValueError`` so that callers who only care that the input was bad can catch
one thing; callers who care why read ``IllegalMoveError.rule``.
"""

from __future__ import annotations

import enum


class NotationError(ValueError):
    """Text that is not a move, turn, cell or record in this project's notation."""


class Rule(enum.Enum):
    """The rule an illegal move (or a bad history entry) breaks.

    The values are stable identifiers that the web service may put in its JSON answers.
    """

    GAME_OVER = "game-over"
    """The game has ended: neither player has a legal move."""
    OFF_BOARD = "off-board"
    """The cell is outside the 9x9 reference grid a1..i9."""
    NOT_IN_SUPPLY = "not-in-supply"
    """Rule 1: no tile of this shape is left in the mover's (or the neutral) supply."""
    OCCUPIED = "occupied"
    """The cell already holds a tile."""
    NOT_DEMAND = "not-demand"
    """Rule 2: the cell is not next to an open side of the design."""
    MISMATCH = "mismatch"
    """Rule 3: a touching side is open on one tile and closed on the other."""
    WINDOW = "window"
    """Rule 4: tiles plus demand cells would no longer fit a 5x5 window."""
    WRONG_PLAYER = "wrong-player"
    """A history entry names a player who is not the one to move."""
    PASS_NOT_FORCED = "pass-not-forced"
    """A history entry records a pass where the engine records none."""
    PASS_MISSING = "pass-missing"
    """A history entry is a move or forfeit where the engine recorded an automatic pass."""
    NOT_A_FORFEIT = "not-a-forfeit"
    """A history entry records a forfeit for a move that is legal (or in the standard variant)."""


class IllegalMoveError(ValueError):
    """A well-formed move (or history entry) that the rules do not allow here.

    ``rule`` says which rule it breaks, ``reason`` says how in words; the message is
    ``"<subject>: <reason>"``, where the subject names the move (``"f3 NE"``, or
    ``"move 7 (Blue) f3 NE"`` when replaying a history).
    """

    def __init__(self, rule: Rule, reason: str, subject: str | None = None) -> None:
        super().__init__(f"{subject}: {reason}" if subject else reason)
        self.rule = rule
        self.reason = reason
