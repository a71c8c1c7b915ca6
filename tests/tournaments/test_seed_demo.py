"""``manage.py seed_demo_tournaments``: the events a newcomer finds after ``make run``."""

from __future__ import annotations

from datetime import date, timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from games.models import Game
from notifications.models import OutboxEmail
from tournaments import selectors
from tournaments.management.commands.seed_demo_tournaments import demo_events
from tournaments.models import Tournament

# The command pairs its rounds itself (``rounds_paired_in_process``), as it does when run.
pytestmark = [pytest.mark.django_db, pytest.mark.pairing_deferred]


def seed() -> str:
    out = StringIO()
    call_command("seed_demo_tournaments", stdout=out)
    return out.getvalue()


def test_a_running_round_robin_and_a_finished_knockout() -> None:
    assert "Demo tournaments created" in seed()
    events = demo_events(timezone.localdate())
    rr = Tournament.objects.get(name=events.round_robin)
    assert (rr.status, rr.format, rr.organiser.username) == ("running", "round_robin", "carol")
    assert list(rr.rounds.values_list("status", flat=True)) == [
        "complete",
        "running",
        "planned",
        "planned",
        "planned",
    ]
    second = rr.games.filter(round__number=2).select_related("game")
    assert sorted(link.game.status for link in second) == ["active", "active", "finished"]
    standings = selectors.tournament_standings(tournament=rr)
    assert len(standings.rows) == 6 and sum(row.points for row in standings.rows) == 4
    ko = Tournament.objects.get(name=events.knockout)
    assert (ko.status, ko.format) == ("finished", "knockout")
    assert ko.winner is not None and ko.entries.filter(final_rank=1, player=ko.winner).exists()
    assert [entry.player for entry in ko.winners] == [ko.winner]  # a knockout never shares
    assert not Game.objects.filter(tournament_link__tournament=ko, status="active").exists()
    # no burst of emails about moves the script made
    assert not OutboxEmail.objects.exists()


def test_seeding_twice_changes_nothing() -> None:
    seed()
    counts = (Tournament.objects.count(), Game.objects.count())
    assert "Demo tournaments already present." in seed()
    assert (Tournament.objects.count(), Game.objects.count()) == counts


@pytest.mark.parametrize(
    ("today", "round_robin", "knockout"),
    [
        (date(2026, 11, 26), "Samhain Round Robin 2026", "Lughnasa Knockout 2026"),
        (date(2026, 11, 1), "Samhain Round Robin 2026", "Lughnasa Knockout 2026"),
        (date(2026, 10, 31), "Lughnasa Round Robin 2026", "Beltane Knockout 2026"),
        (date(2026, 1, 15), "Samhain Round Robin 2025", "Lughnasa Knockout 2025"),
        (date(2026, 2, 1), "Imbolc Round Robin 2026", "Samhain Knockout 2025"),
    ],
)
def test_the_events_are_named_after_the_quarter_days_before_today(today, round_robin, knockout):
    events = demo_events(today)
    assert (events.round_robin, events.knockout) == (round_robin, knockout)
    assert events.knockout_starts.date() < today


def test_the_knockout_is_dated_from_its_quarter_day_not_today() -> None:
    seed()
    events = demo_events(timezone.localdate())
    ko = Tournament.objects.get(name=events.knockout)
    games = Game.objects.filter(tournament_link__tournament=ko)
    start, now = events.knockout_starts, timezone.now()

    assert ko.created_at < start == ko.started_at < ko.finished_at < start + timedelta(days=60)
    assert all(start <= game.created_at <= game.finished_at < now for game in games)
    assert all(rnd.started_at.year == start.year for rnd in ko.rounds.all())
    page = Client().get(f"/tournaments/{ko.pk}/").content.decode()
    assert f"started {start.day} {start:%b %Y}" in page
    assert f"{now.day} {now:%b %Y}" not in page


def test_the_chained_seeds_leave_the_banner_to_demo_banner_and_link_the_port_served(
    settings,
) -> None:
    """``make run`` seeds with these, then prints the logins once the server answers."""
    settings.SITE_URL = "http://127.0.0.1:8123"
    out = StringIO()
    for command in ("seed_demo_leagues", "seed_demo_ladders"):
        call_command(command, stdout=out)
    text = out.getvalue()
    assert "log in as alice" not in text
    assert "8000" not in text
    assert "http://127.0.0.1:8123/tournaments/" in text
    assert "http://127.0.0.1:8123/ladders/" in text and "http://127.0.0.1:8123/leagues/" in text
