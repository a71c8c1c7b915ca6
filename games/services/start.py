"""Starting games: one (``game_start``), or many at once (``games_start_many``, a
tournament round), each in its start position with Orange's clock running."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.utils import timezone

from games import errors, events, selectors
from games.clock import TimeControl, deadline_after
from games.models import Challenge, Game, Side
from games.services.clocks import _clock_start_turn
from games.services.common import User


def game_start(
    *,
    players: Sequence[User] = (),
    orange: User | None = None,
    blue: User | None = None,
    kind: str = "celtic",
    rated: bool = True,
    public: bool = True,
    window_forfeit: bool = False,
    time_control: TimeControl | None = None,
    challenge: Challenge | None = None,
    now: datetime | None = None,
    announce: bool = False,
    takebacks: bool = False,
) -> Game:
    """Create a game in its start position, Orange to move, Orange's clock running.

    Publishes ``game_started`` (``announce``: the players are to hear of the start from games
    itself, not from the starter's own news such as a ladder challenge) and ``turn_started``.
    ``players`` are in seat order (``orange``/``blue``: the old names of seats 1 and 2)."""
    if players:
        orange, blue = players
    assert orange is not None and blue is not None
    new = _game_new(
        orange=orange,
        blue=blue,
        rated=rated,
        public=public,
        window_forfeit=window_forfeit,
        takebacks=takebacks,
        tc=time_control or TimeControl(),
        challenge=challenge,
    )
    game = _game_save_started(new, now=now or timezone.now())
    events.publish(events.game_started, games=[game], announce=announce)
    events.publish(events.turn_started, games=[game])
    return game


def _game_save_started(game: Game, *, now: datetime) -> Game:
    """Save the new ``game`` with Orange's clock running; tells no one."""
    _clock_start_turn(game, now=now)
    game.save()
    return game


def _game_new(
    *,
    orange: User,
    blue: User,
    rated: bool,
    public: bool,
    window_forfeit: bool,
    tc: TimeControl,
    challenge: Challenge | None = None,
    takebacks: bool = False,
) -> Game:
    """An unsaved game in its start position, Orange to move, both banks full."""
    if orange.pk == blue.pk:
        raise errors.DomainError("A game needs two different players.", code="same_player")
    return Game(
        orange=orange,
        blue=blue,
        challenge=challenge,
        rated=rated,
        public=public,
        window_forfeit=window_forfeit,
        takebacks=takebacks,
        **Game.time_control_columns(tc),
        to_move=Side.ORANGE,
        orange_time_left=tc.initial,
        blue_time_left=tc.initial,
    )


def games_start_many(
    *,
    pairs: Sequence[tuple[User, User]],
    rated: bool = True,
    public: bool = True,
    window_forfeit: bool = False,
    time_control: TimeControl | None = None,
    now: datetime | None = None,
    announce: bool = False,
) -> list[Game]:
    """Start one game per ``(orange, blue)`` pair at once (a tournament round).

    Like ``game_start`` for each pair, but the games are written with one bulk insert and
    the Orange players' pauses (weekends, vacations) are read together however many games they
    start (``selectors.clock_pauses_many``: two queries for the whole round). Publishes
    ``game_started`` and ``turn_started`` once for all of them (``announce`` as for
    ``game_start``). Returns the games, with their ids, in the order of ``pairs``.
    """
    tc = time_control or TimeControl()
    now = now or timezone.now()
    games = [
        _game_new(
            orange=orange,
            blue=blue,
            rated=rated,
            public=public,
            window_forfeit=window_forfeit,
            tc=tc,
        )
        for orange, blue in pairs
    ]
    pauses = selectors.clock_pauses_many(
        users={game.orange.pk: game.orange for game in games}.values(),
        weekends_off=tc.weekends_off,
        vacation_allowed=tc.vacation_allowed,
        since=now,
    )
    for game in games:
        game.turn_started_at = now
        bank = game.time_left(Side.ORANGE)
        game.deadline = (
            None
            if bank is None
            else deadline_after(now, bank, pauses[game.orange.pk].stream(since=now))
        )
    games = Game.objects.bulk_create(games)
    if games:
        events.publish(events.game_started, games=games, announce=announce)
        events.publish(events.turn_started, games=games)
    return games
