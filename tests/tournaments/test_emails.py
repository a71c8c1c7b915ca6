"""The tournaments' own emails, built in tournaments.emails through notifications' one call."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from notifications.email_events import email_event_get
from notifications.models import OutboxEmail
from tests.accounts.factories import make_user
from tests.notifications.conftest import game_start_quietly, set_profile
from tournaments import emails
from tournaments.models import Tournament
from tournaments.selectors import StandingsRow

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _site_url(settings):
    settings.SITE_URL = "https://celtic.example"


@pytest.fixture
def alice(db):
    return make_user("alice", display_name="Alice A.", time_zone="Europe/Dublin")


@pytest.fixture
def bob(db):
    return make_user("bob")


@pytest.fixture
def game(alice, bob):
    return game_start_quietly(players=[alice, bob])


def test_the_tournaments_register_their_emails_with_their_switches() -> None:
    assert email_event_get("tournament_round").preference == "notify_challenge"
    assert email_event_get("tournament_finished").preference == "notify_game_end"
    assert email_event_get("tournament_organiser").preference == ""
    assert email_event_get("tournament_withdrawn").label == "Withdrawn from a tournament"


def test_a_round_tells_each_paired_player_their_game_and_each_bye_their_bye(alice, bob, game):
    carol = make_user("carol")
    kwargs = {"tournament_name": "Samhain Open", "round_number": 2, "games": [game]}
    emails.round_started(**kwargs, byes=[carol])
    emails.round_started(**kwargs, byes=[carol])  # twice: nothing more
    rows = {r.recipient.username: r for r in OutboxEmail.objects.all()}
    assert sorted(rows) == ["alice", "bob", "carol"]
    assert {r.subject for r in rows.values()} == {"Samhain Open: round 2 has started"}
    assert f"You play Orange against bob in game #{game.pk}." in rows["alice"].body_text
    assert f"You play Blue against Alice A. in game #{game.pk}." in rows["bob"].body_text
    assert "You have a bye this round." in rows["carol"].body_text
    assert rows["alice"].game == game and rows["carol"].game is None


def test_round_emails_follow_the_challenge_switch(alice, bob):
    set_profile(bob, notify_challenge=False)
    game = game_start_quietly(players=[alice, bob])
    emails.round_started(tournament_name="League", round_number=1, games=[game])
    assert list(OutboxEmail.objects.values_list("recipient__username", flat=True)) == ["alice"]


def test_the_final_standings_write_points_and_places_as_people_do(alice, bob):
    """Points as on the pages (2½, not 5/2; 1, not 1.0) and places as words of order."""
    organiser = make_user("orga")
    tournament = Tournament.objects.create(
        organiser=organiser, name="Hazel Swiss", format="swiss", status="finished"
    )
    rows = []
    for rank, (user, points) in enumerate([(alice, Fraction(5, 2)), (bob, Fraction(1))], 1):
        entry = tournament.entries.create(
            player=user,
            name=user.username,
            status="active",
            seed=rank,
            final_rank=rank + 9,
            final_points=Decimal(points.numerator) / points.denominator,
        )
        rows.append(StandingsRow(1, rank + 9, entry.pk, rank, entry.name, user, points, {}, False))

    emails.finished(tournament=tournament, standings=rows)

    bodies = {r.recipient.username: r.body_text for r in OutboxEmail.objects.all()}
    assert "10. alice 2½\n11. bob 1\n" in bodies["alice"]
    assert "You finished 10th with 2½ points." in bodies["alice"]
    assert "You finished 11th with 1 point." in bodies["bob"]
    assert "5/2" not in bodies["alice"] and "1.0" not in bodies["bob"]
