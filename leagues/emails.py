"""The leagues' emails, built here and queued through notifications' one public call
(``notifications.services.notify``). Registered in ``LeaguesConfig.ready()``; their templates
are ``notifications/league_*``. Each runs inside the caller's transaction and only writes
outbox rows."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import models
from django.utils import timezone

from leagues import selectors
from leagues.models import Division, Membership, Season
from notifications.email_events import email_events_register
from notifications.services import notify
from tournaments.models import Entry, TournamentGame


class Email(models.TextChoices):
    """The leagues' email events (keys of the outbox's registry)."""

    SEASON_OPEN = "league_season_open", "League season open for registration"
    DIVISION = "league_division", "Your league division and its games"
    SEASON_END = "league_season_end", "League season over: your result"
    INVITATION = "league_invitation", "League season: the organiser invited or added you"


def emails_register() -> None:
    """Register the leagues' emails with the profile switch of each."""
    email_events_register(
        Email,
        preferences={
            Email.SEASON_OPEN: "notify_challenge",
            Email.DIVISION: "notify_challenge",
            Email.SEASON_END: "notify_game_end",
            Email.INVITATION: "notify_challenge",
        },
        digest=frozenset(),
    )


def _season_url(season: Season) -> str:
    return f"{settings.SITE_URL}/leagues/seasons/{season.pk}/"


def _league_context(season: Season) -> dict[str, Any]:
    return {
        "league_name": season.league.name,
        "season_number": season.number,
        "season_url": _season_url(season),
        "league_url": f"{settings.SITE_URL}/leagues/{season.league_id}/",
    }


def season_open(
    *, season: Season, players: Sequence[AbstractBaseUser], registered: set[int]
) -> None:
    """A season opened for registration: last season's players hear, each told whether they
    are already registered (carried over) or may register."""
    context = _league_context(season)
    context.update(starts_at=season.starts_at)
    for user in players:
        notify(
            user=user,
            event=Email.SEASON_OPEN,
            context={**context, "registered": user.pk in registered},
            dedupe_key=f"{Email.SEASON_OPEN}:{season.pk}:{user.pk}",
        )


def season_invitation(*, membership: Membership, inviter: AbstractBaseUser, added: bool) -> None:
    """The organiser invited the player to a season (``added``: registered them for it):
    the email links to the season's page, where they accept, decline or cancel."""
    season = membership.season
    notify(
        user=membership.player,
        event=Email.INVITATION,
        context={
            **_league_context(season),
            "inviter": selectors.player_name(user=inviter),
            "added": added,
            "starts_at": season.starts_at,
        },
        dedupe_key=f"{Email.INVITATION}:{membership.pk}:{timezone.now().isoformat()}",
    )


def division_placed(*, division: Division) -> None:
    """A season started: each player hears their division, its players and their games."""
    context = _league_context(division.season)
    links = list(division.tournament.games.select_related("game", "orange__player", "blue__player"))
    entries = list(division.tournament.entries.select_related("player").order_by("seed"))
    for entry in entries:
        if entry.player is None:
            continue
        opponents = [other.name for other in entries if other.pk != entry.pk]
        notify(
            user=entry.player,
            event=Email.DIVISION,
            context={
                **context,
                "division_name": division.name,
                "opponents": opponents,
                "games": _games_of(entry, links, division.tournament.colour_names),
                "ends_at": division.season.ends_at,
            },
            dedupe_key=f"{Email.DIVISION}:{division.pk}:{entry.player_id}",
        )


def _games_of(
    entry: Entry, links: Sequence[TournamentGame], colour_names: Sequence[str]
) -> list[dict[str, str]]:
    """``entry``'s games among the division's ``links``: colour (its name in the kind played,
    ``colour_names``), opponent and link."""
    games = []
    for link in links:
        if entry.pk not in (link.orange_id, link.blue_id) or link.game is None:
            continue
        orange = link.orange_id == entry.pk
        opponent = link.blue if orange else link.orange
        games.append(
            {
                "colour": colour_names[0 if orange else 1],
                "opponent": opponent.name,
                "url": f"{settings.SITE_URL}/games/{link.game_id}/",
            }
        )
    return games


def season_end(*, season: Season, next_season: Season) -> None:
    """A season is over: each player hears their place, whether they go up, stay or go
    down, their division's final table, and whether they are carried into the next. The
    places are those of the season's page (``selectors.division_table``): shared ones shared."""
    context = _league_context(season)
    carried = set(next_season.memberships.values_list("player_id", flat=True))
    for division in season.divisions.select_related("tournament", "season__league"):
        lines = selectors.division_table(division=division).lines
        places = Counter(line.place for line in lines)
        place_of = {line.player.pk: line.place for line in lines if line.player is not None}
        table = [
            {"place": line.place, "name": line.name, "outcome": _outcome_label(line.outcome)}
            for line in lines
        ]
        for member in division.memberships.select_related("player"):
            place = place_of.get(member.player_id, member.final_place)
            notify(
                user=member.player,
                event=Email.SEASON_END,
                context={
                    **context,
                    "division_name": division.name,
                    "membership": member,
                    "place": place,
                    "place_shared": places[place] > 1,
                    "table": table,
                    "carried_over": member.player_id in carried,
                    "next_season_starts_at": next_season.starts_at,
                    "next_season_url": _season_url(next_season),
                },
                dedupe_key=f"{Email.SEASON_END}:{season.pk}:{member.player_id}",
            )


def _outcome_label(outcome: str) -> str:
    return str(Membership.Outcome(outcome).label)
