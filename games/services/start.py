"""Starting games: one (``game_start``), or many at once (``games_start_many``, a
tournament round), each in its start position with seat 1's clock running."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime

from django.utils import timezone

from games import errors, events, selectors
from games.clock import TimeControl, deadline_after
from games.kinds import DEFAULT_KIND, get_kind
from games.kinds.base import KindError
from games.models import Challenge, Game, GameSeat
from games.services.clocks import _clock_start_turn
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
    new, seats = _game_new(
        players=players,
        kind=kind,
        rated=rated,
        public=public,
        window_forfeit=window_forfeit,
        takebacks=takebacks,
        tc=time_control or TimeControl(),
        challenge=challenge,
    )
    game = _game_save_started(new, seats, now=now or timezone.now())
    events.publish(events.game_started, games=[game], announce=announce)
    events.publish(events.turn_started, games=[game])
    return game


def _game_save_started(game: Game, seats: list[GameSeat], *, now: datetime) -> Game:
    """Save the new ``game`` and its seats with seat 1's clock running; tells no one."""
    _keep_seats(game, seats)
    _clock_start_turn(game, now=now)
    game.save()
    for seat in seats:
        seat.game = game
    GameSeat.objects.bulk_create(seats)
    return game


def _keep_seats(game: Game, seats: list[GameSeat]) -> None:
    """Give ``game`` its new seats as if prefetched, so reading them costs no query."""
    game._prefetched_objects_cache = {"seats": seats}  # as prefetch_related leaves it


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
    pauses = selectors.clock_pauses_many(
        users={first.pk: first for first, _ in pairs}.values(),
        weekends_off=tc.weekends_off,
        vacation_allowed=tc.vacation_allowed,
        since=now,
    )
    for (game, seats), (first, _) in zip(new, pairs, strict=True):
        game.turn_started_at = now
        bank = seats[0].time_left
        game.deadline = (
            None if bank is None else deadline_after(now, bank, pauses[first.pk].stream(since=now))
        )
    games = Game.objects.bulk_create([game for game, _ in new])
    for game, seats in new:
        for seat in seats:
            seat.game = game
        _keep_seats(game, seats)
    GameSeat.objects.bulk_create([seat for _, seats in new for seat in seats])
    if games:
        events.publish(events.game_started, games=games, announce=announce)
        events.publish(events.turn_started, games=games)
    return games
