"""Moves: a player's move under the game lock, the turns it records, and the reply the
opponent queued for it (a conditional line), played in the same transaction."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from accounts.selectors import vacation_intervals_by_user
from games import errors, events, selectors
from games.clock import ClockReading
from games.engine import replay, turn_to_row_fields, variant_of
from games.kinds.celtic import GameState, IllegalMoveError, NotationError
from games.kinds.celtic import Move as EngineMove
from games.models import ConditionalLine, Game, Move, Side
from games.services.clocks import VacationsByUser, _clock_after_move, _clock_start_turn
from games.services.common import User, _game_locked, _require_active, _require_player
from games.services.endings import game_finish


@dataclass(frozen=True)
class MoveOutcome:
    """What a move submission recorded: the game after it and the turns appended."""

    game: Game
    turns: list[Move]
    #: Every recorded turn and the position after them, and the clock of the player to
    #: move: what an answer shows, without reading the moves again.
    moves: list[Move]
    state: GameState
    clock: ClockReading | None


def _parse_move(notation: str) -> EngineMove:
    try:
        return EngineMove.parse(notation)
    except NotationError as exc:
        raise errors.InvalidNotation(f"{exc}", expected=errors.HOW_TO_WRITE_A_MOVE) from None


@transaction.atomic
def move_submit(
    *,
    game_id: int,
    user: User,
    expected_ply: int,
    notation: str,
    now: datetime | None = None,
) -> MoveOutcome:
    """Play ``notation`` for ``user`` if the game is still at ``expected_ply``.

    Records the move (or the forfeited turn) and any automatic passes that follow, runs the
    clocks, and finishes the game when the engine says no one can move. If the opponent had
    queued a reply to this move (a conditional line), it is played too, in this transaction.
    """
    now = now or timezone.now()
    game = _game_locked(game_id, flags_at=now)
    side = _require_player(game, user)
    _require_active(game)
    if expected_ply != game.ply:
        raise errors.StalePly(
            f"The game is at ply {game.ply}, not {expected_ply}: reload it and try again.",
            current_ply=game.ply,
        )
    if game.to_move != side:
        raise errors.NotYourTurn(f"It is {game.get_to_move_display()}'s turn, not yours.")
    if game.deadline is not None and now > game.deadline:
        raise errors.GameNotActive(
            f"Your time ran out at {game.deadline:%Y-%m-%d %H:%M} UTC; the game is being decided.",
            code="time_expired",
        )
    move = _parse_move(notation)
    recorded = list(game.moves.order_by("ply"))
    state = replay(recorded, variant_of(game))
    away = game.has_vacations
    rows, vacations = _move_record(game, state=state, side=side, move=move, now=now, away=away)
    if game.is_active and game.has_lines:
        rows += _conditional_reply(game, state=state, played=rows[0], now=now, away=away)
    if game.is_active:
        events.publish(events.turn_started, games=[game])
    mover_vacations = vacations.get(game.orange_id if game.to_move == Side.ORANGE else game.blue_id)
    return MoveOutcome(
        game=game,
        turns=rows,
        moves=[*recorded, *rows],
        state=state,
        clock=selectors.game_clock(game=game, now=now, vacations=mover_vacations or ()),
    )


def _move_record(
    game: Game, *, state: GameState, side: str, move: EngineMove, now: datetime, away: bool
) -> tuple[list[Move], VacationsByUser]:
    """Apply ``move`` for ``side`` to ``state``, the position of the locked ``game``: append
    its turns (and automatic passes), run the clocks, and finish the game or start the next
    turn. Tells no one. Answers the turns recorded and both players' vacations it read
    (``away``: whether either player has a vacation ending after ``now``; if not, none are
    read)."""
    try:
        turns = state.apply(move)
    except IllegalMoveError as exc:
        raise errors.IllegalMove(str(exc), rule=exc.rule.value) from None

    rows = [
        Move.objects.create(game=game, ply=game.ply + i, **turn_to_row_fields(turn, side))
        for i, turn in enumerate(turns)
    ]
    game.ply += len(rows)
    vacations = (  # both players' (the next deadline is the other's), in one query
        vacation_intervals_by_user(user_ids=[game.orange_id, game.blue_id], since=now)
        if game.deadline is not None and away
        else {}
    )
    bank_before = game.time_left(side)
    running_left = _clock_after_move(game, side=side, now=now, vacations=vacations)
    if state.is_over():
        game_finish(
            game=game, result=state.result().text, termination=Game.Termination.NORMAL, now=now
        )
    else:
        game.to_move = Side(state.to_move.value)
        game.clock_before_last_move = _clock_snapshot(
            ply=rows[0].ply, bank=bank_before, running_left=running_left
        )
        _clock_start_turn(game, now=now, vacations=vacations)
        game.save(update_fields=_TURN_FIELDS)
    return rows, vacations


#: What a move that does not end the game changes on the game row.
_TURN_FIELDS = ["ply", "to_move", "orange_time_left", "blue_time_left", "turn_started_at",
                "deadline", "clock_before_last_move"]  # fmt: skip


def _clock_snapshot(
    *, ply: int, bank: timedelta | None, running_left: timedelta | None
) -> dict[str, object]:
    """The clock before the move at ``ply`` as JSON: the mover's bank and running time left."""
    return {
        "ply": ply,
        "bank": None if bank is None else bank.total_seconds(),
        "running_left": None if running_left is None else running_left.total_seconds(),
    }


def _conditional_reply(
    game: Game, *, state: GameState, played: Move, now: datetime, away: bool
) -> list[Move]:
    """After the move ``played`` on the locked ``game`` (``state``: the position after it),
    play the reply its opponent queued for it, if any, through the normal move path (clocks
    included; ``away`` as for ``_move_record``); drop the lines that can no longer match.
    Answers the turns the reply recorded.
    """
    due = list(  # in id order: the model's order would join the games table for nothing
        ConditionalLine.objects.select_for_update()
        .filter(game=game, start_ply__lte=played.ply)
        .order_by("pk")
    )
    owner_side = game.to_move
    owner_id = game.orange_id if owner_side == Side.ORANGE else game.blue_id
    can_match = played.kind == Move.Kind.MOVE and game.ply == played.ply + 1
    match = next(
        (
            line
            for line in due
            if can_match
            and line.owner_id == owner_id
            and line.start_ply == played.ply
            and line.trigger == played.notation
        ),
        None,
    )
    stale = [line.pk for line in due if line is not match]
    if stale:
        ConditionalLine.objects.filter(pk__in=stale).delete()
    if match is None:
        return []
    reply, rest = match.moves[1], match.moves[2:]
    try:
        rows, _ = _move_record(
            game, state=state, side=owner_side, move=EngineMove.parse(reply), now=now, away=away
        )
    except errors.IllegalMove:  # checked when queued; kept only as a safety net
        match.delete()
        return []
    if rest and game.is_active and rows[-1].ply == game.ply - 1:
        match.start_ply, match.trigger, match.moves = game.ply, rest[0], rest
        match.save(update_fields=["start_ply", "trigger", "moves"])
    else:
        match.delete()
    return rows
