"""The bridge between stored move rows and a game's kind (``games.kinds``).

A game's position is never stored: it is rebuilt by replaying its ``Move`` rows through its
kind, which keeps the move list the single source of truth.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.kinds.base import Chance, State, Step, StepKind
from games.models import Game, Move


def row_to_step(row: Move) -> Step:
    """The kind's step a stored row records."""
    return Step(row.seat, StepKind(row.kind), row.notation)


def step_to_row_fields(step: Step) -> dict[str, object]:
    """The columns of the row that records ``step``."""
    return {"seat": step.seat, "kind": step.kind.value, "notation": step.notation}


def replay(rows: Iterable[Move], game: Game, *, chance: Chance | None = None) -> State:
    """The position of ``game`` after ``rows`` (its moves, in order); play from it draws
    from ``chance``, by default the game's own."""
    steps = [row_to_step(row) for row in rows]
    chance = chance or game.chance
    return game.game_kind.replay(game.seat_count, steps, options=game.options, chance=chance)


def game_state(game: Game, *, ply: int | None = None, chance: Chance | None = None) -> State:
    """The position of ``game`` after ``ply`` turns (default: now); ``chance`` as for
    ``replay``."""
    rows = game.moves.order_by("ply")
    if ply is not None:
        rows = rows.filter(ply__lt=ply)
    return replay(rows, game, chance=chance)
