"""Conditional lines: a player queues replies to the opponent's next move while the
opponent is to move (played by ``moves``), or withdraws one."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from games import errors
from games.engine import game_state
from games.kinds.celtic import GameState, IllegalMoveError, NotationError
from games.kinds.celtic import Move as EngineMove
from games.models import ConditionalLine
from games.services.common import User, _game_locked, _require_active, _require_player


@transaction.atomic
def conditional_line_create(
    *, game_id: int, user: User, expected_ply: int, moves: Sequence[str]
) -> ConditionalLine:
    """Queue ``user``'s replies to their opponent's next move: ``moves`` alternates the
    opponent's move and the reply, the opponent's first, all legal in turn from now.

    A line with the same first move replaces the earlier one.
    """
    game = _game_locked(game_id)
    side = _require_player(game, user)
    _require_active(game)
    if expected_ply != game.ply:
        raise errors.StalePly(
            f"The game is at ply {game.ply}, not {expected_ply}: reload it and try again.",
            current_ply=game.ply,
        )
    if game.to_move == side:
        raise errors.NotYourTurn(
            "It is your turn: play your move now. Conditional moves answer your opponent's "
            "next move, so they are set while your opponent is to move.",
            code="your_turn",
        )
    notations = _conditional_line_check(game_state(game), moves)
    line, _ = ConditionalLine.objects.update_or_create(
        game=game,
        owner=user,
        start_ply=game.ply,
        trigger=notations[0],
        defaults={"moves": notations},
    )
    return line


def _conditional_line_check(state: GameState, moves: Sequence[str]) -> list[str]:
    """The canonical notations of ``moves`` if they are pairs of legal moves in turn from
    ``state`` (the opponent to move), each one a plain placed tile; else a clear error."""
    limit = ConditionalLine.MAX_MOVES
    if not moves or len(moves) % 2 or len(moves) > limit:
        raise errors.DomainError(
            f"A conditional line is 2 to {limit} moves in pairs (your opponent's move, then "
            f"your reply); {len(moves)} were given.",
            code="invalid_line",
        )
    played: list[str] = []
    for number, text in enumerate(moves, start=1):
        whose = "your opponent's move" if number % 2 else "your reply"
        where = f"after {', '.join(played)}" if played else "in the current position"
        try:
            move = EngineMove.parse(text)
        except NotationError as exc:
            raise errors.InvalidNotation(
                f"Move {number} ({whose}): {exc}",
                expected=errors.HOW_TO_WRITE_A_MOVE,
                index=number,
            ) from None
        try:
            turns = state.apply(move)
        except IllegalMoveError as exc:
            raise errors.IllegalMove(
                f"Move {number} ({whose}) is illegal {where}: {exc}",
                rule=exc.rule.value,
                index=number,
            ) from None
        if turns != (move,) or (state.is_over() and number < len(moves)):
            what = "ends the game" if state.is_over() else "does not place its tile"
            raise errors.DomainError(
                f"Move {number} ({whose}), {move}, {what} {where}: a line can only continue "
                "with moves that place a tile and pass the turn.",
                code="line_cannot_continue",
                index=number,
            )
        played.append(str(move))
    return played


@transaction.atomic
def conditional_line_delete(*, game_id: int, line_id: int, user: User) -> None:
    """Withdraw one of ``user``'s own queued lines; anyone else's is not found."""
    game = _game_locked(game_id)
    deleted, _ = ConditionalLine.objects.filter(pk=line_id, game=game, owner=user).delete()
    if not deleted:
        raise errors.ConditionalLineNotFound(
            f"You have no conditional line #{line_id} in game #{game_id}."
        )
