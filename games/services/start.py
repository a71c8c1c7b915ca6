"""Starting games: one (``game_start``), or many at once (``games_start_many``, a
tournament round), each in its start position with seat 1's clock running."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime

from django.db.models import prefetch_related_objects
from django.utils import timezone

from games import errors, events, selectors
from games.clock import TimeControl, deadline_after
from games.kinds import DEFAULT_KIND, get_kind
from games.kinds.base import KindError
from games.models import SEATS_WITH_PLAYERS, Challenge, Game, GameSeat
from games.services.common import User


def game_start(
    *,
    players: Sequence[User],
    kind: str = DEFAULT_KIND,
    rated: bool = True,
    public: bool = True,
    window_forfeit: bool = False,
    time_control: TimeControl | None = None,
    challenge: Challenge | None = None,
    now: datetime | None = None,
    announce: bool = False,
    takebacks: bool = False,
) -> Game:
    """Create a game of ``kind`` in its start position, ``players`` in seat order, seat 1
    to move with its clock running.

    Publishes ``game_started`` (``announce``: the players are to hear of the start from games
    itself, not from the starter's own news such as a ladder challenge) and ``turn_started``."""
    tc = time_control or TimeControl()
    new, seats = _game_new(
        players=players,
        kind=kind,
        rated=rated,
        public=public,
        window_forfeit=window_forfeit,
        takebacks=takebacks,
        tc=tc,
        challenge=challenge,
    )
    game = _game_save_started(new, seats, tc=tc, now=now or timezone.now())
    events.publish(events.game_started, games=[game], announce=announce)
    events.publish(events.turn_started, games=[game])
    return game


def _game_save_started(
    game: Game, seats: list[GameSeat], *, tc: TimeControl, now: datetime
) -> Game:
    """Save the new ``game`` and its seats with seat 1's clock running; tells no one."""
    return _games_save_started([(game, seats)], tc=tc, now=now)[0]


def _games_save_started(
    new: Sequence[tuple[Game, list[GameSeat]]], *, tc: TimeControl, now: datetime
) -> list[Game]:
    """Save new games of time control ``tc`` and their seats, each with seat 1's clock
    running, in two inserts; the seats are read back with their players (one query), so
    the games are ready for the events. Tells no one."""
    _first_clocks_start(new, tc=tc, now=now)
    games = Game.objects.bulk_create([game for game, _ in new])
    for game, seats in new:
        for seat in seats:
            seat.game = game
    GameSeat.objects.bulk_create([seat for _, seats in new for seat in seats])
    prefetch_related_objects(games, SEATS_WITH_PLAYERS)
    return games


def _first_clocks_start(
    new: Sequence[tuple[Game, list[GameSeat]]], *, tc: TimeControl, now: datetime
) -> None:
    """Start seat 1's clock in each new game: its deadline is when the full bank has run,
    skipping that player's weekends and vacations, read for all the games at once
    (``selectors.clock_pauses_many``: two queries at most however many games start)."""
    first_movers = {seats[0].user.pk: seats[0].user for _, seats in new}
    pauses = selectors.clock_pauses_many(
        users=first_movers.values(),
        weekends_off=tc.weekends_off,
        vacation_allowed=tc.vacation_allowed,
        since=now,
    )
    for game, seats in new:
        game.turn_started_at = now
        bank = seats[0].time_left
        stream = pauses[seats[0].user.pk].stream(since=now)
        game.deadline = None if bank is None else deadline_after(now, bank, stream)


def _game_new(
    *,
    players: Sequence[User],
    kind: str,
    rated: bool,
    public: bool,
    window_forfeit: bool,
    tc: TimeControl,
    challenge: Challenge | None = None,
    takebacks: bool = False,
) -> tuple[Game, list[GameSeat]]:
    """An unsaved game in its start position and its unsaved seats, every bank full."""
    try:
        get_kind(kind).check_seat_count(len(players))
    except KindError as error:
        raise errors.DomainError(str(error), code="invalid_seats") from None
    if len({player.pk for player in players}) != len(players):
        raise errors.DomainError(
            "A game needs different players in every seat.", code="same_player"
        )
    game = Game(
        kind=kind,
        chance_seed=secrets.token_bytes(32).hex() if get_kind(kind).has_chance else "",
        seat_count=len(players),
        challenge=challenge,
        rated=rated,
        public=public,
        window_forfeit=window_forfeit,
        takebacks=takebacks,
        **Game.time_control_columns(tc),
        seat_to_move=1,
        turn_started_at=timezone.now(),
    )
    seats = [
        GameSeat(seat=number, user=player, time_left=tc.initial)
        for number, player in enumerate(players, start=1)
    ]
    return game, seats


def games_start_many(
    *,
    pairs: Sequence[tuple[User, User]],
    kind: str = DEFAULT_KIND,
    rated: bool = True,
    public: bool = True,
    window_forfeit: bool = False,
    time_control: TimeControl | None = None,
    now: datetime | None = None,
    announce: bool = False,
) -> list[Game]:
    """Start one two-seat game per ``(seat 1, seat 2)`` pair at once (a tournament round).

    Like ``game_start`` for each pair, but the games and their seats are written with two
    bulk inserts and the first movers' pauses (weekends, vacations) are read together however
    many games they start (``selectors.clock_pauses_many``: two queries for the whole round).
    Publishes ``game_started`` and ``turn_started`` once for all of them (``announce`` as for
    ``game_start``). Returns the games, with their ids, in the order of ``pairs``.
    """
    tc = time_control or TimeControl()
    now = now or timezone.now()
    new = [
        _game_new(
            players=pair,
            kind=kind,
            rated=rated,
            public=public,
            window_forfeit=window_forfeit,
            tc=tc,
        )
        for pair in pairs
    ]
    games = _games_save_started(new, tc=tc, now=now)
    if games:
        events.publish(events.game_started, games=games, announce=announce)
        events.publish(events.turn_started, games=games)
    return games
