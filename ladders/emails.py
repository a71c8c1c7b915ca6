"""The ladders' emails, built here and queued through notifications' one public call
(``notifications.services.notify``). Registered in ``LaddersConfig.ready()``; their templates
are ``notifications/ladder_*``. Each runs inside the caller's transaction and only writes
outbox rows."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import models

from games.models import Game
from ladders.models import LadderChallenge
from notifications.email_events import email_events_register
from notifications.events import player_name
from notifications.services import notify


class Email(models.TextChoices):
    """The ladders' email events (keys of the outbox's registry)."""

    CHALLENGE = "ladder_challenge", "Ladder challenge received"
    RESULT = "ladder_result", "Ladder result and new place"


def emails_register() -> None:
    """Register the ladders' emails with the profile switch of each."""
    email_events_register(
        Email,
        preferences={Email.CHALLENGE: "notify_challenge", Email.RESULT: "notify_game_end"},
        digest=frozenset(),
    )


def _ladder_context(challenge: LadderChallenge) -> dict[str, Any]:
    return {
        "ladder_name": challenge.ladder.name,
        "ladder_url": f"{settings.SITE_URL}/ladders/{challenge.ladder_id}/",
        "game": challenge.game,
        "time_control": challenge.game.time_control.describe(),
    }


def challenge_made(*, challenge: LadderChallenge) -> None:
    """A ladder challenge was made: the challenged player hears, with the game's link."""
    notify(
        user=challenge.defender,
        event=Email.CHALLENGE,
        context={
            **_ladder_context(challenge),
            "challenger_name": player_name(challenge.challenger),
            "challenger_place": challenge.challenger_place,
            "defender_place": challenge.defender_place,
        },
        dedupe_key=f"{Email.CHALLENGE}:{challenge.pk}",
    )


def result(
    *,
    challenge: LadderChallenge,
    places: Mapping[int, tuple[int | None, int | None]],
    dropped: int,
) -> None:
    """A ladder challenge was decided: both players hear the outcome and their new place.

    ``places`` maps each player's id to (place before, place after); ``dropped`` is the
    number of places the player who lost on time dropped (0 if nobody did).
    """
    context = _ladder_context(challenge)
    timed_out = challenge.game.termination == Game.Termination.TIMEOUT
    for user, opponent in (
        (challenge.challenger, challenge.defender),
        (challenge.defender, challenge.challenger),
    ):
        before, after = places[user.pk]
        lost_on_time = timed_out and challenge.winner_id not in (None, user.pk)
        notify(
            user=user,
            event=Email.RESULT,
            context={
                **context,
                "opponent_name": player_name(opponent),
                "outcome": _outcome(challenge, user_id=user.pk),
                "place_before": before,
                "place_after": after,
                "dropped": dropped if lost_on_time else 0,
            },
            dedupe_key=f"{Email.RESULT}:{challenge.pk}:{user.pk}",
        )


def _outcome(challenge: LadderChallenge, *, user_id: int) -> str:
    """How the challenge ended, as the player ``user_id`` reads it."""
    if challenge.winner_id is None:
        return "no result (the game was annulled)" if not challenge.game.result else "a draw"
    return "you won" if challenge.winner_id == user_id else "you lost"
