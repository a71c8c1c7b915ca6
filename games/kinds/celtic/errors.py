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

    The values are stable identifiers that the web service may put in its JSON answers;
    ``explanation`` states the rule in words a player can act on.
    """

    GAME_OVER = "game-over"
    OFF_BOARD = "off-board"
    NOT_IN_SUPPLY = "not-in-supply"
    OCCUPIED = "occupied"
    NOT_DEMAND = "not-demand"
    MISMATCH = "mismatch"
    WINDOW = "window"
    WRONG_PLAYER = "wrong-player"
    PASS_NOT_FORCED = "pass-not-forced"
    PASS_MISSING = "pass-missing"
    NOT_A_FORFEIT = "not-a-forfeit"

    @property
    def explanation(self) -> str:
        return _EXPLANATIONS[self]


_EXPLANATIONS: dict[Rule, str] = {
    Rule.GAME_OVER: "The game has ended: neither player has a legal move.",
    Rule.OFF_BOARD: "The cell must be on the 9x9 grid, a1 to i9.",
    Rule.NOT_IN_SUPPLY: "Rule 1: you can only play a shape left in your (or the neutral) supply.",
    Rule.OCCUPIED: "A tile can only go on an empty cell.",
    Rule.NOT_DEMAND: "Rule 2: a tile must go next to an open side of the design.",
    Rule.MISMATCH: "Rule 3: touching sides must match, open to open and closed to closed.",
    Rule.WINDOW: "Rule 4: the tiles and the cells they point at must fit a 5x5 window.",
    Rule.WRONG_PLAYER: "A history entry names a player who is not the one to move.",
    Rule.PASS_NOT_FORCED: "A history entry records a pass where the player had a legal move.",
    Rule.PASS_MISSING: "A history entry records a move or forfeit where the player had to pass.",
    Rule.NOT_A_FORFEIT: "A history entry records a forfeit for a move that is legal "
    "(or in the standard variant, which has no forfeits).",
}


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
