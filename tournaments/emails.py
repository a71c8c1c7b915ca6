"""The tournaments' emails, built here and queued through notifications' one public call
(``notifications.services.notify`` / ``notify_many``). Registered in
``TournamentsConfig.ready()``; their templates are ``notifications/tournament_*``.

Each function runs inside the caller's transaction and only writes outbox rows; the dedupe
key of each names the occasion, so telling the same thing twice queues one email.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import models

import celtictext
from games.models import Game
from notifications.email_events import email_events_register
from notifications.events import game_context, profiles_load
from notifications.services import Notice, notify, notify_many
from tournaments.models import Entry, Tournament
from tournaments.selectors import StandingsRow


class Email(models.TextChoices):
    """The tournaments' email events (keys of the outbox's registry)."""

    ROUND = "tournament_round", "Tournament round"
    WITHDRAWN = "tournament_withdrawn", "Withdrawn from a tournament"
    FINISHED = "tournament_finished", "Tournament finished"
    ORGANISER = "tournament_organiser", "News for a tournament organiser"


class OrganiserNews(models.TextChoices):
    """What an organiser is told (``tournament_organiser``'s ``kind``)."""

    ROUND_COMPLETE = "round_complete", "A round is complete"
    ADJUDICATION_NEEDED = "adjudication_needed", "Games to adjudicate"
    DECISION_NEEDED = "decision_needed", "A knockout match needs a decision"
    PAIRING_FAILED = "pairing_failed", "A round cannot be paired"
    FINISHED = "finished", "The event is over"


#: Entries still in the event when it ends: they hear how it ended.
_TOLD_OF_THE_END = (Entry.Status.APPROVED, Entry.Status.ACTIVE, Entry.Status.WITHDRAWN)


def emails_register() -> None:
    """Register the tournaments' emails with the profile switch of each."""
    email_events_register(
        Email,
        preferences={Email.ROUND: "notify_challenge", Email.FINISHED: "notify_game_end"},
        digest=frozenset(),
    )


def _tournament_context(tournament: Tournament) -> dict[str, Any]:
    return {
        "tournament_name": tournament.name,
        "tournament_url": f"{settings.SITE_URL}/tournaments/{tournament.pk}/",
    }


def round_started(
    *,
    tournament_name: str,
    round_number: int,
    games: Sequence[Game],
    byes: Sequence[AbstractBaseUser] = (),
) -> None:
    """A tournament round began: each paired player hears of their game, each bye of the bye.

    ``tournament_name`` and ``round_number`` name the round in the email and its dedupe key,
    so calling this twice for the same round sends nothing more.
    """
    round_key = f"{Email.ROUND}:{tournament_name}:{round_number}"
    profiles_load(games)
    notices = []
    for user, own in _games_by_player(games):
        game = own[0]
        context = game_context(game, user)
        context.update(
            tournament_name=tournament_name,
            round_number=round_number,
            more_games=[_game_line(other, user) for other in own[1:]],
        )
        notices.append(
            Notice(
                user=user,
                event=Email.ROUND,
                context=context,
                dedupe_key=f"{round_key}:{game.pk}:{user.pk}"[:200],
            )
        )
    for user in byes:
        notices.append(
            Notice(
                user=user,
                event=Email.ROUND,
                context={"tournament_name": tournament_name, "round_number": round_number},
                dedupe_key=f"{round_key}:bye:{user.pk}"[:200],
            )
        )
    notify_many(notices=notices)


def _games_by_player(games: Sequence[Game]) -> list[tuple[Any, list[Game]]]:
    """Each player of ``games`` with their games in the order given (a knockout pair: two)."""
    players: dict[int, tuple[Any, list[Game]]] = {}
    for game in games:
        for user in game.seat_users():
            players.setdefault(user.pk, (user, []))[1].append(game)
    return list(players.values())


def _game_line(game: Game, user: Any) -> dict[str, Any]:
    """One more game of ``user`` in the round, as plain values: its number, side, opponent."""
    context = game_context(game, user)
    return {"pk": game.pk, "side": context["side"], "opponent_name": context["opponent_name"]}


def withdrawn(*, tournament: Tournament, entry: Entry, results_cancelled: bool) -> None:
    """A player left a running event (by choice or removed by the organiser)."""
    if entry.player is None:
        return
    context = _tournament_context(tournament)
    context.update(
        removed=entry.status == Entry.Status.REMOVED, results_cancelled=results_cancelled
    )
    notify(
        user=entry.player,
        event=Email.WITHDRAWN,
        context=context,
        dedupe_key=f"{Email.WITHDRAWN}:{tournament.pk}:{entry.pk}",
    )


def finished(*, tournament: Tournament, standings: Sequence[StandingsRow] = ()) -> None:
    """The event finished (``standings``: its rows, best first) or was cancelled
    (``tournament.status_note`` says why): every player still in it hears, and the organiser
    of a finished event (who won; they cancel events themselves). Points are
    written as on the pages (2½); players the tie-breaks leave level share their place."""
    context = _tournament_context(tournament)
    winners = [entry.name for entry in tournament.winners]
    knockout = tournament.is_knockout
    context.update(
        cancelled=tournament.status == Tournament.Status.CANCELLED,
        note=tournament.status_note,
        standings=[_standings_line(r, knockout=knockout) for r in standings],
        winners=celtictext.and_join(winners),
        winners_share=len(winners) > 1,
    )
    ranks = Counter((r.section, r.rank) for r in standings)
    entries = tournament.entries.filter(player__isnull=False, status__in=_TOLD_OF_THE_END)
    for entry in entries.select_related("player"):
        shared = ranks[entry.section, entry.final_rank] > 1
        notify(
            user=entry.player,
            event=Email.FINISHED,
            context={**context, **_your_place(entry, shared=shared, knockout=knockout)},
            dedupe_key=f"{Email.FINISHED}:{tournament.pk}:{entry.player_id}",
        )
    if tournament.status == Tournament.Status.FINISHED:
        who_won = {key: context[key] for key in ("winners", "winners_share")}
        organiser_news(tournament=tournament, kind=OrganiserNews.FINISHED, key="", context=who_won)


def _standings_line(row: StandingsRow, *, knockout: bool) -> dict[str, str]:
    """A line of the emailed standings, as the page writes it: "10. alice 2½"; in a knockout
    the places shared ("3\u20134") and the stage reached instead of game points."""
    if knockout:
        return {"rank": row.place, "name": row.name, "stage": row.stage.lower()}
    return {"rank": str(row.rank), "name": row.name, "points": celtictext.points(row.points)}


def _your_place(entry: Entry, *, shared: bool, knockout: bool = False) -> dict[str, Any]:
    """How the email tells ``entry`` their place: "11th" (shared or not) and "2½ points" (none
    in a knockout, whose places go by the round a player went out in)."""
    if entry.final_rank is None:
        return {"place": ""}
    if knockout:
        return {"place": celtictext.ordinal(entry.final_rank), "place_shared": shared}
    points = entry.final_points
    return {
        "place": celtictext.ordinal(entry.final_rank),
        "place_shared": shared,
        "points": "" if points is None else celtictext.points(points),
        "points_word": "point" if points in (1, Decimal("0.5")) else "points",
    }


def organiser_news(
    *, tournament: Tournament, kind: OrganiserNews, key: str, context: Mapping[str, Any]
) -> None:
    """Tell the organiser what needs them or what happened; ``key`` names the occasion
    (sent once)."""
    full = {**_tournament_context(tournament), **context, "kind": str(kind)}
    notify(
        user=tournament.organiser,
        event=Email.ORGANISER,
        context=full,
        dedupe_key=f"{Email.ORGANISER}:{tournament.pk}:{kind}:{key}"[:200],
    )
