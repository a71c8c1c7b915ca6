"""Ladder writes: create a ladder, join, leave, challenge, record a result, remove players.

Every write runs in ``transaction.atomic()`` with the ladder row locked
(``select_for_update``), so two results or a result and a challenge never interleave. The
rules are the pure functions of ``ladders.rules``; each change to the order is saved with a
``LadderEvent`` holding the whole order after it. A challenge's game starts at once; its end
reaches the ladder through games' ``game_finished`` and ``game_result_changed`` events,
after their commit (``ladder_game_ended``, safe to run twice), and the beat
(``ladders_advance``) catches up on lost messages and removes inactive players.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import services as game_services
from games.clock import TimeControl
from games.kinds.pairs import kind_problem
from games.models import Game
from ladders import audit, emails, errors, selectors
from ladders.models import Ladder, LadderChallenge, LadderEvent, LadderPlayer
from ladders.rules import (
    ChallengeContext,
    LadderRules,
    Order,
    challenge_refusal,
    inactive_players,
    order_after_drop,
    order_after_joining,
    order_after_leaving,
    order_after_result,
    place_of,
)
from moderation.services import audit_record

User = AbstractBaseUser
logger = logging.getLogger(__name__)

ORGANISE_PERMISSION = selectors.ORGANISE
MANAGE_PERMISSION = selectors.MANAGE_PLAYERS

# The limits an organiser chooses; ``ladder_create`` takes them.
LIMIT_FIELDS: tuple[str, ...] = (
    "challenge_range",
    "max_open_challenges",
    "rematch_days",
    "timeout_drop_places",
    "inactivity_days",
)
OTHER_FIELDS: tuple[str, ...] = ("kind", "description", "rated", "public")


# --- Loading -------------------------------------------------------------------------------


def _ladder_locked(ladder_id: int) -> Ladder:
    try:
        return Ladder.objects.select_for_update().get(pk=ladder_id)
    except Ladder.DoesNotExist:
        raise errors.LadderNotFound(f"There is no ladder #{ladder_id}.") from None


def _rows(ladder: Ladder) -> list[LadderPlayer]:
    return list(ladder.players.order_by("place", "pk"))


def _order(rows: Sequence[LadderPlayer]) -> Order:
    return tuple(row.player_id for row in rows)


def _order_save(ladder: Ladder, rows: Sequence[LadderPlayer], order: Order) -> None:
    """Give each remaining row its place in ``order`` (rows not in it must be gone)."""
    place = {player: index + 1 for index, player in enumerate(order)}
    changed = []
    for row in rows:
        if row.player_id in place and row.place != place[row.player_id]:
            row.place = place[row.player_id]
            changed.append(row)
    LadderPlayer.objects.bulk_update(changed, ["place"])


def _event(
    ladder: Ladder,
    *,
    kind: str,
    player_id: int,
    before: Order,
    after: Order,
    now: datetime,
    opponent_id: int | None = None,
    challenge: LadderChallenge | None = None,
    note: str = "",
) -> LadderEvent:
    return LadderEvent.objects.create(
        ladder=ladder,
        kind=kind,
        player_id=player_id,
        opponent_id=opponent_id,
        challenge=challenge,
        place_before=place_of(before, player_id),
        place_after=place_of(after, player_id),
        opponent_place_before=None if opponent_id is None else place_of(before, opponent_id),
        opponent_place_after=None if opponent_id is None else place_of(after, opponent_id),
        order_after=list(after),
        note=note,
        created_at=now,
    )


def _busy(ladder: Ladder) -> set[int]:
    """Players with a challenge game being played on ``ladder``."""
    busy: set[int] = set()
    for pair in ladder.challenges.filter(status=LadderChallenge.Status.PLAYING).values_list(
        "challenger_id", "defender_id"
    ):
        busy.update(pair)
    return busy


# --- Create --------------------------------------------------------------------------------


@transaction.atomic
def ladder_create(
    *,
    organiser: User,
    name: str,
    time_control: TimeControl | None = None,
    **settings: Any,
) -> Ladder:
    """A new, empty ladder. ``settings``: ``LIMIT_FIELDS`` and ``OTHER_FIELDS``; every one
    is checked together, ``InvalidLadderSettings.extra['errors']`` names each bad one."""
    selectors.ladder_creator_require(user=organiser)
    unknown = sorted(set(settings) - set(LIMIT_FIELDS) - set(OTHER_FIELDS))
    if unknown:
        raise errors.InvalidLadderSettings(
            f"Unknown setting(s): {', '.join(unknown)}. "
            f"Known: {', '.join(LIMIT_FIELDS + OTHER_FIELDS)}.",
            code="unknown_setting",
        )
    ladder = Ladder(organiser=organiser, name=name.strip(), **settings)
    if time_control is not None:
        for field, value in Ladder.time_control_columns(time_control).items():
            setattr(ladder, field, value)
    problems = LadderRules(**{f: getattr(ladder, f) for f in LIMIT_FIELDS}).problems()
    if not ladder.name:
        problems["name"] = "A name is required."
    elif Ladder.objects.filter(name__iexact=ladder.name).exists():
        problems["name"] = f"There is already a ladder called {ladder.name!r}."
    kind_refusal = kind_problem(ladder.kind)
    if kind_refusal:
        problems["kind"] = kind_refusal
    try:
        _ = ladder.time_control
    except ValueError as exc:
        problems["time_control"] = str(exc)
    if problems:
        summary = "; ".join(f"{field}: {text}" for field, text in problems.items())
        raise errors.InvalidLadderSettings(f"Invalid settings: {summary}", errors=problems)
    ladder.save()
    return ladder


# --- Join and leave ------------------------------------------------------------------------


@transaction.atomic
def ladder_join(*, ladder_id: int, user: User, now: datetime | None = None) -> LadderPlayer:
    """``user`` joins ``ladder_id`` at the bottom."""
    now = now or timezone.now()
    ladder = _ladder_locked(ladder_id)
    if not user.is_active:
        raise errors.AccountSuspended("A suspended account cannot join a ladder.")
    rows = _rows(ladder)
    before = _order(rows)
    if user.pk in before:
        raise errors.AlreadyOnLadder(
            f"You are on {ladder.name} already, in place {place_of(before, user.pk)}."
        )
    after = order_after_joining(before, player=user.pk)
    row = LadderPlayer.objects.create(
        ladder=ladder, player=user, place=len(after), joined_at=now, last_active_at=now
    )
    _event(
        ladder, kind=LadderEvent.Kind.JOINED, player_id=user.pk, before=before, after=after, now=now
    )
    return row


@transaction.atomic
def ladder_leave(*, ladder_id: int, user: User, now: datetime | None = None) -> None:
    """``user`` leaves; everyone below moves up one. Not while a challenge game is played."""
    ladder = _ladder_locked(ladder_id)
    if user.pk in _busy(ladder):
        raise errors.ChallengeInPlay(
            "You have a challenge game being played on this ladder; leave once it is over "
            "(or resign it)."
        )
    _remove(ladder, player_id=user.pk, kind=LadderEvent.Kind.LEFT, now=now or timezone.now())


def _remove(
    ladder: Ladder, *, player_id: int, kind: str, now: datetime, note: str = ""
) -> LadderEvent:
    rows = _rows(ladder)
    before = _order(rows)
    if player_id not in before:
        raise errors.NotOnLadder(f"That player is not on {ladder.name}.")
    after = order_after_leaving(before, player=player_id)
    LadderPlayer.objects.filter(ladder=ladder, player_id=player_id).delete()
    _order_save(ladder, [r for r in rows if r.player_id != player_id], after)
    return _event(
        ladder, kind=kind, player_id=player_id, before=before, after=after, now=now, note=note
    )


@transaction.atomic
def ladder_player_remove(
    *, ladder_id: int, actor: User, player_id: int, reason: str, now: datetime | None = None
) -> LadderEvent:
    """The organiser (or staff with the permission: ``selectors.ladder_can_manage``) removes
    a player, with a reason; audited.
    A challenge game being played goes on as an ordinary game; its result moves nobody."""
    ladder = _ladder_locked(ladder_id)
    selectors.ladder_manager_require(ladder=ladder, user=actor)
    reason = reason.strip()
    if not reason:
        raise errors.InvalidLadderSettings(
            "Give a reason for removing a player (it is kept in the audit log).",
            code="reason_required",
        )
    event = _remove(
        ladder,
        player_id=player_id,
        kind=LadderEvent.Kind.REMOVED,
        now=now or timezone.now(),
        note=reason[:300],
    )
    audit_record(
        actor=actor,
        action=audit.LADDER_REMOVE,
        target=ladder,
        reason=reason,
        data={"player_id": player_id, "place": event.place_before},
    )
    return event


# --- Challenges ----------------------------------------------------------------------------


@transaction.atomic
def ladder_challenge(
    *, ladder_id: int, challenger: User, defender_id: int, now: datetime | None = None
) -> LadderChallenge:
    """``challenger`` challenges the player ``defender_id``; their game starts at once with
    the ladder's time control, the challenger playing Orange (moving first). Refused, with
    the rule's code, when ``ladders.rules.challenge_refusal`` says so."""
    now = now or timezone.now()
    ladder = _ladder_locked(ladder_id)
    rows = _rows(ladder)
    order = _order(rows)
    refusal = challenge_refusal(
        order,
        challenger=challenger.pk,
        defender=defender_id,
        rules=ladder.rules,
        context=_challenge_context(ladder, challenger.pk, defender_id, now=now),
        now=now,
    )
    if refusal is not None:
        raise errors.ChallengeRefused(refusal.message, code=refusal.code)
    defender = get_user_model().objects.get(pk=defender_id)
    if not defender.is_active:
        raise errors.ChallengeRefused(
            "That player's account is suspended; they cannot be challenged.",
            code="opponent_inactive",
        )
    game = game_services.game_start(
        players=[challenger, defender],
        kind=ladder.kind,
        rated=ladder.rated,
        public=ladder.public,
        time_control=ladder.time_control,
        now=now,
    )
    challenge = LadderChallenge.objects.create(
        ladder=ladder,
        challenger=challenger,
        defender=defender,
        game=game,
        challenger_place=place_of(order, challenger.pk),
        defender_place=place_of(order, defender_id),
        created_at=now,
    )
    LadderPlayer.objects.filter(ladder=ladder, player_id__in=[challenger.pk, defender_id]).update(
        last_active_at=now
    )
    _event(
        ladder,
        kind=LadderEvent.Kind.CHALLENGED,
        player_id=challenger.pk,
        opponent_id=defender_id,
        challenge=challenge,
        before=order,
        after=order,
        now=now,
    )
    emails.challenge_made(challenge=challenge)
    return challenge


def _challenge_context(ladder: Ladder, *players: int, now: datetime) -> ChallengeContext:
    playing = ladder.challenges.filter(status=LadderChallenge.Status.PLAYING)
    recent = ladder.challenges.filter(
        Q(challenger_id__in=players) | Q(defender_id__in=players),
        decided_at__gt=now - timedelta(days=ladder.rematch_days),
    ).exclude(status=LadderChallenge.Status.PLAYING)
    last: dict[frozenset[int], datetime] = {}
    for a, b, decided in recent.values_list("challenger_id", "defender_id", "decided_at"):
        pair = frozenset((a, b))
        last[pair] = max(decided, last.get(pair, decided))
    return ChallengeContext(
        open_pairs=[frozenset(p) for p in playing.values_list("challenger_id", "defender_id")],
        last_decided=last,
    )


# --- Results -------------------------------------------------------------------------------


def ladder_game_ended(*, game_id: int, now: datetime | None = None) -> bool:
    """Apply the end of a ladder challenge's game; True if this call recorded it.

    The first end recorded counts: a second call (or a later adjudication of the game)
    changes nothing, so the hook and the beat may both run for the same game.
    """
    ladder_id = (
        LadderChallenge.objects.filter(game_id=game_id, status=LadderChallenge.Status.PLAYING)
        .values_list("ladder_id", flat=True)
        .first()
    )
    if ladder_id is None:
        return False
    return _record(ladder_id=ladder_id, game_id=game_id, now=now or timezone.now())


@transaction.atomic
def _record(*, ladder_id: int, game_id: int, now: datetime) -> bool:
    ladder = _ladder_locked(ladder_id)
    challenge = (
        LadderChallenge.objects.select_related("game", "challenger", "defender", "ladder")
        .filter(game_id=game_id, status=LadderChallenge.Status.PLAYING)
        .first()
    )
    if challenge is None or challenge.game.status == Game.Status.ACTIVE:
        return False
    game = challenge.game
    rows = _rows(ladder)
    before = _order(rows)
    players = (challenge.challenger_id, challenge.defender_id)
    on_ladder = all(p in before for p in players)
    note = _challenge_decide(challenge, game=game, on_ladder=on_ladder, now=now)
    after = before
    if challenge.status == LadderChallenge.Status.DECIDED and on_ladder:
        after = order_after_result(
            before,
            challenger=challenge.challenger_id,
            defender=challenge.defender_id,
            winner=challenge.winner_id,
        )
    _event(
        ladder,
        kind=LadderEvent.Kind.RESULT,
        player_id=challenge.challenger_id,
        opponent_id=challenge.defender_id,
        challenge=challenge,
        before=before,
        after=after,
        now=now,
        note=note,
    )
    final, dropped = _timeout_drop(ladder, challenge=challenge, game=game, order=after, now=now)
    _order_save(ladder, rows, final)
    LadderPlayer.objects.filter(ladder=ladder, player_id__in=players).update(last_active_at=now)
    emails.result(
        challenge=challenge,
        places={p: (place_of(before, p), place_of(final, p)) for p in players},
        dropped=dropped,
    )
    return True


def _challenge_decide(
    challenge: LadderChallenge, *, game: Game, on_ladder: bool, now: datetime
) -> str:
    """Close ``challenge`` on its ended ``game``: void if the game was annulled, else decided
    with its winner. Answers the note for the ladder's history ("" when the result counts)."""
    note = ""
    if game.status == Game.Status.ANNULLED:
        challenge.status = LadderChallenge.Status.VOID
        note = "The game was annulled: no change."
    else:
        challenge.status = LadderChallenge.Status.DECIDED
        challenge.winner_id = _winner(game)
        if not on_ladder:
            note = "One of the players had left the ladder: no change."
    challenge.decided_at = now
    challenge.save(update_fields=["status", "winner", "decided_at"])
    return note


def _timeout_drop(
    ladder: Ladder, *, challenge: LadderChallenge, game: Game, order: Order, now: datetime
) -> tuple[Order, int]:
    """If the ladder drops players who lose on time and the loser of ``challenge`` did, move
    them down from their place in ``order`` and record it. Answers the order after it and
    how many places they went down (0 when none)."""
    loser = _loser(challenge)
    if (
        game.termination != Game.Termination.TIMEOUT
        or loser is None
        or loser not in order
        or not ladder.timeout_drop_places
    ):
        return order, 0
    final = order_after_drop(order, player=loser, places=ladder.timeout_drop_places)
    _event(
        ladder,
        kind=LadderEvent.Kind.DROPPED,
        player_id=loser,
        challenge=challenge,
        before=order,
        after=final,
        now=now,
        note=f"Lost on time: down {ladder.timeout_drop_places} places (at most to the bottom).",
    )
    return final, final.index(loser) - order.index(loser)


def _winner(game: Game) -> int | None:
    """The id of the player placed first in the finished ``game``, None for a draw."""
    firsts = [user.pk for user, place in game.placings() if place == 1]
    return firsts[0] if len(firsts) == 1 else None


def _loser(challenge: LadderChallenge) -> int | None:
    if challenge.winner_id is None:
        return None
    if challenge.winner_id == challenge.challenger_id:
        return challenge.defender_id
    return challenge.challenger_id


# --- The beat ------------------------------------------------------------------------------


def ladders_advance(*, now: datetime) -> dict[str, list[int]]:
    """Record challenge games whose end a lost message missed, then remove players inactive
    for the ladder's ``inactivity_days``. Safe to run any number of times."""
    recorded = [
        game_id
        for game_id in LadderChallenge.objects.filter(status=LadderChallenge.Status.PLAYING)
        .exclude(game__status=Game.Status.ACTIVE)
        .values_list("game_id", flat=True)
        if ladder_game_ended(game_id=game_id, now=now)
    ]
    removed: list[int] = []
    for ladder_id in Ladder.objects.values_list("pk", flat=True):
        removed.extend(_inactive_remove(ladder_id=ladder_id, now=now))
    return {"recorded": recorded, "removed": removed}


@transaction.atomic
def _inactive_remove(*, ladder_id: int, now: datetime) -> list[int]:
    ladder = _ladder_locked(ladder_id)
    last_active = dict(ladder.players.values_list("player_id", "last_active_at"))
    idle = inactive_players(last_active, busy=_busy(ladder), rules=ladder.rules, now=now)
    for player_id in idle:
        _remove(
            ladder,
            player_id=player_id,
            kind=LadderEvent.Kind.INACTIVE,
            now=now,
            note=f"No challenge game for {ladder.inactivity_days} days.",
        )
    return idle
