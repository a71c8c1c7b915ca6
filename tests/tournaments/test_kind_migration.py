"""The migrations that give events, leagues and ladders a game kind: the rows made before them
play Celtic!, the only game there was."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ladders.models import Ladder
from leagues.models import League
from tournaments.models import Tournament

BEFORE = [
    ("tournaments", "0005_round_pairing"),
    ("leagues", "0003_membership_invitations"),
    ("ladders", "0001_initial"),
]
AFTER = [("tournaments", "0006_kind"), ("leagues", "0004_kind"), ("ladders", "0002_kind")]


def _migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection)  # a fresh one knows what is applied now


@pytest.mark.django_db(transaction=True)
def test_events_leagues_and_ladders_made_before_the_kinds_play_celtic() -> None:
    try:
        executor = _migrate(BEFORE)
        old = executor.loader.project_state(BEFORE).apps
        organiser = old.get_model("auth", "User").objects.create(username="old-organiser")
        tournament = old.get_model("tournaments", "Tournament").objects.create(
            name="Old Open", organiser_id=organiser.pk
        )
        league = old.get_model("leagues", "League").objects.create(
            name="Old League", organiser_id=organiser.pk, promotion_count=1, relegation_count=1
        )
        ladder = old.get_model("ladders", "Ladder").objects.create(
            name="Old Ladder", organiser_id=organiser.pk
        )
        _migrate(AFTER)
        assert Tournament.objects.get(pk=tournament.pk).kind == "celtic"
        assert League.objects.get(pk=league.pk).kind == "celtic"
        assert Ladder.objects.get(pk=ladder.pk).kind == "celtic"
    finally:
        leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
        MigrationExecutor(connection).migrate(leaves)
