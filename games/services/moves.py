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
from games.engine import replay, step_to_row_fields
from games.kinds.base import KindError, State, Step
from games.models import ConditionalLine, Game, Move
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
    state: State
    clock: ClockReading | None


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

    Records the steps the game's kind makes of it (the move, a forfeited turn, automatic
    passes), runs the clocks, and finishes the game when the kind says it is over. If the
    next player had
    queued a reply to this move (a conditional line), it is played too, in this transaction.
    """
    now = now or timezone.now()
    game = _game_locked(game_id, flags_at=now)
    seat = _require_player(game, user)
    _require_active(game)
    if expected_ply != game.ply:
        raise errors.StalePly(
            f"The game is at ply {game.ply}, not {expected_ply}: reload it and try again.",
            current_ply=game.ply,
        )
    if game.seat_to_move != seat:
        raise errors.NotYourTurn(f"It is {game.seat_name(game.seat_to_move)}'s turn, not yours.")
    if game.deadline is not None and now > game.deadline:
        raise errors.GameNotActive(
            f"Your time ran out at {game.deadline:%Y-%m-%d %H:%M} UTC; the game is being decided.",
            code="time_expired",
        )
    recorded = list(game.moves.order_by("ply"))
    state = replay(recorded, game)
    away = game.has_vacations
    rows, vacations = _move_record(
        game, state=state, seat=seat, choice=notation, now=now, away=away
    )
    if game.is_active and game.has_lines:
        rows += _conditional_reply(game, state=state, played=rows[0], now=now, away=away)
    # a choice in the middle of a turn (Celtic Knot's square, a landing that earns an extra
    # move) starts no turn: the mover sees what comes next where they chose
    if game.is_active and _turn_over(state, seat=seat, played=[row.seat for row in rows]):
        events.publish(events.turn_started, games=[game])
    mover = game.user_to_move()
    mover_vacations = None if mover is None else vacations.get(mover.pk)
    return MoveOutcome(
        game=game,
        turns=rows,
        moves=[*recorded, *rows],
        state=state,
        clock=selectors.game_clock(game=game, now=now, vacations=mover_vacations or ()),
    )


def _move_record(
    game: Game, *, state: State, seat: int, choice: str, now: datetime, away: bool
) -> tuple[list[Move], VacationsByUser]:
    """Play ``choice`` for ``seat`` on ``state``, the position of the locked ``game``: append
    the steps it makes (automatic ones included), run the clocks, and finish the game or start
    the next turn. Tells no one. Answers the rows recorded and the players' vacations it read
    (``away``: whether any player has a vacation ending after ``now``; if not, none are
    read)."""
    try:
        steps = state.play(choice)
    except KindError as exc:
        raise errors.refused_choice(game.game_kind, exc) from None
    rows = _steps_record(game, steps)
    vacations = (  # every player's (the next deadline may be anyone's), in one query
        vacation_intervals_by_user(user_ids=[user.pk for user in game.seat_users()], since=now)
        if game.deadline is not None and away
        else {}
    )
    # the same turn goes on (a square, a landing that earns an extra move): its clock too
    if not _turn_over(state, seat=seat, played=[step.seat for step in steps]):
        game.save(update_fields=["ply"])
        return rows, vacations
    bank_before = game.seat_time_left(seat)
    running_left = _clock_after_move(game, seat=seat, now=now, vacations=vacations)
    if game.seat_time_left(seat) != bank_before:
        game.seat_row(seat).save(update_fields=["time_left"])
    if state.is_over():
        game_finish(game=game, state=state, termination=Game.Termination.NORMAL, now=now)
    else:
        game.clock_before_last_move = _clock_snapshot(
            ply=rows[0].ply, bank=bank_before, running_left=running_left
        )
        game.seat_to_move = state.to_act
        _clock_start_turn(game, now=now, vacations=vacations)
        game.save(update_fields=_TURN_FIELDS)
    return rows, vacations


def _turn_over(state: State, *, seat: int, played: list[int]) -> bool:
    """Whether ``seat``'s turn ended with the steps just played (``played``: their seats):
    the game is over, another seat is to act, or another seat's step came in between (a
    Celtic! pass, a conditional reply). A kind whose turn has several choices (Celtic Knot's
    square, then destination) keeps one clock running through them, and starts no turn."""
    return state.is_over() or state.to_act != seat or any(other != seat for other in played)


def _steps_record(game: Game, steps: list[Step]) -> list[Move]:
    """Append a row per step to the locked ``game`` and count them in its ply."""
    rows = [
        Move.objects.create(game=game, ply=game.ply + i, **step_to_row_fields(step))
        for i, step in enumerate(steps)
    ]
    game.ply += len(rows)
    return rows


#: What a move that does not end the game changes on the game row.
_TURN_FIELDS = ["ply", "seat_to_move", "turn_started_at", "deadline", "clock_before_last_move"]


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
    game: Game, *, state: State, played: Move, now: datetime, away: bool
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
    owner_seat = game.seat_to_move
    owner_id = game.user_at(owner_seat).pk
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
        rows, _ = _move_record(game, state=state, seat=owner_seat, choice=reply, now=now, away=away)
    except errors.IllegalMove:  # checked when queued; kept only as a safety net
        match.delete()
        return []
    if rest and game.is_active and rows[-1].ply == game.ply - 1:
        match.start_ply, match.trigger, match.moves = game.ply, rest[0], rest
        match.save(update_fields=["start_ply", "trigger", "moves"])
    else:
        match.delete()
    return rows
