"""A player's private calendar: an iCalendar (RFC 5545) feed of what they must not miss.

It holds the deadline of every game where it is their move (the feed is built afresh on each
read, so a move made moves or removes the event), the rounds of the tournaments they play and
the seasons of the leagues they play. Calendar programs subscribe to the address and poll it;
each event keeps one ``UID`` for its whole life, and a game's ``SEQUENCE`` is its ply, so a
client updates an event instead of adding a second one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.urls import reverse
from icalendar import Alarm, Calendar, Event

from celtictext import and_join
from games import selectors as game_selectors
from games.models import Game
from leagues.selectors import player_seasons_dated
from players.templatetags.players import display_name
from tournaments.selectors import player_rounds_dated

PRODUCT_ID = "-//Celtic correspondence server//Calendar feed//EN"
#: How often calendar programs are asked to fetch the feed again.
REFRESH_INTERVAL = timedelta(hours=1)
#: When before a deadline the event's alarm rings (in programs that keep a feed's alarms).
DEADLINE_ALARM = timedelta(hours=2)


@dataclass(frozen=True, slots=True)
class CalendarEntry:
    """One event of the feed, in the site's words."""

    uid: str
    summary: str
    start: datetime
    end: datetime | None
    path: str
    description: str
    sequence: int = 0
    alarm: bool = False


def _uid(kind: str, pk: int) -> str:
    host = urlsplit(settings.SITE_URL).hostname or "localhost"
    return f"{kind}-{pk}@{host}"


def _deadline_entry(game: Game, user: AbstractBaseUser) -> CalendarEntry:
    names = [display_name(other) for other in game.seat_users() if other.pk != user.pk]
    assert game.deadline is not None
    return CalendarEntry(
        uid=_uid("game-deadline", game.pk),
        summary=f"Your move against {and_join(names)} (game #{game.pk})",
        start=game.deadline,
        end=None,
        path=reverse("games:game", args=[game.pk]),
        description=f"Move before this time in game #{game.pk} or lose it on time.",
        sequence=game.ply,
        alarm=True,
    )


def calendar_entries(*, user: AbstractBaseUser) -> list[CalendarEntry]:
    """Everything ``user``'s calendar shows: deadlines of games waiting for their move, their
    tournament rounds, their league seasons."""
    games = game_selectors.game_list_my_turn(user=user).filter(deadline__isnull=False)
    entries = [_deadline_entry(game, user) for game in games]
    for round_ in player_rounds_dated(user=user):
        start = round_.started_at or round_.starts_at
        assert start is not None
        entries.append(
            CalendarEntry(
                uid=_uid("round", round_.pk),
                summary=f"{round_.tournament.name}: round {round_.number}",
                start=start,
                end=round_.ends_at if round_.ends_at and round_.ends_at > start else None,
                path=reverse("tournaments:detail", args=[round_.tournament_id]),
                description=f"Round {round_.number} of {round_.tournament.name}.",
            )
        )
    for season in player_seasons_dated(user=user):
        entries.append(
            CalendarEntry(
                uid=_uid("season", season.pk),
                summary=f"{season.league.name}: season {season.number}",
                start=season.starts_at,
                end=season.ends_at,
                path=reverse("leagues:season", args=[season.pk]),
                description=f"Season {season.number} of the league {season.league.name}; "
                "games unfinished at its end go to the organiser.",
            )
        )
    return entries


def _event(entry: CalendarEntry, *, now: datetime) -> Event:
    event = Event()
    event.add("uid", entry.uid)
    event.add("dtstamp", now)
    event.add("dtstart", entry.start)
    if entry.end is not None:
        event.add("dtend", entry.end)
    event.add("summary", entry.summary)
    event.add("description", entry.description)
    event.add("url", settings.SITE_URL + entry.path)
    event.add("sequence", entry.sequence)
    event.add("transp", "TRANSPARENT")  # a deadline does not make the player busy
    if entry.alarm:
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", entry.summary)
        alarm.add("trigger", -DEADLINE_ALARM)
        event.add_component(alarm)
    return event


def calendar_ics(*, entries: list[CalendarEntry], owner_name: str, now: datetime) -> bytes:
    """The feed of ``entries`` as iCalendar text (UTF-8, CRLF lines, as RFC 5545 asks)."""
    calendar = Calendar()
    calendar.add("prodid", PRODUCT_ID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    name = f"Celtic: {owner_name}"
    calendar.add("name", name)  # RFC 7986
    calendar.add("x-wr-calname", name)  # what Google and Apple Calendar read
    calendar.add("refresh-interval", REFRESH_INTERVAL, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", REFRESH_INTERVAL)
    for entry in entries:
        calendar.add_component(_event(entry, now=now))
    return calendar.to_ical()
