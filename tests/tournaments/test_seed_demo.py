"""``manage.py seed_demo_tournaments``: the events a newcomer finds after ``make run``."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from games.models import Game
from notifications.models import OutboxEmail
from tournaments import selectors
from tournaments.management.commands.seed_demo_tournaments import KNOCKOUT, ROUND_ROBIN
from tournaments.models import Tournament

# The command pairs its rounds itself (``rounds_paired_in_process``), as it does when run.
pytestmark = [pytest.mark.django_db, pytest.mark.pairing_deferred]


def seed() -> str:
    out = StringIO()
    call_command("seed_demo_tournaments", stdout=out)
    return out.getvalue()


def test_a_running_round_robin_and_a_finished_knockout() -> None:
    assert "Demo tournaments created" in seed()
    rr = Tournament.objects.get(name=ROUND_ROBIN)
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
    ko = Tournament.objects.get(name=KNOCKOUT)
    assert (ko.status, ko.format) == ("finished", "knockout")
    assert ko.winner is not None and ko.entries.filter(final_rank=1, player=ko.winner).exists()
    assert not Game.objects.filter(tournament_link__tournament=ko, status="active").exists()
    # no burst of emails about moves the script made
    assert not OutboxEmail.objects.exists()


def test_seeding_twice_changes_nothing() -> None:
    seed()
    counts = (Tournament.objects.count(), Game.objects.count())
    assert "Demo tournaments already present." in seed()
    assert (Tournament.objects.count(), Game.objects.count()) == counts
