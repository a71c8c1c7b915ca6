"""``manage.py seed_demo_ladders``: a ladder with players and history for ``make run``."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from ladders.management.commands.seed_demo_ladders import LADDER
from ladders.models import Ladder
from notifications.models import OutboxEmail
from tests.ladders.conftest import names

pytestmark = pytest.mark.django_db


def seed() -> str:
    out = StringIO()
    call_command("seed_demo_ladders", stdout=out)
    return out.getvalue()


def test_a_ladder_with_players_history_and_a_game_being_played():
    assert "Demo ladder created" in seed()
    ladder = Ladder.objects.get(name=LADDER)
    # fiona beat dara; gwen held off hana; dara beat bob on time (bob dropped one);
    # eoin beat fiona.
    assert names(ladder) == ["alice", "dara", "eoin", "fiona", "bob", "gwen", "hana"]
    kinds = list(ladder.events.order_by("pk").values_list("kind", flat=True))
    assert kinds.count("result") == 4 and kinds.count("dropped") == 1
    decided = (
        ladder.events.filter(kind="result").order_by("pk").values_list("created_at", flat=True)
    )
    days_ago = [(timezone.now() - moment).days for moment in decided]
    assert days_ago == [15, 11, 5, 2]  # at the dates the games ended, not today
    playing = ladder.challenges.get(status="playing")
    assert (playing.challenger.username, playing.defender.username) == ("gwen", "bob")
    assert not OutboxEmail.objects.filter(event__startswith="ladder").exists()
    assert "Demo ladder already present" in seed()
    assert Ladder.objects.filter(name=LADDER).count() == 1
