"""The season's rough edges: zone marks only once results place someone, the division email
without the recipient among her opponents, the season-end email's shared places as the page
shows them, and display names on the league pages."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.selectors import profile_get
from games.models import Game
from leagues import selectors, services
from leagues.models import Division, League
from notifications.models import OutboxEmail
from tests.accounts.factories import make_user
from tests.leagues.conftest import DAY, T0
from tests.tournaments.conftest import finish

pytestmark = pytest.mark.django_db


def zones(division: Division) -> list[tuple[int, str, str]]:
    return [
        (line.place, line.name, line.zone)
        for line in selectors.division_table(division=division).lines
    ]


def win(division: Division, winner, loser, *, commit) -> None:
    game = (
        Game.objects.played_by(winner)
        .played_by(loser)
        .get(tournament_link__tournament=division.tournament)
    )
    finish(game, "1-0" if game.seat_of(winner) == 1 else "0-1", commit=commit)


@pytest.fixture
def started(organiser, clock, beat):
    """Six players in two divisions of three (one up, one down), the season just started."""
    players = [make_user(f"a{i}") for i in range(1, 7)]
    league = services.league_create(
        organiser=organiser,
        name="Edge League",
        first_registration_opens_at=T0,
        division_size=3,
        division_min_size=3,
        promotion_count=1,
        relegation_count=1,
        registration_days=7,
    )
    season = league.seasons.get()
    for hour, user in enumerate(players):
        clock(T0 + hour * DAY / 24)
        services.season_register(season_id=season.pk, user=user)
    clock(T0 + 7 * DAY)
    beat()
    d1, d2 = League.objects.get().seasons.get().divisions.order_by("tier")
    return players, d1, d2


def test_no_zone_before_a_result_nor_for_a_place_shared_across_the_edge(started, commit):
    (a1, a2, a3, a4, a5, a6), d1, d2 = started
    assert zones(d2) == [(1, "a4", ""), (1, "a5", ""), (1, "a6", "")]  # was ▲ for all three
    assert zones(d1) == [(1, "a1", ""), (1, "a2", ""), (1, "a3", "")]

    win(d1, a1, a2, commit=commit)
    # a2 and a3 share place 2; only one of them can be last: neither is marked yet
    assert zones(d1) == [(1, "a1", ""), (2, "a2", ""), (2, "a3", "")]
    win(d1, a1, a3, commit=commit)
    assert zones(d1) == [(1, "a1", ""), (2, "a2", ""), (2, "a3", "")]
    win(d1, a2, a3, commit=commit)
    assert zones(d1) == [(1, "a1", ""), (2, "a2", ""), (3, "a3", "relegation")]

    win(d2, a4, a5, commit=commit)
    assert zones(d2) == [(1, "a4", "promotion"), (2, "a5", ""), (2, "a6", "")]
    win(d2, a5, a6, commit=commit)
    win(d2, a6, a4, commit=commit)  # each has won once: all three share first place
    assert zones(d2) == [(1, "a4", ""), (1, "a5", ""), (1, "a6", "")]


def test_the_division_email_lists_her_opponents_not_herself(started):
    (a1, *_), _d1, _d2 = started
    body = OutboxEmail.objects.get(event="league_division", recipient=a1).body_text
    assert "You play in Division 1 against a2, a3." in body


def test_the_season_end_email_shares_places_as_the_page_does(started, commit, beat):
    (a1, a2, a3, a4, a5, a6), d1, d2 = started
    win(d1, a1, a2, commit=commit)
    win(d1, a1, a3, commit=commit)
    win(d1, a2, a3, commit=commit)
    win(d2, a4, a5, commit=commit)
    win(d2, a5, a6, commit=commit)
    win(d2, a6, a4, commit=commit)
    beat()

    page = Client().get(f"/leagues/seasons/{d2.season_id}/").content.decode()
    assert [line.place for line in selectors.division_table(division=d2).lines] == [1, 1, 1]
    body = OutboxEmail.objects.get(event="league_season_end", recipient=a5).body_text
    assert "You finished in place 1 (shared) of Division 2:" in body
    table = body.split("Final table of Division 2:")[1]
    assert table.count("\n1. ") == 3 and "\n2. " not in table
    assert ">a5</a>" in page
    solo = OutboxEmail.objects.get(event="league_season_end", recipient=a2).body_text
    assert "You finished in place 2 of Division 1: you stay in division 1." in solo


def test_league_pages_show_display_names_like_tournament_pages(started, organiser):
    (a1, *_), d1, _d2 = started
    profile = profile_get(user=a1)
    profile.display_name = "Ann Celt"
    profile.save()
    league = d1.season.league
    season_page = Client().get(f"/leagues/seasons/{d1.season_id}/").content.decode()
    assert '<a class="player-link" href="/players/a1/">Ann Celt</a>' in season_page
    detail = Client().get(f"/leagues/{league.pk}/").content.decode()
    assert f'href="/players/{organiser.username}/">' in detail and 'class="player-link"' in detail


def test_the_league_page_says_where_you_stand_in_a_sentence(started, commit, beat):
    (a1, a2, a3, *_), d1, d2 = started
    league_url = f"/leagues/{d1.season.league_id}/"
    client = Client()
    client.force_login(a1)
    assert "You play in Division 1." in client.get(league_url).content.decode()
    for winner, loser in ((a1, a2), (a1, a3), (a2, a3)):
        win(d1, winner, loser, commit=commit)
    a4, a5, a6 = (m.player for m in d2.memberships.order_by("player__username"))
    for winner, loser in ((a4, a5), (a4, a6), (a5, a6)):
        win(d2, winner, loser, commit=commit)
    beat()
    history = Client().get(f"{league_url}history/").content.decode()
    assert 'Division 1: <strong><a class="player-link" href="/players/a1/">a1</a>' in history
    page = client.get(league_url).content.decode()
    assert "You are registered." in page  # carried into season 2, open for registration
