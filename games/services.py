"""Writes for challenges and games. Every rule of the game is the engine's (games.rules).

Each write that touches a game runs in ``transaction.atomic()`` with the game row locked by
``select_for_update`` and, for moves, the ply the client expects: two racing submissions are
serialised by the lock and the second one finds the ply moved on.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from accounts.models import Vacation
from accounts.selectors import vacation_intervals_by_user
from games import errors, events, selectors
from games.clock import (
    ClockReading,
    Interval,
    Pauses,
    TimeControl,
    deadline_after,
    running_time,
)
from games.engine import game_state, replay, turn_to_row_fields, variant_of
from games.models import (
    Challenge,
    ConditionalLine,
    Game,
    GameMessage,
    MessageReport,
    Move,
    Result,
    Side,
)
from games.rules import GameState, IllegalMoveError, NotationError
from games.rules import Move as EngineMove
from games.selectors import clock_pauses

User = AbstractBaseUser
#: Vacations (start, end) by user id, as ``accounts.selectors.vacation_intervals_by_user``.
VacationsByUser = dict[int, tuple[Interval, ...]]


@dataclass(frozen=True)
class MoveOutcome:
    """What a move submission recorded: the game after it and the turns appended."""

    game: Game
    turns: list[Move]
    #: Every recorded turn and the position after them, and the clock of the player to
    #: move: what an answer shows, without reading the moves again.
    moves: list[Move]
    state: GameState
    clock: ClockReading | None


# --- Challenges ---------------------------------------------------------------------------


@transaction.atomic
def challenge_create(
    *,
    challenger: User,
    opponent: User | None = None,
    colour: str = Challenge.ColourChoice.RANDOM,
    rated: bool = True,
    public: bool = True,
    window_forfeit: bool = False,
    time_control: TimeControl | None = None,
    message: str = "",
) -> Challenge:
    """Offer a game to ``opponent``, or to anyone when ``opponent`` is None."""
    if opponent is not None and opponent.pk == challenger.pk:
        raise errors.DomainError("You cannot challenge yourself.", code="self_challenge")
    if opponent is not None and not opponent.is_active:
        raise errors.DomainError(
            f"{opponent} cannot be challenged: the account is suspended.", code="opponent_inactive"
        )
    if colour not in Challenge.ColourChoice.values:
        raise errors.DomainError(
            f"colour {colour!r} is not one of {', '.join(Challenge.ColourChoice.values)}.",
            code="invalid_colour",
        )
    tc = time_control or TimeControl()
    challenge = Challenge.objects.create(
        challenger=challenger,
        opponent=opponent,
        colour=colour,
        rated=rated,
        public=public,
        window_forfeit=window_forfeit,
        message=message,
        **Challenge.time_control_columns(tc),
    )
    events.publish(events.challenge_created, challenge=challenge)
    return challenge


def _challenge_locked(challenge_id: int) -> Challenge:
    try:
        return Challenge.objects.select_for_update().get(pk=challenge_id)
    except Challenge.DoesNotExist:
        raise errors.ChallengeNotFound(f"There is no challenge #{challenge_id}.") from None


def _require_open(challenge: Challenge) -> None:
    if challenge.status != Challenge.Status.OPEN:
        raise errors.ChallengeNotOpen(
            f"Challenge #{challenge.pk} is {challenge.get_status_display().lower()}, not open."
        )


@transaction.atomic
def challenge_accept(
    *, challenge_id: int, user: User, rng: random.Random | None = None, now: datetime | None = None
) -> Game:
    """Accept an open seek or a challenge addressed to ``user``; the game starts at once."""
    challenge = _challenge_locked(challenge_id)
    _require_open(challenge)
    if not user.is_active:
        raise errors.AccountSuspended("Your account is suspended: you cannot start games.")
    if challenge.challenger_id == user.pk:
        raise errors.NotPermitted(
            "You cannot accept your own challenge; cancel it instead.", code="own_challenge"
        )
    if not challenge.challenger.is_active:
        raise errors.ChallengerSuspended(
            f"Challenge #{challenge.pk} cannot be accepted: "
            f"{challenge.challenger.get_username()}'s account is suspended."
        )
    if challenge.opponent_id is not None and challenge.opponent_id != user.pk:
        raise errors.NotPermitted(
            f"Challenge #{challenge.pk} is addressed to someone else.", code="not_addressed_to_you"
        )
    challenger_side = challenge.colour
    if challenger_side == Challenge.ColourChoice.RANDOM:
        challenger_side = (rng or random.SystemRandom()).choice([Side.ORANGE, Side.BLUE])
    orange, blue = (challenge.challenger, user)
    if challenger_side != Side.ORANGE:
        orange, blue = blue, orange
    now = now or timezone.now()
    challenge.status = Challenge.Status.ACCEPTED
    challenge.opponent = user
    challenge.decided_at = now
    challenge.save(update_fields=["status", "opponent", "decided_at"])
    new = _game_new(
        orange=orange,
        blue=blue,
        rated=challenge.rated,
        public=challenge.public,
        window_forfeit=challenge.window_forfeit,
        tc=challenge.time_control,
        challenge=challenge,
    )
    game = _game_save_started(new, now=now)
    events.publish(events.game_started, games=[game], announce=False)
    events.publish(events.challenge_accepted, challenge=challenge, game=game)
    events.publish(events.turn_started, games=[game])  # the first mover's "your turn"
    return game


@transaction.atomic
def challenge_decline(*, challenge_id: int, user: User) -> Challenge:
    """Decline a challenge addressed to ``user``; the challenger hears of it by email."""
    challenge = _challenge_locked(challenge_id)
    _require_open(challenge)
    if challenge.opponent_id != user.pk:
        raise errors.NotPermitted(
            "Only the challenged player can decline a direct challenge.",
            code="not_addressed_to_you",
        )
    _challenge_close(challenge, Challenge.Status.DECLINED)
    events.publish(events.challenge_declined, challenge=challenge)
    return challenge


@transaction.atomic
def challenge_cancel(*, challenge_id: int, user: User) -> Challenge:
    """Withdraw one's own open challenge."""
    challenge = _challenge_locked(challenge_id)
    _require_open(challenge)
    if challenge.challenger_id != user.pk:
        raise errors.NotPermitted(
            "Only the challenger can cancel a challenge.", code="not_your_challenge"
        )
    return _challenge_close(challenge, Challenge.Status.CANCELLED)


@transaction.atomic
def challenge_close_all_for_suspended(
    *, user: User, actor: User, reason: str, now: datetime | None = None
) -> list[int]:
    """Cancel every open challenge ``user`` made or received, so none can start a game while
    they are suspended; one audit entry lists them. Answers the closed challenges' ids."""
    from games import audit
    from moderation.services import audit_record

    open_ones = Challenge.objects.select_for_update().filter(
        Q(challenger=user) | Q(opponent=user), status=Challenge.Status.OPEN
    )
    ids = sorted(open_ones.values_list("pk", flat=True))
    if ids:
        Challenge.objects.filter(pk__in=ids).update(
            status=Challenge.Status.CANCELLED, decided_at=now or timezone.now()
        )
        audit_record(
            actor=actor,
            action=audit.CHALLENGES_CLOSE,
            target=user,
            reason=reason,
            data={"challenge_ids": ids},
        )
    return ids


def _challenge_close(challenge: Challenge, status: str) -> Challenge:
    challenge.status = status
    challenge.decided_at = timezone.now()
    challenge.save(update_fields=["status", "decided_at"])
    return challenge


# --- Games --------------------------------------------------------------------------------


def game_start(
    *,
    orange: User,
    blue: User,
    rated: bool = True,
    public: bool = True,
    window_forfeit: bool = False,
    time_control: TimeControl | None = None,
    challenge: Challenge | None = None,
    now: datetime | None = None,
    announce: bool = False,
) -> Game:
    """Create a game in its start position, Orange to move, Orange's clock running.

    Publishes ``game_started`` (``announce``: the players are to hear of the start from games
    itself, not from the starter's own news such as a ladder challenge) and ``turn_started``."""
    new = _game_new(
        orange=orange,
        blue=blue,
        rated=rated,
        public=public,
        window_forfeit=window_forfeit,
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


def _game_locked(game_id: int, *, flags_at: datetime | None = None) -> Game:
    """The game, its row locked, with both players and their profiles (not locked).

    The players come in a second statement: joining their four tables to the locked row
    took PostgreSQL longer to plan than the extra round trip.

    ``flags_at``: also answer, in the locking statement, whether the game has queued
    conditional lines (``has_lines``) and whether either player has a vacation that ends
    after that time (``has_vacations``), so a move reads those only when there are some.
    The flags hold while the lock does: lines are written only under it, and a vacation
    that starts after this read is one the move could not have seen anyway.
    """
    games = Game.objects.select_for_update()
    if flags_at is not None:
        players_away = Vacation.objects.filter(
            Q(user=OuterRef("orange")) | Q(user=OuterRef("blue")), ends_at__gt=flags_at
        )
        games = games.annotate(
            has_lines=Exists(ConditionalLine.objects.filter(game=OuterRef("pk"))),
            has_vacations=Exists(players_away),
        )
    try:
        game = games.get(pk=game_id)
    except Game.DoesNotExist:
        raise errors.GameNotFound(f"There is no game #{game_id}.") from None
    users = get_user_model().objects.select_related("profile")
    players = users.in_bulk([game.orange_id, game.blue_id])
    game.orange, game.blue = players[game.orange_id], players[game.blue_id]
    return game


def _require_active(game: Game) -> None:
    if not game.is_active:
        raise errors.GameNotActive(
            f"Game #{game.pk} is {game.get_status_display().lower()}; no more moves are taken."
        )


def _require_player(game: Game, user: User) -> str:
    """``user``'s side; a private game looks absent to outsiders, as on its page (asked only
    of those who are not players: a move costs no query for it)."""
    side = game.player_side(user)
    if side is not None:
        return side
    if not selectors.game_list_visible(user=user).filter(pk=game.pk).exists():
        raise errors.GameNotFound(f"There is no game #{game.pk}.")
    raise errors.NotAPlayer(f"You are not a player in game #{game.pk}.")


def _parse_move(notation: str) -> EngineMove:
    try:
        return EngineMove.parse(notation)
    except NotationError as exc:
        raise errors.InvalidNotation(f"{exc}", expected=errors.HOW_TO_WRITE_A_MOVE) from None


@transaction.atomic
def move_submit(
    *,
    game_id: int,
    user: User,
    expected_ply: int,
    notation: str,
    now: datetime | None = None,
) -> MoveOutcome:
    """Play ``notation`` for ``user`` if the game is still at ``expected_ply``.

    Records the move (or the forfeited turn) and any automatic passes that follow, runs the
    clocks, and finishes the game when the engine says no one can move. If the opponent had
    queued a reply to this move (a conditional line), it is played too, in this transaction.
    """
    now = now or timezone.now()
    game = _game_locked(game_id, flags_at=now)
    side = _require_player(game, user)
    _require_active(game)
    if expected_ply != game.ply:
        raise errors.StalePly(
            f"The game is at ply {game.ply}, not {expected_ply}: reload it and try again.",
            current_ply=game.ply,
        )
    if game.to_move != side:
        raise errors.NotYourTurn(f"It is {game.get_to_move_display()}'s turn, not yours.")
    if game.deadline is not None and now > game.deadline:
        raise errors.GameNotActive(
            f"Your time ran out at {game.deadline:%Y-%m-%d %H:%M} UTC; the game is being decided.",
            code="time_expired",
        )
    move = _parse_move(notation)
    recorded = list(game.moves.order_by("ply"))
    state = replay(recorded, variant_of(game))
    away = game.has_vacations
    rows, vacations = _move_record(game, state=state, side=side, move=move, now=now, away=away)
    if game.is_active and game.has_lines:
        rows += _conditional_reply(game, state=state, played=rows[0], now=now, away=away)
    if game.is_active:
        events.publish(events.turn_started, games=[game])
    mover_vacations = vacations.get(game.orange_id if game.to_move == Side.ORANGE else game.blue_id)
    return MoveOutcome(
        game=game,
        turns=rows,
        moves=[*recorded, *rows],
        state=state,
        clock=selectors.game_clock(game=game, now=now, vacations=mover_vacations or ()),
    )


def _move_record(
    game: Game, *, state: GameState, side: str, move: EngineMove, now: datetime, away: bool
) -> tuple[list[Move], VacationsByUser]:
    """Apply ``move`` for ``side`` to ``state``, the position of the locked ``game``: append
    its turns (and automatic passes), run the clocks, and finish the game or start the next
    turn. Tells no one. Answers the turns recorded and both players' vacations it read
    (``away``: whether either player has a vacation ending after ``now``; if not, none are
    read)."""
    try:
        turns = state.apply(move)
    except IllegalMoveError as exc:
        raise errors.IllegalMove(str(exc), rule=exc.rule.value) from None

    rows = [
        Move.objects.create(game=game, ply=game.ply + i, **turn_to_row_fields(turn, side))
        for i, turn in enumerate(turns)
    ]
    game.ply += len(rows)
    vacations = (  # both players' (the next deadline is the other's), in one query
        vacation_intervals_by_user(user_ids=[game.orange_id, game.blue_id], since=now)
        if game.deadline is not None and away
        else {}
    )
    _clock_after_move(game, side=side, now=now, vacations=vacations)
    if state.is_over():
        game_finish(
            game=game, result=state.result().text, termination=Game.Termination.NORMAL, now=now
        )
    else:
        game.to_move = Side(state.to_move.value)
        _clock_start_turn(game, now=now, vacations=vacations)
        game.save(update_fields=_TURN_FIELDS)
    return rows, vacations


#: What a move that does not end the game changes on the game row.
_TURN_FIELDS = ["ply", "to_move", "orange_time_left", "blue_time_left", "turn_started_at",
                "deadline"]  # fmt: skip


def _clock_after_move(
    game: Game,
    *,
    side: str,
    now: datetime,
    vacations: VacationsByUser | None = None,
) -> None:
    """Store the mover's time for their next turn.

    The time used is the bank minus the running time still left before the deadline: the
    running time of the turn, measured against the same pauses that set the deadline.
    """
    bank = game.time_left(side)
    used = None if bank is None else bank - _running_time_left(game, now=now, vacations=vacations)
    left = game.time_control.after_move(remaining=bank, used=used)
    if side == Side.ORANGE:
        game.orange_time_left = left
    else:
        game.blue_time_left = left


def _running_time_left(
    game: Game, *, now: datetime, vacations: VacationsByUser | None = None
) -> timedelta:
    """How much running time the player to move has left before the stored deadline.

    ``vacations``: both players' vacations by user id, when the caller has read them.
    """
    assert game.deadline is not None
    pauses = _pauses(game, now=now, vacations=vacations)
    return running_time(now, game.deadline, pauses.stream(since=now))


def _clock_start_turn(
    game: Game, *, now: datetime, vacations: VacationsByUser | None = None
) -> None:
    """Start the clock of the player to move: the deadline is when their bank has run,
    skipping their weekends and vacations."""
    game.turn_started_at = now
    bank = game.time_left(game.to_move)
    game.deadline = (
        None if bank is None else _deadline_from(game, now=now, budget=bank, vacations=vacations)
    )


def _deadline_from(
    game: Game,
    *,
    now: datetime,
    budget: timedelta,
    vacations: VacationsByUser | None = None,
) -> datetime:
    pauses = _pauses(game, now=now, vacations=vacations)
    return deadline_after(now, budget, pauses.stream(since=now))


def _pauses(game: Game, *, now: datetime, vacations: VacationsByUser | None) -> Pauses:
    """The pauses of the player to move (their vacations from ``vacations`` if given)."""
    mover_id = game.orange_id if game.to_move == Side.ORANGE else game.blue_id
    known = None if vacations is None else vacations.get(mover_id, ())
    return clock_pauses(game=game, side=game.to_move, since=now, vacations=known)


@contextmanager
def clock_pauses_changing(*, user: User, now: datetime) -> Iterator[list[Game]]:
    """Wrap a change to ``user``'s pauses: a vacation starting or ending, a new time zone.

    Locks the active games where ``user`` is to move and their deadline is still ahead,
    notes the running time each has left, lets the block make the change, then moves each
    deadline so that the same running time is left under the new pauses. Use it inside the
    transaction that makes the change. Yields the games (their deadlines set on exit).
    """
    to_move = Q(orange=user, to_move=Side.ORANGE) | Q(blue=user, to_move=Side.BLUE)
    games = list(
        Game.objects.select_for_update()
        .filter(to_move, status=Game.Status.ACTIVE, deadline__gt=now)
        .order_by("pk")
    )
    left = {game.pk: _running_time_left(game, now=now) for game in games}
    yield games
    changed = get_user_model().objects.select_related("profile").get(pk=user.pk)  # not cached
    for game in games:
        if game.to_move == Side.ORANGE:
            game.orange = changed
        else:
            game.blue = changed
        game.deadline = _deadline_from(game, now=now, budget=left[game.pk])
        game.save(update_fields=["deadline"])


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
    from moderation.services import audit_record

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
    audit_record(actor=actor, action="game_annul", target=game, reason=reason, data=previous)
    _result_changed(game, previous=previous)
    return game


@transaction.atomic
def game_adjudicate(
    *, game_id: int, actor: User, result: str, reason: str, moderator_check: bool = True
) -> Game:
    """A moderator decides the result of a game (in progress or finished).

    ``moderator_check=False`` as for ``game_annul``."""
    from moderation.services import audit_record

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
        action="game_adjudicate",
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


# --- Conditional moves ------------------------------------------------------------------


@transaction.atomic
def conditional_line_create(
    *, game_id: int, user: User, expected_ply: int, moves: Sequence[str]
) -> ConditionalLine:
    """Queue ``user``'s replies to their opponent's next move: ``moves`` alternates the
    opponent's move and the reply, the opponent's first, all legal in turn from now.

    A line with the same first move replaces the earlier one.
    """
    game = _game_locked(game_id)
    side = _require_player(game, user)
    _require_active(game)
    if expected_ply != game.ply:
        raise errors.StalePly(
            f"The game is at ply {game.ply}, not {expected_ply}: reload it and try again.",
            current_ply=game.ply,
        )
    if game.to_move == side:
        raise errors.NotYourTurn(
            "It is your turn: play your move now. Conditional moves answer your opponent's "
            "next move, so they are set while your opponent is to move.",
            code="your_turn",
        )
    notations = _conditional_line_check(game_state(game), moves)
    line, _ = ConditionalLine.objects.update_or_create(
        game=game,
        owner=user,
        start_ply=game.ply,
        trigger=notations[0],
        defaults={"moves": notations},
    )
    return line


def _conditional_line_check(state: GameState, moves: Sequence[str]) -> list[str]:
    """The canonical notations of ``moves`` if they are pairs of legal moves in turn from
    ``state`` (the opponent to move), each one a plain placed tile; else a clear error."""
    limit = ConditionalLine.MAX_MOVES
    if not moves or len(moves) % 2 or len(moves) > limit:
        raise errors.DomainError(
            f"A conditional line is 2 to {limit} moves in pairs (your opponent's move, then "
            f"your reply); {len(moves)} were given.",
            code="invalid_line",
        )
    played: list[str] = []
    for number, text in enumerate(moves, start=1):
        whose = "your opponent's move" if number % 2 else "your reply"
        where = f"after {', '.join(played)}" if played else "in the current position"
        try:
            move = EngineMove.parse(text)
        except NotationError as exc:
            raise errors.InvalidNotation(
                f"Move {number} ({whose}): {exc}",
                expected=errors.HOW_TO_WRITE_A_MOVE,
                index=number,
            ) from None
        try:
            turns = state.apply(move)
        except IllegalMoveError as exc:
            raise errors.IllegalMove(
                f"Move {number} ({whose}) is illegal {where}: {exc}",
                rule=exc.rule.value,
                index=number,
            ) from None
        if turns != (move,) or (state.is_over() and number < len(moves)):
            what = "ends the game" if state.is_over() else "does not place its tile"
            raise errors.DomainError(
                f"Move {number} ({whose}), {move}, {what} {where}: a line can only continue "
                "with moves that place a tile and pass the turn.",
                code="line_cannot_continue",
                index=number,
            )
        played.append(str(move))
    return played


def _conditional_reply(
    game: Game, *, state: GameState, played: Move, now: datetime, away: bool
) -> list[Move]:
    """After the move ``played`` on the locked ``game`` (``state``: the position after it),
    play the reply its opponent queued for it, if any, through the normal move path (clocks
    included; ``away`` as for ``_move_record``); drop the lines that can no longer match.
    Answers the turns the reply recorded.
    """
    due = list(  # in id order: the model's order would join the games table for nothing
        ConditionalLine.objects.select_for_update()
        .filter(game=game, start_ply__lte=played.ply)
        .order_by("pk")
    )
    owner_side = game.to_move
    owner_id = game.orange_id if owner_side == Side.ORANGE else game.blue_id
    can_match = played.kind == Move.Kind.MOVE and game.ply == played.ply + 1
    match = next(
        (
            line
            for line in due
            if can_match
            and line.owner_id == owner_id
            and line.start_ply == played.ply
            and line.trigger == played.notation
        ),
        None,
    )
    stale = [line.pk for line in due if line is not match]
    if stale:
        ConditionalLine.objects.filter(pk__in=stale).delete()
    if match is None:
        return []
    reply, rest = match.moves[1], match.moves[2:]
    try:
        rows, _ = _move_record(
            game, state=state, side=owner_side, move=EngineMove.parse(reply), now=now, away=away
        )
    except errors.IllegalMove:  # checked when queued; kept only as a safety net
        match.delete()
        return []
    if rest and game.is_active and rows[-1].ply == game.ply - 1:
        match.start_ply, match.trigger, match.moves = game.ply, rest[0], rest
        match.save(update_fields=["start_ply", "trigger", "moves"])
    else:
        match.delete()
    return rows


@transaction.atomic
def conditional_line_delete(*, game_id: int, line_id: int, user: User) -> None:
    """Withdraw one of ``user``'s own queued lines; anyone else's is not found."""
    game = _game_locked(game_id)
    deleted, _ = ConditionalLine.objects.filter(pk=line_id, game=game, owner=user).delete()
    if not deleted:
        raise errors.ConditionalLineNotFound(
            f"You have no conditional line #{line_id} in game #{game_id}."
        )


# --- Messages -----------------------------------------------------------------------------


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
    from games import audit
    from moderation.services import audit_record

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
