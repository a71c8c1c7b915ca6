"""Celtic! games in tests, read by colour: seat 1 is Orange, seat 2 Blue."""

from __future__ import annotations

from typing import Any

COLOUR = {1: "orange", 2: "blue", None: ""}


def to_move(game: Any) -> str:
    """ "orange" or "blue" while the game goes on, "" once it is over."""
    return COLOUR[game.seat_to_move]


def side(move: Any) -> str:
    """The colour of the seat a move row belongs to."""
    return COLOUR[move.seat]
