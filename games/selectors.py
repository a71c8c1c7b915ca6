"""Reads for challenges and games: lists, visibility, positions and records."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Case, CharField, Exists, F, OuterRef, Q, QuerySet, Value, When
from django.db.models.functions import Coalesce

from accounts.selectors import (
    profile_get,
    profile_time_zones,
    vacation_intervals,
    vacation_intervals_by_user,
)
from celtictext import ordinal
from games import audit, errors
from games.clock import ClockReading, Interval, Pauses, read_clock
from games.engine import game_state, replay
from games.kinds.base import Chance, ChoiceNotationError, KindError, SeededChance, State
from games.models import (
    Challenge,
    ChallengeInvitation,
    ConditionalLine,
    Game,
    GameMessage,
    GameNote,
    GameSeat,
    Move,
    TakebackRequest,
)

AnyUser = AbstractBaseUser | AnonymousUser


#: The game lists' order: newest first, the id breaking ties, so that every game has one
#: place and a cursor page can start after any of them (indexes ``game_newest_first`` ...).
NEWEST_FIRST = ("-created_at", "-id")

#: Stands in for "no deadline" in the my-turn order: after every real one.
NEVER = datetime(9999, 12, 31, tzinfo=ZoneInfo("UTC"))


def _with_players(games: QuerySet[Game]) -> QuerySet[Game]:
    return games.with_players()


def game_list_for_player(*, user: AbstractBaseUser, status: str | None = None) -> QuerySet[Game]:
    """The games ``user`` plays in, newest first, optionally of one status."""
    games = Game.objects.played_by(user)
    if status:
        games = games.filter(status=status)
    return _with_players(games).order_by(*NEWEST_FIRST)


def game_list_my_turn(*, user: AbstractBaseUser) -> QuerySet[Game]:
    """Games waiting for ``user``'s move, the least time left first (no limit last). The
    order is by an annotation, ``deadline_or_never``, so a cursor can key on it."""
    games = Game.objects.awaiting(user)
    games = games.annotate(deadline_or_never=Coalesce("deadline", Value(NEVER)))
    return _with_players(games).order_by("deadline_or_never", "id")


def game_list_public(*, player: AbstractBaseUser | None = None) -> QuerySet[Game]:
    """Public games, or the public games of one player (by id, so the seats' index on the
    player serves it rather than a scan of every game joined to its players' names)."""
    games = Game.objects.filter(public=True)
    if player is not None:
        games = games.played_by(player)
    return _with_players(games).order_by(*NEWEST_FIRST)


GAME_VIEWER_PERMISSION = "games.view_game"


def game_list_visible(*, user: AnyUser) -> QuerySet[Game]:
    """Every game ``user`` may look at: public ones, their own, and all for moderators (active
    staff holding ``games.view_game``)."""
    games = Game.objects.all()
    if not user.is_authenticated:
        games = games.filter(public=True)
    elif not (user.is_staff and user.has_perm(GAME_VIEWER_PERMISSION)):
        mine = GameSeat.objects.filter(game=OuterRef("pk"), user=user)
        games = games.filter(Q(public=True) | Exists(mine))
    return _with_players(games).order_by(*NEWEST_FIRST)


def game_get_visible(*, game_id: int, user: AnyUser) -> Game:
    """The game, if ``user`` may see it; a private game looks absent to outsiders."""
    # The game page names the tournament, round and board (``Game.tournament``): one join.
    games = game_list_visible(user=user).select_related(
        "tournament_link__tournament", "tournament_link__round"
    )
    try:
        return games.get(pk=game_id)
    except Game.DoesNotExist:
        raise errors.GameNotFound(f"There is no game #{game_id}.") from None


def conditional_line_list(*, game: Game, user: AnyUser) -> QuerySet[ConditionalLine]:
    """``user``'s own queued lines in ``game`` that can still be played. Nobody sees another
    player's lines: to anyone but a player the list does not exist."""
    if game.seat_of(user) is None:
        raise errors.GameNotFound(f"You have no conditional moves in game #{game.pk}.")
    lines = ConditionalLine.objects.filter(game=game, owner_id=user.pk, start_ply__gte=game.ply)
    return lines if game.is_active else lines.none()


def game_note_get(*, game: Game, user: AnyUser) -> GameNote | None:
    """``user``'s own notes on ``game`` (None if they wrote none). Nobody reads another
    player's notes, moderators included: to anyone but a player the notes do not exist."""
    if game.seat_of(user) is None:
        raise errors.GameNotFound(f"You have no notes in game #{game.pk}.")
    return GameNote.objects.filter(game=game, owner_id=user.pk).first()


def takeback_refusal(*, game: Game) -> str | None:
    """Why ``game`` allows no takeback, or None if it does: a rated game only if created
    with takebacks allowed, a tournament, league or ladder game never, nor a game of a kind
    with chance."""
    kind = game.game_kind
    if kind.has_chance:
        return f"{kind.name} has chance: a move taken back could be played again with new luck."
    if game.rated and not game.takebacks:
        return "This rated game was created without takebacks, so none can be asked."
    if game.in_competition:
        return "Takebacks are never possible in tournament, league or ladder games."
    return None


def takeback_pending(*, game: Game) -> TakebackRequest | None:
    """The takeback waiting for an answer in ``game``'s current position, if any (one asked
    before the opponent moved has lapsed)."""
    return TakebackRequest.objects.filter(
        game=game, ply=game.ply, status=TakebackRequest.Status.PENDING
    ).first()


#: The most moves an analysis line may try beyond the game's position.
ANALYSIS_MAX_MOVES = 100


def analysis_position(*, game: Game, moves: Sequence[str], ply: int | None = None) -> State:
    """The position after ``moves`` tried in turn from the game's position after ``ply``
    turns (default: now), automatic passes included. Nothing is stored: the game never sees
    an analysis. A move that does not parse or is illegal is refused, naming its place.

    In a kind with chance the tried moves draw from a public source (derived from the seed's
    commitment), never from the game's secret seed: an analysis must not show the flips the
    game itself will make."""
    state = game_position(game=game, ply=ply, chance=_analysis_chance(game))
    if len(moves) > ANALYSIS_MAX_MOVES:
        raise errors.DomainError(
            f"{len(moves)} moves were tried; at most {ANALYSIS_MAX_MOVES} are allowed.",
            code="analysis_too_long",
        )
    for number, text in enumerate(moves, start=1):
        try:
            state.play(text)
        except ChoiceNotationError as exc:
            raise errors.refused_choice(
                game.game_kind, exc, prefix=f"Tried move {number}: ", index=number
            ) from None
        except KindError as exc:
            prefix = f"Tried move {number}, {text.strip()}, is illegal here: "
            raise errors.refused_choice(game.game_kind, exc, prefix=prefix, index=number) from None
    return state


def game_live_status(*, game: Game, user: AnyUser) -> dict[str, object]:
    """The few facts a page polls to learn that the game moved on."""
    seat = game.seat_of(user)
    to_move = game.seat_to_move
    return {
        "id": game.pk,
        "ply": game.ply,
        "status": game.status,
        "to_move": None if to_move is None else game.seat_name(to_move).lower(),
        "seat_to_move": to_move,
        "result": game.result or None,
        "your_turn": game.is_active and seat is not None and to_move == seat,
    }


def game_list_live_status(*, user: AbstractBaseUser) -> dict[str, object]:
    """For a player's overview page: their active games with each one's ply and whether it
    is their move, so the page can tell when an opponent has moved."""
    games = game_list_for_player(user=user, status=Game.Status.ACTIVE).order_by("pk")
    rows = [game_live_status(game=game, user=user) for game in games]
    return {"your_turn": sum(1 for row in rows if row["your_turn"]), "games": rows}


def _analysis_chance(game: Game) -> SeededChance | None:
    """The chance an analysis of ``game`` draws from: public, and the same on every reload."""
    if not game.chance_seed:
        return None
    return SeededChance(hashlib.sha256(f"{game.chance_commitment}:analysis".encode()).digest())


def game_position(*, game: Game, ply: int | None = None, chance: Chance | None = None) -> State:
    """The position after ``ply`` turns (default: the current one), replayed from the moves;
    ``chance``: what play from it draws from (default: the game's own)."""
    if ply is not None and not 0 <= ply <= game.ply:
        raise errors.DomainError(
            f"ply {ply} is outside this game: expected 0 to {game.ply}.", code="invalid_ply"
        )
    return game_state(game, ply=ply, chance=chance)


def game_moves_and_position(*, game: Game) -> tuple[list[Move], State]:
    """Every recorded turn of the game and the position after them, from one read."""
    rows = list(game.moves.order_by("ply"))
    return rows, replay(rows, game)


def game_record_headers(*, game: Game) -> dict[str, str]:
    """The headers of ``game``'s record, filled from the database: the players as the kind
    names them (Celtic!: Orange, Blue), and for a kind with chance the seed's commitment, and
    the seed itself once the game is over."""
    kind = game.game_kind
    usernames = [user.get_username() for user in game.seat_users()]
    headers = {
        "Event": "Correspondence game",
        "Site": "Celtic! by correspondence",
        "Game": str(game.pk),
        "Date": game.created_at.strftime("%Y.%m.%d"),
        **kind.seat_headers(usernames),
        "TimeControl": game.time_control.describe(),
        "Rated": "yes" if game.rated else "no",
        "Result": game.result or "*",
    }
    if game.chance_seed:
        revealed = None if game.is_active else game.chance_seed
        headers.update(kind.chance_headers(game.chance_commitment, revealed))
    if game.termination and game.termination != Game.Termination.NORMAL:
        headers["Termination"] = game.termination
    return headers


def game_record_text(*, game: Game) -> str:
    """The game as its kind writes a record."""
    return game.game_kind.record_text(game_state(game), game_record_headers(game=game))


def game_record_data(*, game: Game) -> dict[str, object]:
    """The game's record as JSON-able data (the kind's own form)."""
    return game.game_kind.record_data(game_state(game), game_record_headers(game=game))


#: An open seek: addressed to no opponent and inviting no one.
_OPEN_TO_ANYONE = Q(opponent__isnull=True) & ~Exists(
    ChallengeInvitation.objects.filter(challenge=OuterRef("pk"))
)


def challenge_list_open(*, exclude_user: AnyUser | None = None) -> QuerySet[Challenge]:
    """Open seeks that anyone may accept, newest first (none by a suspended player)."""
    seeks = Challenge.objects.filter(
        _OPEN_TO_ANYONE, status=Challenge.Status.OPEN, challenger__is_active=True
    )
    if exclude_user is not None and exclude_user.is_authenticated:
        seeks = seeks.exclude(challenger=exclude_user)
    return seeks.select_related("challenger")


def _received_by(user: AbstractBaseUser) -> Q:
    """Challenges addressed to ``user``: as the opponent, or among the invited players."""
    invited = ChallengeInvitation.objects.filter(challenge=OuterRef("pk"), user=user)
    return Q(opponent=user) | Q(Exists(invited))


def challenge_list_for_user(*, user: AbstractBaseUser, scope: str = "all") -> QuerySet[Challenge]:
    """Challenges ``user`` sent (``outgoing``), received (``incoming``), or both."""
    sent, received = Q(challenger=user), _received_by(user)
    condition = {"outgoing": sent, "incoming": received}.get(scope, sent | received)
    return Challenge.objects.filter(condition).select_related("challenger", "opponent")


def challenge_get_visible(*, challenge_id: int, user: AnyUser) -> Challenge:
    """A challenge is visible to its players (the challenger, the opponent or the invited),
    and an open seek to everyone."""
    visible = _OPEN_TO_ANYONE
    if user.is_authenticated:
        visible |= Q(challenger=user) | _received_by(user)
    try:
        return Challenge.objects.select_related("challenger", "opponent").get(
            visible, pk=challenge_id
        )
    except Challenge.DoesNotExist:
        raise errors.ChallengeNotFound(f"There is no challenge #{challenge_id}.") from None


def user_get_by_username(*, username: str) -> AbstractBaseUser:
    user_model = get_user_model()
    try:
        return user_model.objects.get(username=username, is_active=True)
    except user_model.DoesNotExist:
        raise errors.NotFound(
            f"There is no active player called {username!r}.", code="user_not_found"
        ) from None


def user_list_by_usernames(*, usernames: Sequence[str]) -> list[AbstractBaseUser]:
    """The active players called ``usernames``, in that order, read in one query; NotFound
    names every username no active player has."""
    found = {
        user.get_username(): user
        for user in get_user_model().objects.filter(username__in=usernames, is_active=True)
    }
    missing = [name for name in usernames if name not in found]
    if missing:
        names = " or ".join(repr(name) for name in missing)
        raise errors.NotFound(f"There is no active player called {names}.", code="user_not_found")
    return [found[name] for name in usernames]


# --- clocks -----------------------------------------------------------------------------------


def clock_pauses(
    *, game: Game, seat: int, since: datetime, vacations: tuple[Interval, ...] | None = None
) -> Pauses:
    """When ``seat``'s clock stands still in ``game`` from ``since`` on: weekends in their
    profile time zone if the game has weekends off, their vacations if the game allows them.

    ``vacations``: the player's vacations ending after ``since`` when the caller has already
    read them (see ``game_clocks``); read here otherwise.
    """
    user = game.user_at(seat)
    zone = ZoneInfo(profile_get(user=user).time_zone) if game.weekends_off else None
    if not game.vacation_allowed:
        vacations = ()
    elif vacations is None:
        vacations = vacation_intervals(user=user, since=since)
    return Pauses(weekend_zone=zone, vacations=vacations)


def clock_pauses_many(
    *,
    users: Iterable[AbstractBaseUser],
    weekends_off: bool,
    vacation_allowed: bool,
    since: datetime,
) -> dict[int, Pauses]:
    """``clock_pauses`` of each user, by user id, for games with these rules, read for all
    of them at once (two queries at most: time zones and vacations): a round's Orange
    players."""
    users = list(users)
    zones = profile_time_zones(users=users) if weekends_off else {}
    vacations = (
        vacation_intervals_by_user(user_ids=[user.pk for user in users], since=since)
        if vacation_allowed
        else {}
    )
    return {
        user.pk: Pauses(
            weekend_zone=ZoneInfo(zones[user.pk]) if weekends_off else None,
            vacations=vacations.get(user.pk, ()),
        )
        for user in users
    }


def game_clock(
    *, game: Game, now: datetime, vacations: tuple[Interval, ...] | None = None
) -> ClockReading | None:
    """The clock of the player to move: running time left, and whether and why it is stopped.

    None when the game is over or has no time limit. ``vacations``: as in ``clock_pauses``.
    """
    if not game.is_active or game.deadline is None:
        return None
    pauses = clock_pauses(game=game, seat=game.seat_to_move, since=now, vacations=vacations)
    return read_clock(deadline=game.deadline, now=now, pauses=pauses)


def mover_vacations(*, games: Iterable[Game], now: datetime) -> dict[int, tuple[Interval, ...]]:
    """The vacations (ending after ``now``) of the player to move in each running game with
    a deadline, by game id, read in one query."""
    movers = {
        game.pk: game.user_to_move().pk
        for game in games
        if game.is_active and game.deadline is not None
    }
    by_user = vacation_intervals_by_user(user_ids=movers.values(), since=now)
    return {game_id: by_user.get(user_id, ()) for game_id, user_id in movers.items()}


def game_clocks(*, games: Iterable[Game], now: datetime) -> dict[int, ClockReading | None]:
    """``game_clock`` of many games (players and profiles already loaded) with one query."""
    games = list(games)
    vacations = mover_vacations(games=games, now=now)
    return {
        game.pk: game_clock(game=game, now=now, vacations=vacations.get(game.pk, ()))
        for game in games
    }


# --- Messages ---------------------------------------------------------------------------------

MESSAGE_MODERATOR_PERMISSION = "games.hide_gamemessage"


def user_moderates_messages(*, user: AnyUser) -> bool:
    """Moderators of messages: active staff with the permission to hide game messages."""
    return bool(
        user.is_authenticated
        and user.is_active
        and user.is_staff
        and user.has_perm(MESSAGE_MODERATOR_PERMISSION)
    )


def message_list_readable(*, game_id: int, user: AnyUser) -> QuerySet[GameMessage]:
    """The messages of a game ``user`` may see, oldest first (404 if the game is not visible).

    Each message carries ``shown_body`` and ``shown_reason``: a hidden message keeps its
    place, author and time, but its body and the moderator's reason are None for everyone
    except moderators.
    """
    game = game_get_visible(game_id=game_id, user=user)
    return _messages_for_viewer(GameMessage.objects.filter(game=game), user=user)


def message_get_readable(*, game_id: int, message_id: int, user: AnyUser) -> GameMessage:
    """One message of a game ``user`` may see (404 otherwise), annotated as in the list."""
    try:
        return message_list_readable(game_id=game_id, user=user).get(pk=message_id)
    except GameMessage.DoesNotExist:
        raise errors.MessageNotFound(
            f"There is no message #{message_id} in game #{game_id}."
        ) from None


def _messages_for_viewer(
    messages: QuerySet[GameMessage], *, user: AnyUser
) -> QuerySet[GameMessage]:
    if user_moderates_messages(user=user):
        shown_body: F | Case = F("body")
        shown_reason: Case | Value = Case(When(hidden_at__isnull=False, then=F("hidden_reason")))
    else:
        shown_body = Case(When(hidden_at__isnull=True, then=F("body")))
        shown_reason = Value(None, output_field=CharField())
    return (
        messages.select_related("author__profile")
        .annotate(shown_body=shown_body, shown_reason=shown_reason)
        .order_by("created_at", "pk")
    )


# --- how a game ended -------------------------------------------------------------------------

_MODERATOR_ACTIONS = {
    Game.Termination.ANNULLED: audit.GAME_ANNUL,
    Game.Termination.ADJUDICATION: audit.GAME_ADJUDICATE,
}


def game_moderator_reason(*, game: Game) -> str | None:
    """The reason the moderator gave for annulling or adjudicating ``game`` (the latest such
    decision in the audit log), or None when no moderator decided it (an unstarted game the
    clock annulled)."""
    action = _MODERATOR_ACTIONS.get(game.termination)
    if action is None:
        return None
    from django.contrib.contenttypes.models import ContentType

    from moderation.models import AuditEntry

    entry = (
        AuditEntry.objects.filter(
            action=action,
            target_content_type=ContentType.objects.get_for_model(Game),
            target_object_id=str(game.pk),
        )
        .order_by("-created_at", "-pk")
        .first()
    )
    return entry.reason if entry is not None else None


def termination_text(*, game: Game, reason: str | None = None) -> str:
    """One sentence saying how ``game`` stands or ended, for emails and pages alike, e.g.
    "Blue resigned: Orange wins (1-0)." or "Annulled by a moderator: duplicate account."

    ``reason``: the moderator's reason for an annulled or adjudicated game; read from the
    audit log when not given. An annulled game no moderator decided was annulled by the clock:
    no move was made before the first deadline.
    """
    if game.is_active:
        return f"In progress: {game.seat_name(game.seat_to_move)} to move."
    ending = Game.Termination
    if game.termination in _MODERATOR_ACTIONS:
        why = game_moderator_reason(game=game) if reason is None else reason.strip()
        if game.termination == ending.ANNULLED:
            if why is None:
                return "Annulled: no move was made before the deadline."
            return f"Annulled by a moderator: {why}" if why else "Annulled by a moderator."
        decided = f"Adjudicated by a moderator: {result_words(game=game)} ({game.result})"
        return f"{decided}. Reason: {why}" if why else f"{decided}."
    outcome = f"{result_words(game=game)} ({game.result})"
    loser = _leaver(game)
    if game.termination == ending.RESIGNATION and loser:
        return f"{loser} resigned: {outcome}."
    if game.termination == ending.TIMEOUT and loser:
        return f"{loser} ran out of time: {outcome}."
    if game.termination == ending.NORMAL:
        return f"Finished, no moves left: {outcome}."
    if game.status == Game.Status.ANNULLED:
        return "Annulled."
    return f"Finished: {outcome}."


def result_words(*, game: Game) -> str:
    """A finished game's result in words: "Orange wins", "Draw", or for more players the
    finishing order ("1st alice, 2nd bob, 3rd carol")."""
    seats = game.seat_list
    if any(seat.place is None for seat in seats):
        return "—"
    winners = [seat for seat in seats if seat.place == 1]
    if len(seats) == 2:
        return "Draw" if len(winners) == 2 else f"{game.seat_name(winners[0].seat)} wins"
    ranked = sorted(seats, key=lambda seat: (seat.place, seat.seat))
    return ", ".join(f"{ordinal(seat.place)} {seat.user.get_username()}" for seat in ranked)


def _leaver(game: Game) -> str:
    """The seat name of the player who resigned or ran out of time in a two-player game."""
    losers = [seat for seat in game.seat_list if seat.place == 2]
    return game.seat_name(losers[0].seat) if game.seat_count == 2 and len(losers) == 1 else ""
