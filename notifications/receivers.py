"""Notifications listens to games: each receiver queues a game's emails (outbox rows) inside
the transaction that made the event happen, so the email stands or falls with the change.

Subscribed in ``NotificationsConfig.ready()``; notifications sits above games, so it may name
games' models, while games knows nothing of notifications.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games import events
from games.models import Challenge, Game, GameMessage
from notifications import events as emails


def _challenge_created(*, challenge: Challenge, **_: Any) -> None:
    emails.on_challenge_received(challenge)


def _challenge_accepted(*, challenge: Challenge, game: Game, **_: Any) -> None:
    emails.on_challenge_accepted(challenge, game)


def _challenge_declined(*, challenge: Challenge, by: Any = None, **_: Any) -> None:
    emails.on_challenge_declined(challenge, by=by)


def _game_started(*, games: Sequence[Game], announce: bool, **_: Any) -> None:
    """Games that began without their players' own doing hear of it (``announce``)."""
    if announce:
        for game in games:
            emails.on_game_started(game)


def _turn_started(*, games: Sequence[Game], **_: Any) -> None:
    """The player to move hears it is their turn: many games (a round) in one bulk write."""
    if len(games) == 1:
        emails.on_turn(games[0])
    else:
        emails.on_turns(games)


def _game_ended(*, game: Game, **_: Any) -> None:
    """A game ended, or a moderator changed how: both players hear the result."""
    emails.on_game_finished(game)


def _message_posted(*, message: GameMessage, **_: Any) -> None:
    emails.on_game_message(message)


RECEIVERS: tuple[tuple[events.Event, events.Receiver], ...] = (
    (events.challenge_created, _challenge_created),
    (events.challenge_accepted, _challenge_accepted),
    (events.challenge_declined, _challenge_declined),
    (events.game_started, _game_started),
    (events.turn_started, _turn_started),
    (events.game_finished, _game_ended),
    (events.game_result_changed, _game_ended),
    (events.message_posted, _message_posted),
)


def games_events_subscribe() -> None:
    """Subscribe the games' emails to games' events, inside the transaction."""
    for event, receiver in RECEIVERS:
        events.subscribe(
            event, receiver, after_commit=False, dispatch_uid=f"notifications.{event.name}"
        )
