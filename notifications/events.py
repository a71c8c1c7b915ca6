"""The games' emails: who is told what when something happens in a game, and the reminders.

The functions here are the receivers of games' events (``notifications.receivers`` subscribes
them, inside the transaction) and the deadline reminders' scan. Each only writes outbox rows
(see ``services.notify``); the emails go out after the commit. Each dedupe key names the
event precisely enough that hearing of the same thing twice queues one email.

``game_context``, ``player_name`` and ``profiles_load`` are public: the apps above build
their own emails about games with them.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import transaction
from django.db.models import Q, prefetch_related_objects
from django.urls import reverse

from accounts.models import Profile, default_reminder_hours
from accounts.selectors import profile_get, vacation_intervals_by_user
from accounts.validators import MAX_REMINDER_HOURS
from celtictext import and_join
from games.boards import kind_pages
from games.clock import Interval, Pauses, running_time, running_time_at_least
from games.models import SEATS_WITH_PLAYERS, Challenge, Game, GameMessage
from games.selectors import game_clock, game_position, termination_text
from notifications.email_events import Event
from notifications.models import OutboxEmail
from notifications.position import POSITION_PLY, REPLY_PLY
from notifications.reply_tokens import (
    challenge_reply_token_make,
    reply_address,
    reply_token_make,
)
from notifications.services import Notice, notify, notify_many
from rankings.selectors import RatingChange, rating_changes_for_game


def player_name(user: Any) -> str:
    """The name a player goes by on the site (their profile's)."""
    return profile_get(user=user).name


def opponents(game: Game, user: Any) -> list[Any]:
    """The players of ``game`` other than ``user``, in seat order (all of them for a kind
    with more than two seats)."""
    return [other for other in game.seat_users() if other.pk != getattr(user, "pk", None)]


def is_turn_of(game: Game, user: Any) -> bool:
    """Whether ``game`` is in progress and waiting for ``user``'s move."""
    seat = game.seat_to_move
    return seat is not None and game.seat_of(user) == seat


def game_context(game: Game, user: Any) -> dict[str, Any]:
    """The game (read again by the worker) and, as they are now, what changes as it goes on:
    the ply, the deadline and the result."""
    seat = game.seat_of(user)
    return {
        "game": game,
        "ply": game.ply,
        "deadline": game.deadline,
        "result": game.result,
        "side": game.seat_name(seat) if seat else "",
        "opponent_name": and_join([player_name(other) for other in opponents(game, user)]),
        "time_control": game.time_control.describe(),
    }


def on_turn(game: Game) -> None:
    """It is someone's turn in an active game (after a move, or a game start)."""
    notice = _turn_notice(game)
    if notice is not None:
        notify(**vars(notice))


def on_turns(games: Sequence[Game]) -> None:
    """``on_turn`` for many games at once (a tournament round's games): one bulk write."""
    profiles_load(games)
    notify_many(notices=[n for n in map(_turn_notice, games) if n is not None])


def _turn_notice(game: Game) -> Notice | None:
    """The your-turn email of the player to move. The worker draws the position (the
    context says at which ply, see ``notifications.position``), so the request reads no
    moves and draws nothing."""
    seat = game.seat_to_move
    if not game.is_active or seat is None:
        return None
    user = game.user_at(seat)
    context = game_context(game, user)
    context[POSITION_PLY] = game.ply
    # A turn's email goes out as the turn starts: the running time left is the whole bank
    # (the deadline is the bank's end, pauses skipped), so no clock needs reading.
    context["time_left"] = game.seat_time_left(seat)
    reply_to = move_reply_context(context, game=game, user=user)
    return Notice(
        user=user,
        event=Event.YOUR_TURN,
        context=context,
        dedupe_key=f"{Event.YOUR_TURN}:{game.pk}:{game.ply}:{user.pk}",
        reply_to=reply_to,
    )


def profiles_load(games: Sequence[Game]) -> None:
    """Read the players' profiles (names, preferences) in one query, not one per player."""
    prefetch_related_objects([user for game in games for user in game.seat_users()], "profile")


def move_reply_context(context: dict[str, Any], *, game: Game, user: Any) -> str:
    """Add a reply token for ``user``'s move now in ``game`` to ``context`` (as
    ``reply_token``, empty when moves by email are off); returns the Reply-To address."""
    return _reply_token_add(
        context, reply_token_make(game_id=game.pk, ply=game.ply, user_id=user.pk)
    )


def _reply_token_add(context: dict[str, Any], token: str) -> str:
    """Put ``token`` in ``context`` (empty when replies by email are off); the Reply-To."""
    address = reply_address(token)
    context["reply_token"] = token if address else ""
    return address


def on_deadline_near(
    game: Game, *, hours: int, now: datetime, vacations: tuple[Interval, ...] | None = None
) -> bool:
    """The player to move has at most ``hours`` of running clock left (see
    ``deadline_reminders_queue``; ``vacations``: theirs, if already read). Returns whether
    a reminder was queued."""
    reading = game_clock(game=game, now=now, vacations=vacations)
    if reading is None:
        return False
    user = game.user_to_move()
    context = game_context(game, user)
    clock = {"paused": reading.paused, "resumes_at": reading.resumes_at}
    context.update(time_left=reading.time_left, hours=hours, clock=clock)
    context[REPLY_PLY] = game.ply  # the worker says what a reply names now
    row = notify(
        user=user,
        event=Event.DEADLINE_REMINDER,
        context=context,
        dedupe_key=_reminder_key(game, user_id=user.pk, hours=hours),
        reply_to=move_reply_context(context, game=game, user=user),
    )
    return row is not None


def _reminder_key(game: Game, *, user_id: int, hours: int) -> str:
    """The dedupe key of the ``hours`` reminder of ``user_id``, to move in ``game``: one per
    turn, named by the moment it began (a turn of several choices spans several plies)."""
    began = game.turn_started_at.astimezone(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    return f"{Event.DEADLINE_REMINDER}:{game.pk}:{began}:{user_id}:{hours}h"


def on_game_started(game: Game) -> None:
    """A game began that its players are to hear of as such (``game_started`` with
    ``announce``: a knockout match's next pair). Games that start by accepting a challenge,
    in a tournament round or on a ladder are announced by their own emails.
    """
    for user in game.seat_users():
        context = game_context(game, user)
        context["your_move"] = is_turn_of(game, user)
        notify(
            user=user,
            event=Event.GAME_STARTED,
            context=context,
            dedupe_key=f"{Event.GAME_STARTED}:{game.pk}:{user.pk}",
        )


def on_game_finished(game: Game) -> None:
    """A game ended (finished or annulled): every player hears the result, the finishing
    order with each player's rating change, and what the kind says of the last position."""
    summary = _final_summary(game)
    ending = termination_text(game=game)
    changes = rating_changes_for_game(game_id=game.pk)
    places = _places(game, changes=changes)
    for user in game.seat_users():
        context = game_context(game, user)
        context.update(
            summary,
            outcome=_outcome(game, user),
            places=places,
            termination=ending,
            rating_change=_change_context(changes.get(user.pk)),
        )
        notify(
            user=user,
            event=Event.GAME_FINISHED,
            context=context,
            # a moderator's later decision (another result, an annulment) is news again
            dedupe_key=(
                f"{Event.GAME_FINISHED}:{game.pk}:{game.status}:{game.termination}"
                f":{game.result}:{user.pk}"
            ),
        )


def _change_context(change: RatingChange | None) -> dict[str, Any] | None:
    if change is None:
        return None
    return {"before": change.before, "after": change.after, "signed_delta": change.signed_delta}


def _final_summary(game: Game) -> dict[str, Any]:
    """The kind's summary of the last position (``GameKind.final_summary``) and the partial
    that shows it (its pages' ``finished_email_template``); nothing when the kind names no
    partial or has nothing to say."""
    template = kind_pages(game.kind).finished_email_template
    if template is None:
        return {}
    summary = game.game_kind.final_summary(game_position(game=game))
    if not summary:
        return {}
    return {"final_summary": summary, "final_summary_template": template}


def _outcome(game: Game, user: Any) -> str:
    """'won', 'lost', 'drew' or 'annulled', from ``user``'s point of view: first place alone
    is a win, first place shared a draw (for Celtic!, both players), any other place a loss."""
    placings = game.placings()
    if game.status == Game.Status.ANNULLED or not placings:
        return "annulled"
    mine = next(place for player, place in placings if player.pk == user.pk)
    if mine != 1:
        return "lost"
    shared = sum(1 for _, place in placings if place == 1) > 1
    return "drew" if shared else "won"


def _places(
    game: Game, *, changes: Mapping[int, RatingChange] | None = None
) -> list[dict[str, Any]]:
    """The finishing order, first place first (players sharing a place in seat order), each
    with the player's name, seat name and rating change in ``changes`` (by user id: the
    ranking writes them before the result is told); empty unless the game is finished."""
    rows = [
        {
            "place": place,
            "name": player_name(player),
            "seat_name": game.seat_name(seat),
            "rating_change": _change_context((changes or {}).get(player.pk)),
        }
        for seat, (player, place) in enumerate(game.placings(), start=1)
    ]
    return sorted(rows, key=lambda row: row["place"])


def on_challenge_received(challenge: Challenge) -> None:
    """A challenge addressed to someone: its opponent, or each player a challenge to several
    invites (open seeks notify no one)."""
    if challenge.opponent is not None:
        recipients = [challenge.opponent]
    else:
        recipients = [invited.user for invited in challenge.invitations.select_related("user")]
    challenger_name = player_name(challenge.challenger)
    for user in recipients:
        context = _challenge_context(challenge, challenger_name=challenger_name)
        notify(
            user=user,
            event=Event.CHALLENGE_RECEIVED,
            context=context,
            dedupe_key=f"{Event.CHALLENGE_RECEIVED}:{challenge.pk}:{user.pk}",
            reply_to=challenge_reply_context(context, challenge=challenge, user_id=user.pk),
        )


def _challenge_context(challenge: Challenge, **names: str) -> dict[str, Any]:
    """What a challenge's emails show: the challenge, its time control, the page of
    challenges, and ``names`` (who sent it, or who answered)."""
    return {
        "challenge": challenge,
        "time_control": challenge.time_control.describe(),
        "challenges_url": settings.SITE_URL + reverse("games:challenges"),
        **names,
    }


def challenge_reply_context(
    context: dict[str, Any], *, challenge: Challenge, user_id: int | None = None
) -> str:
    """Add a token with which the challenged player (``user_id``, default: the opponent)
    answers ``challenge`` by email to ``context`` (as ``reply_token``, empty when replies by
    email are off); returns the Reply-To address."""
    token = challenge_reply_token_make(
        challenge_id=challenge.pk, user_id=user_id or challenge.opponent_id
    )
    return _reply_token_add(context, token)


def on_challenge_accepted(challenge: Challenge, game: Game) -> None:
    """Tell the challenger their challenge was accepted and the game has begun."""
    user = challenge.challenger
    context = game_context(game, user)
    context["challenge"] = challenge
    context["your_move"] = is_turn_of(game, user)
    notify(
        user=user,
        event=Event.CHALLENGE_ACCEPTED,
        context=context,
        dedupe_key=f"{Event.CHALLENGE_ACCEPTED}:{challenge.pk}:{user.pk}",
    )


def on_challenge_declined(challenge: Challenge, *, by: Any = None) -> None:
    """Tell the challenger that a player they challenged (``by``, default: the opponent)
    declined."""
    user = challenge.challenger
    context = _challenge_context(challenge, opponent_name=player_name(by or challenge.opponent))
    notify(
        user=user,
        event=Event.CHALLENGE_DECLINED,
        context=context,
        dedupe_key=f"{Event.CHALLENGE_DECLINED}:{challenge.pk}:{user.pk}",
    )


def on_game_message(message: GameMessage) -> None:
    """A player wrote in a game: their opponent hears of it (hidden messages never go out)."""
    game = message.game
    if message.is_hidden:
        return
    if game.seat_of(message.author) is None:
        return
    for user in opponents(game, message.author):
        context = game_context(game, user)
        context.update(sender_name=player_name(message.author), message=message.body)
        notify(
            user=user,
            event=Event.GAME_MESSAGE,
            context=context,
            dedupe_key=f"{Event.GAME_MESSAGE}:{message.pk}:{user.pk}",
        )


def reminder_window(hours: int, *, weekends_off: bool) -> timedelta:
    """How far away a deadline can be for a reminder of at most ``hours`` to be due, when
    the player to move has no vacation: without weekends off the clock runs all the time;
    with them, a span of 7/5 · hours + 4 days holds more running time than ``hours`` (see
    ``games.clock.running_time_at_least``)."""
    if not weekends_off:
        return timedelta(hours=hours)
    return timedelta(hours=hours) * 7 / 5 + timedelta(days=4)


#: The window for the largest reminder anyone can choose (MAX_REMINDER_HOURS, 14 days).
REMINDER_WINDOW = reminder_window(MAX_REMINDER_HOURS, weekends_off=True)

DEFAULT_TIME_ZONE = str(Profile._meta.get_field("time_zone").default)

#: Games read per step of a reminder scan: memory stays bounded on any backlog.
REMINDER_CHUNK = 2000


def deadline_reminders_queue(*, now: datetime, chunk_size: int = REMINDER_CHUNK) -> list[int]:
    """Queue the deadline reminders due at ``now``; returns the ids of the games reminded.

    Each player chooses hours in ``Profile.reminder_hours`` (``[]``: none). In a game where
    they are to move, the reminder for ``h`` hours is due once their running clock has at
    most ``h`` hours left, if the turn gave them more than ``h`` hours. Only the smallest due
    ``h`` is sent, once per turn (its dedupe key names the turn by when it began, and ``h``;
    a Celtic Knot square or extra move does not make a new turn), so a late run sends one
    email rather than a burst.

    Only games that can be due are read: those whose deadline is within the reminder window
    of the largest reminder any player has chosen (``reminder_window``; at most
    ``REMINDER_WINDOW``), and those whose player to move has a vacation (found with one
    query per ``VACATION_BATCH`` players on vacation, none when no one is). They come in one
    streamed query with what is needed of the player to move (``with_mover``: their bank,
    time zone and reminder choices; no seats, players or profiles are built), handled
    ``chunk_size`` at a time so memory stays bounded. The vacations that have not ended are
    read once (one row per vacation, so bounded by the number of players). A chunk in which
    some reminder is due costs one more query for the reminders already queued, one for the
    seats and players of the games still to remind, then the work of each email.
    """
    vacations = vacation_intervals_by_user(user_ids=None, since=now)
    hours = _largest_reminder_chosen()
    candidates = (
        Game.objects.filter(status=Game.Status.ACTIVE, deadline__gt=now)
        .filter(
            Q(weekends_off=False, deadline__lte=now + reminder_window(hours, weekends_off=False))
            | Q(weekends_off=True, deadline__lte=now + reminder_window(hours, weekends_off=True))
            | Q(pk__in=_games_awaiting_a_vacation(list(vacations), now=now))
        )
        .with_mover()
        .order_by("deadline", "pk")
        .iterator(chunk_size=chunk_size)
    )
    reminded: list[int] = []
    while chunk := list(itertools.islice(candidates, chunk_size)):
        reminded += _reminders_queue_chunk(chunk, now=now, vacations=vacations)
    return reminded


#: Players on vacation whose games one query of the reminder scan looks up.
VACATION_BATCH = 200


def _games_awaiting_a_vacation(user_ids: list[int], *, now: datetime) -> list[int]:
    """The ids of the games in progress that allow vacations and wait for the move of one of
    ``user_ids`` (players with a vacation not over at ``now``)."""
    found: list[int] = []
    for start in range(0, len(user_ids), VACATION_BATCH):
        batch = user_ids[start : start + VACATION_BATCH]
        awaiting = Game.objects.awaiting_any(batch).filter(vacation_allowed=True, deadline__gt=now)
        found += awaiting.order_by().values_list("pk", flat=True)  # ids, in no order
    return found


def _largest_reminder_chosen() -> int:
    """The largest reminder any player has chosen (the default for players without a
    profile yet), from the few distinct choices."""
    choices = Profile.objects.values_list("reminder_hours", flat=True).distinct()
    return max(
        (hours for chosen in [*choices, default_reminder_hours()] for hours in chosen), default=0
    )


def _reminders_queue_chunk(
    games: list[Game], *, now: datetime, vacations: dict[int, tuple[Interval, ...]]
) -> list[int]:
    """Queue the reminders due in ``games`` (``vacations``: everyone's, by user id): one
    query for the reminders already queued (if any is due), then the emails of the rest,
    each in its own transaction."""
    due: dict[int, tuple[int, str]] = {}  # game id -> (hours, dedupe key)
    for game in games:
        hours = _reminder_due_in(game, now=now, vacations=vacations)
        if hours is not None:
            mover = game.mover_user_id
            due[game.pk] = (hours, _reminder_key(game, user_id=mover, hours=hours))
    if not due:
        return []
    queued = set(
        OutboxEmail.objects.filter(dedupe_key__in=[key for _, key in due.values()]).values_list(
            "dedupe_key", flat=True
        )
    )
    to_remind = [game for game in games if game.pk in due and due[game.pk][1] not in queued]
    prefetch_related_objects(to_remind, SEATS_WITH_PLAYERS)  # what the emails say
    reminded = []
    for game in to_remind:
        with transaction.atomic():
            if on_deadline_near(
                game,
                hours=due[game.pk][0],
                now=now,
                vacations=_vacations_counted(game, vacations),
            ):
                reminded.append(game.pk)
    return reminded


def _reminder_due_in(
    game: Game, *, now: datetime, vacations: dict[int, tuple[Interval, ...]]
) -> int | None:
    """The smallest reminder of the player to move in ``game`` (read ``with_mover``) that
    is due now, or None."""
    if game.seat_to_move is None or game.deadline is None:
        return None
    # no profile yet: the choices and time zone it would be created with
    zone = game.mover_time_zone or DEFAULT_TIME_ZONE
    return _reminder_due(
        deadline=game.deadline,
        now=now,
        chosen=game.mover_reminder_hours,
        bank=game.mover_time_left,
        zone=zone if game.weekends_off else None,
        vacations=_vacations_counted(game, vacations),
    )


def _vacations_counted(
    game: Game, vacations: dict[int, tuple[Interval, ...]]
) -> tuple[Interval, ...]:
    """The vacations of the player to move in ``game`` (read ``with_mover``) that stop its
    clock."""
    if not game.vacation_allowed:
        return ()
    return vacations.get(game.mover_user_id, ())


def _reminder_due(
    *,
    deadline: datetime,
    now: datetime,
    chosen: list[int] | None,
    bank: timedelta | None,
    zone: str | None,
    vacations: tuple[Interval, ...],
) -> int | None:
    """The smallest of the mover's reminder hours that is due now, or None.

    The exact running time is only worked out when a cheap lower bound of it does not
    already rule every chosen reminder out.
    """
    if chosen is None:  # no profile yet: the defaults a profile would be created with
        chosen = default_reminder_hours()
    if not chosen or bank is None:
        return None
    if running_time_at_least(
        now, deadline, weekends_off=zone is not None, vacations=vacations
    ) > timedelta(hours=max(chosen)):
        return None
    pauses = Pauses(weekend_zone=ZoneInfo(zone) if zone else None, vacations=vacations)
    time_left = running_time(now, deadline, pauses.stream(since=now))
    due = [h for h in chosen if time_left <= timedelta(hours=h) < bank]
    return min(due, default=None)
