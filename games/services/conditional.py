"""Conditional lines: a player queues replies to the opponent's next move while the
opponent is to move (played by ``moves``), or withdraws one."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from games import errors
from games.engine import game_state
from games.kinds.base import ChoiceNotationError, GameKind, KindError, State, StepKind
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
    seat = _require_player(game, user)
    _require_active(game)
    kind = game.game_kind
    if kind.has_chance or game.seat_count != 2:
        why = "has chance" if kind.has_chance else f"has {game.seat_count} players"
        raise errors.DomainError(
            f"This {kind.name} game {why}: conditional moves answer the one opponent's next "
            "move in a game for two without chance.",
            code="conditional_not_possible",
        )
    if expected_ply != game.ply:
        raise errors.StalePly(
            f"The game is at ply {game.ply}, not {expected_ply}: reload it and try again.",
            current_ply=game.ply,
        )
    if game.seat_to_move == seat:
        raise errors.NotYourTurn(
            "It is your turn: play your move now. Conditional moves answer your opponent's "
            "next move, so they are set while your opponent is to move.",
            code="your_turn",
        )
    notations = _conditional_line_check(kind, game_state(game), moves)
    line, _ = ConditionalLine.objects.update_or_create(
        game=game,
        owner=user,
        start_ply=game.ply,
        trigger=notations[0],
        defaults={"moves": notations},
    )
    return line


def _conditional_line_check(kind: GameKind, state: State, moves: Sequence[str]) -> list[str]:
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
            steps = state.play(text)
        except KindError as exc:
            prefix = f"Move {number} ({whose}) is illegal {where}: "
            raise errors.refused_choice(
                kind,
                exc,
                prefix=prefix if _is_illegal(exc) else f"Move {number} ({whose}): ",
                index=number,
            ) from None
        move = steps[0].notation
        if (
            len(steps) != 1
            or steps[0].kind != StepKind.MOVE
            or (state.is_over() and number < len(moves))
        ):
            what = "ends the game" if state.is_over() else "does not place its tile"
            raise errors.DomainError(
                f"Move {number} ({whose}), {move}, {what} {where}: a line can only continue "
                "with moves that place a tile and pass the turn.",
                code="line_cannot_continue",
                index=number,
            )
        played.append(move)
    return played


def _is_illegal(error: KindError) -> bool:
    return not isinstance(error, ChoiceNotationError)


@transaction.atomic
def conditional_line_delete(*, game_id: int, line_id: int, user: User) -> None:
    """Withdraw one of ``user``'s own queued lines; anyone else's is not found."""
    game = _game_locked(game_id)
    deleted, _ = ConditionalLine.objects.filter(pk=line_id, game=game, owner=user).delete()
    if not deleted:
        raise errors.ConditionalLineNotFound(
            f"You have no conditional line #{line_id} in game #{game_id}."
        )
