"""``manage.py seed_demo_leagues``: a league in its second season for ``make run``."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.models import Game
from leagues.management.commands.seed_demo_leagues import LEAGUE
from leagues.models import League, Membership
from notifications.models import OutboxEmail

# The command pairs its rounds itself (``rounds_paired_in_process``), as it does when run.
pytestmark = [pytest.mark.django_db, pytest.mark.pairing_deferred]


def seed() -> str:
    out = StringIO()
    call_command("seed_demo_leagues", stdout=out)
    return out.getvalue()


def test_a_league_in_its_second_season():
    assert "Demo league created" in seed()
    league = League.objects.get(name=LEAGUE)
    first, second = league.seasons.order_by("number")
    assert (first.status, second.status) == ("finished", "running")
    now = timezone.now()
    assert first.ends_at < second.starts_at < now < second.ends_at  # the demo runs today
    assert timedelta(days=1) < now - second.starts_at < timedelta(days=3)
    games = Game.objects.filter(tournament_link__tournament__league_division__season=second)
    assert games.exists() and not games.filter(turn_started_at__gt=now).exists()
    outcomes = sorted(first.memberships.values_list("outcome", flat=True))
    assert outcomes == [
        "promoted",
        "relegated",
        "stayed",
        "stayed",
        "stayed",
        "stayed",
        "stayed",
        "stayed",
    ]
    names = {d.name: d.memberships.count() for d in second.divisions.all()}
    assert names == {"Division 1": 4, "Division 2": 3, "Rookies": 3}  # ivor left after season 1
    promoted = first.memberships.get(outcome="promoted").player
    assert Membership.objects.get(season=second, player=promoted).division.tier == 1
    assert second.divisions.get(tier=1).tournament.games.filter(result="").exists()
    assert not OutboxEmail.objects.filter(event__startswith="league").exists()
    assert "already present" in seed()
    assert League.objects.count() == 1
