"""Challenges: offer, accept (the game starts at once), decline, cancel, and close them all
for a suspended account."""

from __future__ import annotations

import random
from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import audit, errors, events
from games.clock import TimeControl
from games.models import Challenge, Game, Side
from games.services.common import User
from games.services.start import _game_new, _game_save_started
from moderation.services import audit_record


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
    takebacks: bool = False,
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
        takebacks=takebacks,
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
        takebacks=challenge.takebacks,
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
