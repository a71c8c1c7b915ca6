"""The ranking listens to games: a rated game's result moves the ratings inside the
transaction that decided it, so a result and its ratings never disagree.

Subscribed in ``RankingsConfig.ready()``; games knows nothing of the ranking.
"""

from __future__ import annotations

from typing import Any

from games import events
from games.models import Game
from rankings.services import rating_game_changed, rating_game_finished


def _game_finished(*, game: Game, **_: Any) -> None:
    """A rated game was played to its end (one annulled for want of a move counts for none)."""
    if game.rated and game.status == Game.Status.FINISHED:
        rating_game_finished(game=game)


def _game_result_changed(*, game: Game, previous_status: str, **_: Any) -> None:
    """A moderator or organiser annulled or adjudicated a rated game: a running game that
    now has a result is rated like one played out; a finished one is re-rated."""
    if not game.rated:
        return
    if previous_status == Game.Status.ACTIVE and game.status == Game.Status.FINISHED:
        rating_game_finished(game=game)
    elif previous_status != Game.Status.ACTIVE or game.status == Game.Status.FINISHED:
        rating_game_changed(game=game)


def games_events_subscribe() -> None:
    """Rate results inside the transaction that decides them."""
    events.subscribe(
        events.game_finished, _game_finished, after_commit=False, dispatch_uid="rankings.finished"
    )
    events.subscribe(
        events.game_result_changed,
        _game_result_changed,
        after_commit=False,
        dispatch_uid="rankings.result_changed",
    )
