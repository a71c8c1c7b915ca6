"""Challenges: offer, accept (the game starts at once), decline, cancel, and close them all
for a suspended account."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import audit, errors, events
from games.clock import TimeControl
from games.kinds import DEFAULT_KIND, get_kind
from games.kinds.base import KindError
from games.models import Challenge, ChallengeEntrant, ChallengeInvitation, Game
from games.services.common import User
from games.services.start import _game_new, _game_save_started
from moderation.services import audit_record


@transaction.atomic
def challenge_create(
    *,
    challenger: User,
    opponent: User | None = None,
    invited: Sequence[User] = (),
    kind: str = DEFAULT_KIND,
    seat_count: int | None = None,
    seat_choice: int | None = None,
    rated: bool = True,
    public: bool = True,
    window_forfeit: bool = False,
    time_control: TimeControl | None = None,
    message: str = "",
    takebacks: bool = False,
) -> Challenge:
    """Offer a game of ``kind`` to ``opponent``, to the ``invited`` players, or to anyone
    when neither is given.

    ``seat_count``: the players the game needs (default: the kind's fewest, or the challenger
    and everyone invited); an open seek for more than two fills seat by seat. ``invited``: a
    direct challenge to several named players (a game for three or more): each accepts or
    declines, the game starts when all have accepted, and one decline closes it for all.
    ``seat_choice``: the challenger's seat (None: random).
    """
    if invited:
        if opponent is not None:
            raise errors.DomainError(
                "Name one opponent (a game for two) or the invited players (a game for "
                "three or more), not both.",
                code="invalid_seats",
            )
        seat_count = _invited_seat_count(invited, seat_count)
    seat_count = _seats_checked(kind, seat_count, seat_choice)
    if opponent is not None and seat_count != 2:
        raise errors.DomainError(
            f"A challenge to one player is a game for two; this game is for {seat_count}: "
            "invite the other players too, or offer it as an open seek.",
            code="invalid_seats",
        )
    for player in [opponent] if opponent is not None else invited:
        _check_challengeable(player, challenger=challenger)
    tc = time_control or TimeControl()
    challenge = Challenge.objects.create(
        challenger=challenger,
        opponent=opponent,
        kind=kind,
        seat_count=seat_count,
        seat_choice=seat_choice,
        rated=rated,
        public=public,
        window_forfeit=window_forfeit,
        takebacks=takebacks,
        message=message,
        **Challenge.time_control_columns(tc),
    )
    ChallengeInvitation.objects.bulk_create(
        ChallengeInvitation(challenge=challenge, user=player) for player in invited
    )
    events.publish(events.challenge_created, challenge=challenge)
    return challenge


def _invited_seat_count(invited: Sequence[User], seat_count: int | None) -> int:
    """The seats of a challenge to the ``invited`` players: theirs and the challenger's."""
    if len({player.pk for player in invited}) != len(invited):
        raise errors.DomainError(
            "A player is invited twice: name each invited player once.", code="invalid_seats"
        )
    needed = len(invited) + 1
    if len(invited) < 2:
        raise errors.DomainError(
            "A challenge to one player names them as the opponent; invite two or more "
            "players for a game of three or more.",
            code="invalid_seats",
        )
    if seat_count is not None and seat_count != needed:
        raise errors.DomainError(
            f"{len(invited)} players are invited, so the game is for {needed} with you, not "
            f"{seat_count}: leave seat_count out or invite {seat_count - 1} players.",
            code="invalid_seats",
        )
    return needed


def _check_challengeable(player: User, *, challenger: User) -> None:
    if player.pk == challenger.pk:
        raise errors.DomainError("You cannot challenge yourself.", code="self_challenge")
    if not player.is_active:
        raise errors.DomainError(
            f"{player} cannot be challenged: the account is suspended.", code="opponent_inactive"
        )


def _seats_checked(kind_id: str, seat_count: int | None, seat_choice: int | None) -> int:
    """The seat count of a new challenge, checked against its kind, with the chosen seat."""
    try:
        kind = get_kind(kind_id)
        seat_count = kind.seats.min if seat_count is None else seat_count
        kind.check_seat_count(seat_count)
    except KindError as error:
        raise errors.DomainError(str(error), code="invalid_seats") from None
    if seat_choice is not None and not 1 <= seat_choice <= seat_count:
        raise errors.DomainError(
            f"Seat {seat_choice} does not exist in a game for {seat_count}: choose 1 to "
            f"{seat_count}, or none for a random seat.",
            code="invalid_seat",
        )
    return seat_count


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
) -> Game | Challenge:
    """Accept an open seek or a challenge addressed to ``user``. A game for two starts at
    once; a seek for more gives ``user`` a seat and starts when the last one is taken.
    Answers the game once started, else the seek."""
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
    addressed = challenge.opponent_id is not None or challenge.invitations.exists()
    if addressed and not _addressed_to(challenge, user):
        raise errors.NotPermitted(
            f"Challenge #{challenge.pk} is addressed to someone else.", code="not_addressed_to_you"
        )
    now = now or timezone.now()
    if challenge.seat_count > 2:
        return _seek_join(challenge, user=user, rng=rng, now=now)
    challenge.opponent = user
    return _challenge_start(challenge, players=[challenge.challenger, user], rng=rng, now=now)


def _seek_join(
    challenge: Challenge, *, user: User, rng: random.Random | None, now: datetime
) -> Challenge | Game:
    """``user`` takes a seat of an open seek for more than two (or accepts a challenge to
    several); the last seat starts the game. Answers the game once started, else the seek."""
    if challenge.entrants.filter(user=user).exists():
        raise errors.Conflict(
            f"You already hold a seat in challenge #{challenge.pk}.", code="already_seated"
        )
    ChallengeEntrant.objects.create(challenge=challenge, user=user)
    entrants = [entry.user for entry in challenge.entrants.select_related("user")]
    if len(entrants) + 1 < challenge.seat_count:
        events.publish(events.seek_joined, challenge=challenge, user=user)
        return challenge
    return _challenge_start(challenge, players=[challenge.challenger, *entrants], rng=rng, now=now)


def _challenge_start(
    challenge: Challenge, *, players: list[User], rng: random.Random | None, now: datetime
) -> Game:
    """Start the game of a full ``challenge``: the challenger in their chosen seat, everyone
    else (and the challenger without a choice) seated at random."""
    rng = rng or random.SystemRandom()
    challenger, others = players[0], players[1:]
    seat = challenge.seat_choice or rng.choice(range(1, len(players) + 1))
    rng.shuffle(others)
    seated = others[:]
    seated.insert(seat - 1, challenger)
    challenge.status = Challenge.Status.ACCEPTED
    challenge.decided_at = now
    challenge.save(update_fields=["status", "opponent", "decided_at"])
    new, seats = _game_new(
        players=seated,
        kind=challenge.kind,
        rated=challenge.rated,
        public=challenge.public,
        window_forfeit=challenge.window_forfeit,
        takebacks=challenge.takebacks,
        tc=challenge.time_control,
        challenge=challenge,
    )
    game = _game_save_started(new, seats, tc=challenge.time_control, now=now)
    events.publish(events.game_started, games=[game], announce=False)
    events.publish(events.challenge_accepted, challenge=challenge, game=game)
    events.publish(events.turn_started, games=[game])  # the first mover's "your turn"
    return game


def _addressed_to(challenge: Challenge, user: User) -> bool:
    """Whether ``user`` is the opponent of ``challenge`` or one of the players it invites."""
    if challenge.opponent_id is not None:
        return challenge.opponent_id == user.pk
    return challenge.invitations.filter(user=user).exists()


@transaction.atomic
def challenge_decline(*, challenge_id: int, user: User) -> Challenge:
    """Decline a challenge addressed to ``user`` (a decline by any invited player closes a
    challenge to several for everyone); the challenger hears of it by email."""
    challenge = _challenge_locked(challenge_id)
    _require_open(challenge)
    if not _addressed_to(challenge, user):
        who = "the invited players" if challenge.invitations.exists() else "the challenged player"
        raise errors.NotPermitted(
            f"Only {who} can decline a direct challenge.", code="not_addressed_to_you"
        )
    if challenge.entrants.filter(user=user).exists():
        raise errors.Conflict(
            f"You accepted challenge #{challenge.pk} already: it waits for the other invited "
            "players, and only the challenger can cancel it now.",
            code="already_seated",
        )
    _challenge_close(challenge, Challenge.Status.DECLINED)
    events.publish(events.challenge_declined, challenge=challenge, by=user)
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
    invited = ChallengeInvitation.objects.filter(user=user).values("challenge_id")
    open_ones = Challenge.objects.select_for_update().filter(
        Q(challenger=user) | Q(opponent=user) | Q(pk__in=invited), status=Challenge.Status.OPEN
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
