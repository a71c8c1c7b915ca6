"""Takebacks both players agree to: a player asks to take back their last move before their
opponent has moved; the opponent accepts (the move is removed, the position and both clocks
are as they were, the time since lost by no one) or declines. Rated games allow it only if
created with takebacks allowed; games of a tournament, a league or a ladder never. Every step
is audited."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games import audit, errors, selectors
from games.models import ConditionalLine, Game, Move, TakebackRequest
from games.services.clocks import _deadline_from
from games.services.common import User, _game_locked, _require_active, _require_player
from moderation.services import audit_record


def _takebacks_allowed(game: Game) -> None:
    refusal = selectors.takeback_refusal(game=game)
    if refusal is not None:
        raise errors.NotPermitted(refusal, code="takeback_not_allowed")


def _last_move_of(game: Game, seat: int) -> Move:
    """The game's last turn if it is ``seat``'s own move and another seat is to move."""
    last = game.moves.order_by("-ply").first()
    if (
        last is None
        or last.seat != seat
        or last.kind == Move.Kind.PASS
        or game.seat_to_move == seat
    ):
        raise errors.Conflict(
            "You can take back only your last move, before your opponent has moved.",
            code="nothing_to_take_back",
        )
    return last


@transaction.atomic
def takeback_request(*, game_id: int, user: User, expected_ply: int) -> TakebackRequest:
    """``user`` asks to take back their last move (the game at ``expected_ply``)."""
    game = _game_locked(game_id)
    seat = _require_player(game, user)
    _require_active(game)
    _takebacks_allowed(game)
    if expected_ply != game.ply:
        raise errors.StalePly(
            f"The game is at ply {game.ply}, not {expected_ply}: reload it and try again.",
            current_ply=game.ply,
        )
    last = _last_move_of(game, seat)
    if TakebackRequest.objects.filter(game=game, ply=game.ply).exists():
        raise errors.Conflict(
            f"A takeback of {last.notation} was already asked; ask once per move.",
            code="takeback_already_asked",
        )
    request = TakebackRequest.objects.create(
        game=game, requester=user, ply=game.ply, move=last.notation
    )
    audit_record(
        actor=user, action=audit.TAKEBACK_REQUEST, target=game, data={"move": last.notation}
    )
    return request


@transaction.atomic
def takeback_answer(
    *, game_id: int, user: User, accept: bool, now: datetime | None = None
) -> TakebackRequest:
    """``user`` accepts or declines the takeback their opponent asked in the current
    position. Accepting removes the move and restores the position and the clocks."""
    now = now or timezone.now()
    game = _game_locked(game_id)
    seat = _require_player(game, user)
    _require_active(game)
    request = selectors.takeback_pending(game=game)
    if request is None or request.requester_id == user.pk or game.seat_to_move != seat:
        raise errors.Conflict(
            "No takeback from your opponent is waiting for your answer.", code="no_takeback"
        )
    request.status = TakebackRequest.Status.ACCEPTED if accept else TakebackRequest.Status.DECLINED
    request.decided_at = now
    request.save(update_fields=["status", "decided_at"])
    if accept:
        _take_back(game, mover=game.seat_of(request.requester), now=now)
    action = audit.TAKEBACK_ACCEPT if accept else audit.TAKEBACK_DECLINE
    audit_record(actor=user, action=action, target=game, data={"move": request.move})
    return request


def _take_back(game: Game, *, mover: int | None, now: datetime) -> None:
    """Remove ``mover``'s last move from the locked ``game``: their turn again, their bank
    as before the move and the running time they had left then, counted from ``now``."""
    Move.objects.filter(game=game, ply=game.ply - 1).delete()
    ConditionalLine.objects.filter(game=game).delete()  # queued against a position now gone
    assert mover is not None, "the requester holds a seat"
    game.ply -= 1
    game.seat_to_move = mover
    snapshot = game.clock_before_last_move or {}
    game.clock_before_last_move = None
    bank, running_left = snapshot.get("bank"), snapshot.get("running_left")
    seat = game.seat_row(mover)
    if snapshot.get("ply") == game.ply and bank is not None:
        seat.time_left = timedelta(seconds=bank)
        seat.save(update_fields=["time_left"])
    game.turn_started_at = now
    if seat.time_left is None:
        game.deadline = None
    else:
        budget = seat.time_left
        if running_left is not None and snapshot.get("ply") == game.ply:
            budget = timedelta(seconds=running_left)
        assert budget is not None
        game.deadline = _deadline_from(game, now=now, budget=budget)
    game.save(
        update_fields=[
            "ply",
            "seat_to_move",
            "turn_started_at",
            "deadline",
            "clock_before_last_move",
        ]
    )
