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
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import transaction
from django.db.models import Case, F, Q, When, prefetch_related_objects
from django.urls import reverse

from accounts.models import Profile, default_reminder_hours
from accounts.selectors import profile_get, vacation_intervals_by_user
from accounts.validators import MAX_REMINDER_HOURS
from games.clock import Interval, Pauses, running_time, running_time_at_least
from games.models import Challenge, Game, GameMessage, Side
from games.selectors import game_clock, game_position, termination_text
from notifications.email_events import Event
from notifications.models import OutboxEmail
from notifications.position import POSITION_PLY
from notifications.reply_tokens import (
    challenge_reply_token_make,
    reply_address,
    reply_token_make,
)
from notifications.services import Notice, notify, notify_many
from rankings.selectors import rating_change_for_game


def player_name(user: Any) -> str:
    """The name a player goes by on the site (their profile's)."""
    return profile_get(user=user).name


def game_context(game: Game, user: Any) -> dict[str, Any]:
    """The game (read again by the worker) and, as they are now, what changes as it goes on:
    the ply, the deadline and the result."""
    side = game.player_side(user)
    opponent = game.blue if side == Side.ORANGE else game.orange
    return {
        "game": game,
        "ply": game.ply,
        "deadline": game.deadline,
        "result": game.result,
        "side": side.label if side else "",
        "opponent_name": player_name(opponent),
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
    if not game.is_active or not game.to_move:
        return None
    user = game.player(game.to_move)
    context = game_context(game, user)
    context[POSITION_PLY] = game.ply
    # A turn's email goes out as the turn starts: the running time left is the whole bank
    # (the deadline is the bank's end, pauses skipped), so no clock needs reading.
    context["time_left"] = game.time_left(game.to_move)
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
    prefetch_related_objects([user for game in games for user in (game.orange, game.blue)],
                             "profile")  # fmt: skip


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
    user = game.player(game.to_move)
    context = game_context(game, user)
    clock = {"paused": reading.paused, "resumes_at": reading.resumes_at}
    context.update(time_left=reading.time_left, hours=hours, clock=clock)
    row = notify(
        user=user,
        event=Event.DEADLINE_REMINDER,
        context=context,
        dedupe_key=f"{Event.DEADLINE_REMINDER}:{game.pk}:{game.ply}:{user.pk}:{hours}h",
        reply_to=move_reply_context(context, game=game, user=user),
    )
    return row is not None


def on_game_started(game: Game) -> None:
    """A game began that its players are to hear of as such (``game_started`` with
    ``announce``: a knockout match's next pair). Games that start by accepting a challenge,
    in a tournament round or on a ladder are announced by their own emails.
    """
    for user in (game.orange, game.blue):
        context = game_context(game, user)
        context["your_move"] = game.player_side(user) == game.to_move
        notify(
            user=user,
            event=Event.GAME_STARTED,
            context=context,
            dedupe_key=f"{Event.GAME_STARTED}:{game.pk}:{user.pk}",
        )


def on_game_finished(game: Game) -> None:
    """A game ended (finished or annulled): both players hear the result and the knots."""
    board = _final_board(game)
    ending = termination_text(game=game)
    for user in (game.orange, game.blue):
        side = game.player_side(user)
        context = game_context(game, user)
        context.update(
            board,
            outcome=_outcome(game, side),
            termination=ending,
            rating_change=_rating_change(game, user),
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


def _rating_change(game: Game, user: Any) -> dict[str, Any] | None:
    change = rating_change_for_game(game_id=game.pk, user_id=user.pk)
    if change is None:
        return None
    return {"before": change.before, "after": change.after, "signed_delta": change.signed_delta}


def _final_board(game: Game) -> dict[str, Any]:
    """The closed knots of the final position and each colour's knot scores, best first."""
    result = game_position(game=game).result()
    return {
        "knots": [
            {"size": len(knot.cells), "orange": knot.orange, "blue": knot.blue}
            for knot in result.knots
        ],
        "orange_scores": ", ".join(map(str, result.score.orange)) or "none",
        "blue_scores": ", ".join(map(str, result.score.blue)) or "none",
    }


def _outcome(game: Game, side: Side | None) -> str:
    """'won', 'lost', 'drew' or 'annulled', from ``side``'s point of view."""
    if game.status == Game.Status.ANNULLED or not game.result:
        return "annulled"
    if game.result == "1/2-1/2":
        return "drew"
    winner = Side.ORANGE if game.result == "1-0" else Side.BLUE
    return "won" if side == winner else "lost"


def on_challenge_received(challenge: Challenge) -> None:
    """A challenge addressed to someone (open seeks notify no one)."""
    if challenge.opponent_id is None:
        return
    context = _challenge_context(challenge, challenger_name=player_name(challenge.challenger))
    notify(
        user=challenge.opponent,
        event=Event.CHALLENGE_RECEIVED,
        context=context,
        dedupe_key=f"{Event.CHALLENGE_RECEIVED}:{challenge.pk}:{challenge.opponent_id}",
        reply_to=challenge_reply_context(context, challenge=challenge),
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


def challenge_reply_context(context: dict[str, Any], *, challenge: Challenge) -> str:
    """Add a token with which the challenged player answers ``challenge`` by email to
    ``context`` (as ``reply_token``, empty when replies by email are off); returns the
    Reply-To address."""
    token = challenge_reply_token_make(challenge_id=challenge.pk, user_id=challenge.opponent_id)
    return _reply_token_add(context, token)


def on_challenge_accepted(challenge: Challenge, game: Game) -> None:
    """Tell the challenger their challenge was accepted and the game has begun."""
    user = challenge.challenger
    context = game_context(game, user)
    context["challenge"] = challenge
    context["your_move"] = game.player_side(user) == game.to_move
    notify(
        user=user,
        event=Event.CHALLENGE_ACCEPTED,
        context=context,
        dedupe_key=f"{Event.CHALLENGE_ACCEPTED}:{challenge.pk}:{user.pk}",
    )


def on_challenge_declined(challenge: Challenge) -> None:
    """Tell the challenger that the player they challenged declined."""
    user = challenge.challenger
    context = _challenge_context(challenge, opponent_name=player_name(challenge.opponent))
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
    author_side = game.player_side(message.author)
    if author_side is None:
        return
    user = game.blue if author_side == Side.ORANGE else game.orange
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
    ``h`` is sent, once per turn (its dedupe key names the ply and ``h``), so a late run
    sends one email rather than a burst.

    Only games that can be due are read: those whose deadline is within the reminder window
    of the largest reminder any player has chosen (``reminder_window``; at most
    ``REMINDER_WINDOW``), and those whose player to move has a vacation. They come as plain
    rows (with the mover's reminder choices and time zone) in one streamed query, handled
    ``chunk_size`` at a time so memory stays bounded. The vacations that have not ended are
    read once (one row per vacation, so bounded by the number of players). A chunk in which
    some reminder is due costs one more query for the reminders already queued, then the
    work of those still to send.
    """
    vacations = vacation_intervals_by_user(user_ids=None, since=now)
    on_vacation = list(vacations)
    hours = _largest_reminder_chosen()
    mover_is_orange = Q(to_move=Side.ORANGE)
    candidates = (
        Game.objects.filter(status=Game.Status.ACTIVE, deadline__gt=now)
        .filter(
            Q(weekends_off=False, deadline__lte=now + reminder_window(hours, weekends_off=False))
            | Q(weekends_off=True, deadline__lte=now + reminder_window(hours, weekends_off=True))
            | Q(vacation_allowed=True, to_move=Side.ORANGE, orange__in=on_vacation)
            | Q(vacation_allowed=True, to_move=Side.BLUE, blue__in=on_vacation)
        )
        .annotate(
            mover_id=_for_mover(mover_is_orange, "orange_id", "blue_id"),
            mover_bank=_for_mover(mover_is_orange, "orange_time_left", "blue_time_left"),
            mover_hours=_for_mover(
                mover_is_orange, "orange__profile__reminder_hours", "blue__profile__reminder_hours"
            ),
            mover_zone=_for_mover(
                mover_is_orange, "orange__profile__time_zone", "blue__profile__time_zone"
            ),
        )
        .order_by("deadline", "pk")
        .values_list(*_ReminderRow._fields)
        .iterator(chunk_size=chunk_size)
    )
    reminded: list[int] = []
    while chunk := [_ReminderRow(*row) for row in itertools.islice(candidates, chunk_size)]:
        reminded += _reminders_queue_chunk(chunk, now=now, vacations=vacations)
    return reminded


def _for_mover(mover_is_orange: Q, orange: str, blue: str) -> Case:
    """The column ``orange`` if Orange is to move, else ``blue``."""
    return Case(When(mover_is_orange, then=F(orange)), default=F(blue))


def _largest_reminder_chosen() -> int:
    """The largest reminder any player has chosen (the default for players without a
    profile yet), from the few distinct choices."""
    choices = Profile.objects.values_list("reminder_hours", flat=True).distinct()
    return max(
        (hours for chosen in [*choices, default_reminder_hours()] for hours in chosen), default=0
    )


class _ReminderRow(NamedTuple):
    """What deciding whether a reminder is due needs of one game (field names as queried)."""

    pk: int
    deadline: datetime
    ply: int
    weekends_off: bool
    vacation_allowed: bool
    mover_id: int
    mover_bank: timedelta | None
    mover_hours: list[int] | None
    mover_zone: str | None


def _reminders_queue_chunk(
    rows: list[_ReminderRow], *, now: datetime, vacations: dict[int, tuple[Interval, ...]]
) -> list[int]:
    """Queue the reminders due among ``rows`` (``vacations``: everyone's, by user id): one
    query for the reminders already queued (if any is due), then the emails of the rest,
    each in its own transaction."""
    movers: dict[int, int] = {}
    due: dict[int, tuple[int, str]] = {}  # game id -> (hours, dedupe key)
    for row in rows:
        movers[row.pk] = mover = row.mover_id
        hours = _reminder_due(
            deadline=row.deadline,
            now=now,
            chosen=row.mover_hours,
            bank=row.mover_bank,
            # no profile yet: the time zone it would be created with
            zone=(row.mover_zone or DEFAULT_TIME_ZONE) if row.weekends_off else None,
            vacations=vacations.get(mover, ()) if row.vacation_allowed else (),
        )
        if hours is not None:
            due[row.pk] = (hours, f"{Event.DEADLINE_REMINDER}:{row.pk}:{row.ply}:{mover}:{hours}h")
    if not due:
        return []
    queued = set(
        OutboxEmail.objects.filter(dedupe_key__in=[key for _, key in due.values()]).values_list(
            "dedupe_key", flat=True
        )
    )
    to_send = [game_id for game_id, (_, key) in due.items() if key not in queued]
    reminded = []
    games = Game.objects.select_related("orange__profile", "blue__profile").in_bulk(to_send)
    for game_id in to_send:
        game = games[game_id]
        with transaction.atomic():
            if on_deadline_near(
                game,
                hours=due[game_id][0],
                now=now,
                vacations=vacations.get(movers[game_id], ()),
            ):
                reminded.append(game_id)
    return reminded


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
