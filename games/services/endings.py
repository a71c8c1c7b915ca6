"""The end of a game: finished by the rules or on time, resigned, annulled or adjudicated
by a moderator. Each publishes its event (``game_finished``, ``game_result_changed``)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games import audit, errors, events
from games.engine import game_state, step_to_row_fields
from games.kinds.base import Departure, FinishingOrder, KindError, State
from games.models import Game, GameSeat, Move
from games.services.clocks import _clock_start_turn
from games.services.common import User, _game_locked, _require_active, _require_player
from moderation.services import audit_record


def game_finish(*, game: Game, state: State, termination: str, now: datetime) -> None:
    """Save the end of a locked, active ``game`` whose kind says ``state`` is over, and publish
    ``game_finished`` (the ranking moves the players' ratings, in this transaction, if it is
    rated)."""
    order = state.finishing_order()
    assert order is not None, "the kind says the game is over"
    _game_end(game, order=order, termination=termination, finished_at=now)
    events.publish(events.game_finished, game=game)


def _game_end(
    game: Game, *, order: FinishingOrder, termination: str, finished_at: datetime
) -> None:
    """Save ``game`` as finished in ``order``: its result text and every seat's place."""
    game.end(
        status=Game.Status.FINISHED,
        result=game.game_kind.result_text(order),
        termination=termination,
        finished_at=finished_at,
    )
    game.save()
    _places_save(game, order)


def _places_save(game: Game, order: FinishingOrder | None) -> None:
    """Give each seat its place in ``order`` (seats sharing a group share the place; None
    clears them, for an annulled game)."""
    places = {}
    place = 1
    for group in order or ():
        places.update(dict.fromkeys(group, place))
        place += len(group)
    seats = game.seat_list
    for seat in seats:
        seat.place = places.get(seat.seat)
    GameSeat.objects.bulk_update(seats, ["place"])


@transaction.atomic
def game_resign(*, game_id: int, user: User, now: datetime | None = None) -> Game:
    """``user`` gives up: their kind says what that does (in a two-player game the other
    wins; with more players the others may play on)."""
    game = _game_locked(game_id)
    seat = _require_player(game, user)
    _require_active(game)
    left_at = game.seat_row(seat).left_at_ply
    if left_at is not None:
        raise errors.Conflict(
            f"You left game #{game.pk} already (at ply {left_at}); the others play on.",
            code="already_left",
        )
    game_seat_leave(
        game=game,
        seat=seat,
        how=Departure.RESIGN,
        termination=Game.Termination.RESIGNATION,
        now=now or timezone.now(),
    )
    return game


def game_seat_leave(
    *, game: Game, seat: int, how: Departure, termination: str, now: datetime
) -> list[Move]:
    """``seat`` of the locked, active ``game`` resigns or runs out of time. If that ends the
    game it finishes with ``termination``; otherwise the seat's leaving is recorded, and the
    turn moves on if it was theirs. Answers the rows recorded."""
    state = game_state(game)
    steps = state.leave(seat, how)
    rows = [
        Move.objects.create(game=game, ply=game.ply + i, **step_to_row_fields(step))
        for i, step in enumerate(steps)
    ]
    game.ply += len(rows)
    if state.is_over():
        game_finish(game=game, state=state, termination=termination, now=now)
        return rows
    left = game.seat_row(seat)
    left.left_at_ply = game.ply
    left.save(update_fields=["left_at_ply"])
    if state.to_act != game.seat_to_move:
        game.seat_to_move = state.to_act
        _clock_start_turn(game, now=now)
    game.save(update_fields=["ply", "seat_to_move", "turn_started_at", "deadline"])
    events.publish(events.turn_started, games=[game])
    return rows


@transaction.atomic
def game_annul(*, game_id: int, actor: User, reason: str, moderator_check: bool = True) -> Game:
    """A moderator voids a game: it stays visible but counts for nothing.

    ``moderator_check=False`` is for a caller that applied its own rule to ``actor`` (a
    tournament's organiser or arbiter, in ``tournaments.services``)."""
    if moderator_check:
        _require_moderator(actor, "games.annul_game")
    game = _game_locked(game_id)
    reason = _require_reason(reason)
    if game.status == Game.Status.ANNULLED:
        raise errors.GameNotActive(f"Game #{game.pk} is already annulled.", code="already_annulled")
    previous = {"status": game.status, "result": game.result}
    game.end(
        status=Game.Status.ANNULLED,
        result="",
        termination=Game.Termination.ANNULLED,
        finished_at=game.finished_at or timezone.now(),
    )
    game.save()
    _places_save(game, None)
    audit_record(actor=actor, action=audit.GAME_ANNUL, target=game, reason=reason, data=previous)
    _result_changed(game, previous=previous)
    return game


@transaction.atomic
def game_adjudicate(
    *, game_id: int, actor: User, result: str, reason: str, moderator_check: bool = True
) -> Game:
    """A moderator decides the result of a game (in progress or finished): ``result`` is its
    kind's result text (Celtic!: 1-0, 0-1, 1/2-1/2), which gives the finishing order.

    ``moderator_check=False`` as for ``game_annul``."""
    if moderator_check:
        _require_moderator(actor, "games.adjudicate_game")
    game = _game_locked(game_id)
    try:
        order = game.game_kind.order_from_result(result, game.seat_count)
    except KindError as error:
        raise errors.DomainError(str(error), code="invalid_result") from None
    reason = _require_reason(reason)
    previous = {"status": game.status, "result": game.result}
    _game_end(
        game,
        order=order,
        termination=Game.Termination.ADJUDICATION,
        finished_at=game.finished_at or timezone.now(),
    )
    audit_record(
        actor=actor,
        action=audit.GAME_ADJUDICATE,
        target=game,
        reason=reason,
        data={"previous": previous, "result": result},
    )
    _result_changed(game, previous=previous)
    return game


def _result_changed(game: Game, *, previous: dict[str, str]) -> None:
    events.publish(
        events.game_result_changed,
        game=game,
        previous_status=previous["status"],
        previous_result=previous["result"],
    )


def _require_moderator(actor: User, permission: str) -> None:
    """Active staff holding ``permission`` (the admin checks it too, before offering)."""
    if not (actor.is_active and actor.is_staff and actor.has_perm(permission)):
        raise errors.NotPermitted(
            f"Only moderators with the {permission} permission can do this.",
            code="not_a_moderator",
        )


def _require_reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise errors.DomainError(
            "A reason is required: say why, for the players and the audit log.",
            code="reason_required",
        )
    return reason
