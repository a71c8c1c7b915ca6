"""The end of a game: finished by the rules or on time, resigned, annulled or adjudicated
by a moderator. Each publishes its event (``game_finished``, ``game_result_changed``)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games import audit, errors, events
from games.models import Game, Result
from games.services.common import User, _game_locked, _require_active, _require_player
from moderation.services import audit_record


def game_finish(*, game: Game, result: str, termination: str, now: datetime) -> None:
    """Save the end of a locked, active ``game`` and publish ``game_finished`` (the ranking
    moves the players' ratings, in this transaction, if it is rated)."""
    game.end(status=Game.Status.FINISHED, result=result, termination=termination, finished_at=now)
    game.save()
    events.publish(events.game_finished, game=game)


@transaction.atomic
def game_resign(*, game_id: int, user: User, now: datetime | None = None) -> Game:
    """``user`` gives up; the opponent wins."""
    game = _game_locked(game_id)
    side = _require_player(game, user)
    _require_active(game)
    game_finish(
        game=game,
        result=Result.loss_for(side),
        termination=Game.Termination.RESIGNATION,
        now=now or timezone.now(),
    )
    return game


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
        result=Result.NONE,
        termination=Game.Termination.ANNULLED,
        finished_at=game.finished_at or timezone.now(),
    )
    game.save()
    audit_record(actor=actor, action=audit.GAME_ANNUL, target=game, reason=reason, data=previous)
    _result_changed(game, previous=previous)
    return game


@transaction.atomic
def game_adjudicate(
    *, game_id: int, actor: User, result: str, reason: str, moderator_check: bool = True
) -> Game:
    """A moderator decides the result of a game (in progress or finished).

    ``moderator_check=False`` as for ``game_annul``."""
    if result not in {Result.ORANGE_WINS, Result.BLUE_WINS, Result.DRAW}:
        raise errors.DomainError(
            f"result {result!r} is not one of 1-0, 0-1, 1/2-1/2.", code="invalid_result"
        )
    if moderator_check:
        _require_moderator(actor, "games.adjudicate_game")
    game = _game_locked(game_id)
    reason = _require_reason(reason)
    previous = {"status": game.status, "result": game.result}
    game.end(
        status=Game.Status.FINISHED,
        result=result,
        termination=Game.Termination.ADJUDICATION,
        finished_at=game.finished_at or timezone.now(),
    )
    game.save()
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
