"""The private calendar feed: what it holds, that calendar parsers read it, and that only its
secret address opens it (renewing or turning it off kills the old address)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import icalendar
import pytest
from django.test import Client
from django.urls import reverse
from ical.calendar_stream import IcsCalendarStream

from accounts.services import calendar_feed_delete, calendar_feed_renew
from games import services
from games.engine import game_state
from leagues.models import League, Membership, Season
from players.calendar import _deadline_entry
from tests.accounts.factories import make_user
from tournaments.models import Entry, Round, Tournament

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


@pytest.fixture
def ann(db):
    return make_user("ann", display_name="Ann Lee")


@pytest.fixture
def ben(db):
    return make_user("ben")


def feed_of(user) -> bytes:
    secret = calendar_feed_renew(user=user).secret
    response = Client().get(reverse("calendar:feed", args=[secret]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return response.content


def events_by_uid(ics: bytes) -> dict[str, icalendar.Event]:
    calendar = icalendar.Calendar.from_ical(ics)
    return {str(event["UID"]): event for event in calendar.walk("VEVENT")}


def play_one_move(game, user) -> None:
    move = sorted(game_state(game).legal_choices(), key=str)[0]
    services.move_submit(game_id=game.pk, user=user, expected_ply=game.ply, notation=str(move))


def test_feed_holds_the_deadline_of_each_game_where_it_is_my_move(ann, ben) -> None:
    mine = services.game_start(players=[ann, ben])
    theirs = services.game_start(players=[ben, ann])

    events = events_by_uid(feed_of(ann))

    assert list(events) == [f"game-deadline-{mine.pk}@127.0.0.1"]
    event = events[f"game-deadline-{mine.pk}@127.0.0.1"]
    assert event.decoded("DTSTART") == mine.deadline.replace(microsecond=0)
    assert str(event["SUMMARY"]) == f"Your move against ben (game #{mine.pk})"
    assert str(event["URL"]).endswith(f"/games/{mine.pk}/")
    assert event.walk("VALARM")[0].decoded("TRIGGER") == timedelta(hours=-2)
    assert f"game-deadline-{theirs.pk}@127.0.0.1" in events_by_uid(feed_of(ben))


def test_a_move_moves_the_deadline_to_the_opponents_feed(ann, ben) -> None:
    game = services.game_start(players=[ann, ben])
    uid = f"game-deadline-{game.pk}@127.0.0.1"

    play_one_move(game, ann)

    game.refresh_from_db()
    assert uid not in events_by_uid(feed_of(ann))
    event = events_by_uid(feed_of(ben))[uid]
    assert event.decoded("DTSTART") == game.deadline.replace(microsecond=0)
    assert event.decoded("SEQUENCE") == game.ply  # a calendar updates the event, not adds one


def test_feed_holds_my_tournament_rounds_and_league_seasons(ann, ben) -> None:
    event = Tournament.objects.create(name="Spring Open", organiser=ben)
    Entry.objects.create(tournament=event, player=ann, name="Ann", status=Entry.Status.ACTIVE)
    dated = Round.objects.create(
        tournament=event, number=1, starts_at=T0, ends_at=T0 + timedelta(days=14)
    )
    Round.objects.create(tournament=event, number=2)  # no date yet: not in the calendar
    left = Tournament.objects.create(name="Left early", organiser=ben)
    Entry.objects.create(tournament=left, player=ann, name="Ann", status=Entry.Status.WITHDRAWN)
    Round.objects.create(tournament=left, number=1, starts_at=T0)
    league = League.objects.create(
        name="Club league", organiser=ben, promotion_count=1, relegation_count=1
    )
    season = Season.objects.create(
        league=league,
        number=3,
        registration_opens_at=T0 - timedelta(days=14),
        starts_at=T0,
        ends_at=T0 + timedelta(days=90),
    )
    Membership.objects.create(season=season, player=ann)

    events = events_by_uid(feed_of(ann))

    assert sorted(events) == [f"round-{dated.pk}@127.0.0.1", f"season-{season.pk}@127.0.0.1"]
    round_event = events[f"round-{dated.pk}@127.0.0.1"]
    assert str(round_event["SUMMARY"]) == "Spring Open: round 1"
    assert (round_event.decoded("DTSTART"), round_event.decoded("DTEND")) == (
        T0,
        T0 + timedelta(days=14),
    )
    season_event = events[f"season-{season.pk}@127.0.0.1"]
    assert str(season_event["SUMMARY"]) == "Club league: season 3"
    assert season_event.decoded("DTEND") == T0 + timedelta(days=90)


def test_feed_passes_a_strict_rfc_5545_parser(ann, ben) -> None:
    """``ical`` (a second, stricter implementation) reads what ``icalendar`` wrote: the
    properties Google, Apple Calendar and Thunderbird need are there and well formed."""
    game = services.game_start(players=[ann, ben])
    ics = feed_of(ann)

    assert ics.startswith(b"BEGIN:VCALENDAR\r\n") and ics.endswith(b"END:VCALENDAR\r\n")
    assert all(len(line) <= 75 for line in ics.split(b"\r\n"))  # folded as RFC 5545 asks
    calendar = IcsCalendarStream.calendar_from_ics(ics.decode())
    assert calendar.prodid and calendar.version == "2.0"
    (event,) = calendar.events
    assert event.uid == f"game-deadline-{game.pk}@127.0.0.1"
    assert event.dtstart == game.deadline.replace(microsecond=0) and event.dtstamp is not None
    parsed = icalendar.Calendar.from_ical(ics)
    assert str(parsed["X-WR-CALNAME"]) == "Celtic: Ann Lee"
    assert parsed.decoded("REFRESH-INTERVAL") == timedelta(hours=1)


def test_an_address_without_its_secret_is_not_found(ann) -> None:
    secret = calendar_feed_renew(user=ann).secret
    client = Client()

    assert client.get("/calendar/").status_code == 404
    assert client.get("/calendar/.ics").status_code == 404
    assert client.get(f"/calendar/{secret[:-1]}.ics").status_code == 404
    assert client.get(f"/calendar/{secret}.ics").status_code == 200


def test_renewing_kills_the_old_address_and_turning_off_kills_every_one(ann) -> None:
    old = calendar_feed_renew(user=ann).secret
    new = calendar_feed_renew(user=ann).secret
    client = Client()

    assert new != old
    assert client.get(f"/calendar/{old}.ics").status_code == 404
    assert client.get(f"/calendar/{new}.ics").status_code == 200
    calendar_feed_delete(user=ann)
    assert client.get(f"/calendar/{new}.ics").status_code == 404


def test_a_suspended_players_feed_is_not_found(ann) -> None:
    secret = calendar_feed_renew(user=ann).secret
    ann.is_active = False
    ann.save()

    assert Client().get(f"/calendar/{secret}.ics").status_code == 404


def test_profile_page_makes_shows_and_renews_the_address(ann, settings) -> None:
    client = Client()
    client.force_login(ann)
    profile = reverse("accounts:profile")
    assert "Make my calendar address" in client.get(profile).content.decode()

    client.post(reverse("accounts:calendar_renew"))
    first = ann.calendar_feed.secret
    page = client.get(profile).content.decode()
    assert page.count(f"/calendar/{first}.ics") == 3  # to copy, to download, to subscribe
    host = settings.SITE_URL.split("://", 1)[1]
    assert f'href="webcal://{host}/calendar/{first}.ics"' in page
    assert page.count('id="calendar"') == 1

    response = client.post(reverse("accounts:calendar_renew"), follow=True)
    ann.calendar_feed.refresh_from_db()
    assert "the old one no longer works" in response.content.decode()
    assert f"/calendar/{first}.ics" not in response.content.decode()
    assert f"/calendar/{ann.calendar_feed.secret}.ics" in response.content.decode()

    client.post(reverse("accounts:calendar_off"))
    assert "Make my calendar address" in client.get(profile).content.decode()


def test_a_deadline_names_every_other_player_of_a_game_with_more_seats(ann, ben) -> None:
    cai = make_user("cai")
    three_seats = SimpleNamespace(
        pk=7, deadline=T0, ply=4, seat_users=lambda: [ben, ann, cai]
    )  # what the feed reads of a game of a kind with three seats

    entry = _deadline_entry(three_seats, ann)

    assert entry.summary == "Your move against ben and cai (game #7)"
    assert (entry.start, entry.sequence) == (T0, 4)
