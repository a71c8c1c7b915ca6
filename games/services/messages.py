"""Messages between the players of a game, reports of them to the moderators, and a
moderator hiding one."""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import audit, errors, events, selectors
from games.models import GameMessage, MessageReport
from games.services.common import User, _game_locked, _require_player
from moderation.services import audit_record


@transaction.atomic
def message_post(*, game_id: int, author: User, body: str) -> GameMessage:
    """``author``, a player of the game, writes to their opponent (during or after the game).

    The game row is locked like any other write to the game; the opponent is emailed after
    the commit if they want message emails.
    """
    game = _game_locked(game_id)
    _require_player(game, author)
    body = _require_text(body, what="message", limit=GameMessage.MAX_LENGTH, code="message")
    message = GameMessage.objects.create(game=game, author=author, body=body)
    events.publish(events.message_posted, message=message)
    return message


@transaction.atomic
def message_report(*, game_id: int, message_id: int, reporter: User, reason: str) -> MessageReport:
    """A reader tells the moderators that a message breaks the rules; once per reader."""
    message = selectors.message_get_readable(game_id=game_id, message_id=message_id, user=reporter)
    if message.author_id == reporter.pk:
        raise errors.NotPermitted("You cannot report your own message.", code="own_message")
    if message.is_hidden:
        raise errors.MessageAlreadyHidden(
            f"Message #{message.pk} is already hidden by a moderator."
        )
    reason = _require_text(
        reason,
        what="reason",
        limit=MessageReport._meta.get_field("reason").max_length,
        code="reason",
    )
    try:
        with transaction.atomic():
            return MessageReport.objects.create(message=message, reporter=reporter, reason=reason)
    except IntegrityError:
        raise errors.AlreadyReported(
            f"You have already reported message #{message.pk}; the moderators will look at it."
        ) from None


@transaction.atomic
def message_hide(
    *, game_id: int, message_id: int, moderator: User, reason: str, now: datetime | None = None
) -> GameMessage:
    """A moderator hides a message from everyone but moderators, and closes its reports.

    Readers then see a placeholder; the audit log records who hid it and why.
    """
    if not selectors.user_moderates_messages(user=moderator):
        raise errors.NotPermitted("Only moderators can hide messages.", code="not_a_moderator")
    message = _message_locked(game_id=game_id, message_id=message_id)
    if message.is_hidden:
        raise errors.MessageAlreadyHidden(
            f"Message #{message.pk} was already hidden on {message.hidden_at:%Y-%m-%d %H:%M} UTC."
        )
    reason = _require_text(
        reason,
        what="reason",
        limit=GameMessage._meta.get_field("hidden_reason").max_length,
        code="reason",
    )
    now = now or timezone.now()
    message.hidden_at, message.hidden_by, message.hidden_reason = now, moderator, reason
    message.save(update_fields=["hidden_at", "hidden_by", "hidden_reason"])
    resolved = message.reports.filter(resolved_at__isnull=True).update(resolved_at=now)
    audit_record(
        actor=moderator,
        action=audit.MESSAGE_HIDE,
        target=message,
        reason=reason,
        data={
            "game": message.game_id,
            "author": message.author_id,
            "body": message.body,
            "reports_resolved": resolved,
        },
    )
    return message


def _message_locked(*, game_id: int, message_id: int) -> GameMessage:
    try:
        return GameMessage.objects.select_for_update().get(pk=message_id, game_id=game_id)
    except GameMessage.DoesNotExist:
        raise errors.MessageNotFound(
            f"There is no message #{message_id} in game #{game_id}."
        ) from None


def _require_text(text: str, *, what: str, limit: int, code: str) -> str:
    """``text`` without surrounding blanks, if it is 1 to ``limit`` characters long."""
    text = text.strip()
    if not text:
        raise errors.DomainError(
            f"The {what} is empty: write 1 to {limit} characters.", code=f"{code}_required"
        )
    if len(text) > limit:
        raise errors.DomainError(
            f"The {what} is {len(text)} characters long; at most {limit} are allowed.",
            code=f"{code}_too_long",
        )
    return text
