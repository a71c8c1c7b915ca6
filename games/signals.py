"""Hooks other apps subscribe to, so that games never import them.

``game_ended`` is sent after the commit of every transaction that ends a game or changes how
it ended (finished, annulled, adjudicated, timed out). Receivers get ``game_id`` only and
load what they need; they must be safe to run twice for the same game.
"""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

game_ended = Signal()
"""Sent with ``game_id`` once a game's end (or a change to it) is committed."""


def game_ended_announce(*, game_id: int) -> None:
    """Send ``game_ended`` for ``game_id`` when the current transaction commits."""
    transaction.on_commit(lambda: game_ended.send(sender=None, game_id=game_id))
