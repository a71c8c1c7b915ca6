"""What happens in games, for the apps above to react to: games knows nothing of who listens.

The games services ``publish`` each event inside the transaction that makes it happen. A
subscriber chooses, in its ``AppConfig.ready()``, when it hears of it (``subscribe``):

- ``after_commit=False``: at once, inside the transaction, with the objects (the game, the
  challenge). For writes that must stand or fall with the change: the rating of a finished
  game, the outbox rows of its emails. An error there rolls the change back.
- ``after_commit=True``: once the transaction has committed, with ids only (``game_id`` for
  ``game``, ``game_ids`` for ``games`` ...), never if it rolls back. For everything else:
  a tournament or a ladder recording a result, usually through a Celery task. The receiver
  loads what it needs and must be safe to run twice.

Receivers of one event run in the order they subscribed, which is the order of
``INSTALLED_APPS`` (rankings before notifications: the game-finished email shows the rating
change written just before it).

The events (see docs/ARCHITECTURE.md, "Events", for who listens):

- ``challenge_created(challenge)``: a challenge or an open seek was made.
- ``challenge_accepted(challenge, game)``: it was accepted and its game started.
- ``challenge_declined(challenge, by)``: a challenged player (``by``) declined it.
- ``seek_joined(challenge, user)``: a player took a seat of an open seek for more than two
  that is not full yet.
- ``game_started(games, announce)``: games began (one, or a tournament round's). ``announce``
  is True when the players are to hear of it as such (a knockout match's next pair), False
  when the starter tells them in its own words (an accepted challenge, a tournament round, a
  ladder challenge) or no one need hear (demo data).
- ``turn_started(games)``: a player's turn began (a game's first turn, or after a move that
  ended a turn, or a seat leaving). Not published after a choice in the middle of a turn (a
  Celtic Knot square, a landing that earns an extra move): the same seat goes on choosing.
- ``game_finished(game)``: a game ended by play: a last move, resignation, time (or was
  annulled because no move was ever made before the time ran out).
- ``game_result_changed(game, previous_status, previous_result)``: a moderator or an
  organiser annulled or adjudicated a game, running or finished.
- ``message_posted(message)``: a player wrote in a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import models, transaction
from django.dispatch import Signal


@dataclass(frozen=True, eq=False)
class Event:
    """One kind of thing that happens in games: a signal sent in the transaction, and one
    sent after its commit with ids in place of objects."""

    name: str
    inside: Signal = field(default_factory=Signal)
    committed: Signal = field(default_factory=Signal)

    def __repr__(self) -> str:
        return f"Event({self.name!r})"


challenge_created = Event("challenge_created")
challenge_accepted = Event("challenge_accepted")
challenge_declined = Event("challenge_declined")
seek_joined = Event("seek_joined")
game_started = Event("game_started")
turn_started = Event("turn_started")
game_finished = Event("game_finished")
game_result_changed = Event("game_result_changed")
message_posted = Event("message_posted")

EVENTS: tuple[Event, ...] = (
    challenge_created,
    challenge_accepted,
    challenge_declined,
    seek_joined,
    game_started,
    turn_started,
    game_finished,
    game_result_changed,
    message_posted,
)

Receiver = Callable[..., None]


def subscribe(event: Event, receiver: Receiver, *, after_commit: bool, dispatch_uid: str) -> None:
    """Have ``receiver`` hear of ``event``: inside its transaction with the objects, or after
    the commit with their ids (``after_commit``). Called from ``AppConfig.ready()``; the
    same ``dispatch_uid`` twice subscribes once. The receiver takes keyword arguments
    (and ``sender``, the event)."""
    signal = event.committed if after_commit else event.inside
    signal.connect(receiver, dispatch_uid=dispatch_uid, weak=False)


def publish(event: Event, **payload: Any) -> None:
    """Tell the subscribers of ``event``: those inside the transaction now, the others once
    it commits (at once when there is no transaction)."""
    event.inside.send(sender=event, **payload)
    if event.committed.has_listeners():
        ids = _ids(payload)
        transaction.on_commit(lambda: event.committed.send(sender=event, **ids))


def _ids(payload: Mapping[str, Any]) -> dict[str, Any]:
    """The payload for after-commit receivers: a model becomes ``<name>_id``, a sequence of
    models ``<name without s>_ids``; plain values stay."""
    ids: dict[str, Any] = {}
    for name, value in payload.items():
        if isinstance(value, models.Model):
            ids[f"{name}_id"] = value.pk
        elif isinstance(value, Sequence) and not isinstance(value, str):
            ids[f"{name.removesuffix('s')}_ids"] = [item.pk for item in value]
        else:
            ids[name] = value
    return ids
