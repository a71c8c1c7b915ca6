"""The migration to ratings per kind carries every result, rating, history row and ranking row
across: all become the kind "celtic", and each result gets its finishing order."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("rankings", "0001_squashed_0005_pending_ranking_updates")]
AFTER = [("rankings", "0002_ratings_per_kind")]


def _migrate(targets: list[tuple[str, str]]):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def old_apps(transactional_db):
    apps = _migrate(BEFORE)
    yield apps
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def _seed(apps) -> dict[str, int]:
    Player = apps.get_model("rankings", "Player")
    RatedResult = apps.get_model("rankings", "RatedResult")
    Snapshot = apps.get_model("rankings", "RatingSnapshot")
    Rating = apps.get_model("rankings", "PlayerRating")
    Position = apps.get_model("rankings", "RankingPosition")
    State = apps.get_model("rankings", "RankingState")
    Update = apps.get_model("rankings", "RankingUpdate")
    ann, bob, cy = (Player.objects.create(name=name) for name in ("ann", "bob", "cy"))
    when = datetime(2025, 3, 1, tzinfo=UTC)
    results = [
        RatedResult.objects.create(
            player1=p1, player2=p2, score1=score, finished_at=when, source="import"
        )
        for p1, p2, score in ((ann, bob, 1.0), (bob, cy, 0.5), (cy, ann, 0.0))
    ]
    for result, score in ((results[0], 1.0), (results[2], 0.0)):
        Snapshot.objects.create(
            result=result, player=result.player1, opponent=result.player2, finished_at=when,
            score=score, games=1, elo_before=1500.0, elo_after=1500.0 + 20 * (2 * score - 1),
            opponent_elo_before=1500.0, glicko_rating=1600.0, glicko_rd=200.0,
            glicko_volatility=0.06,
        )  # fmt: skip
    for position, (player, elo) in enumerate(((ann, 1520.0), (bob, 1500.0), (cy, 1480.0)), 1):
        Rating.objects.create(
            player=player, elo=elo, games=2, elo_peak=elo, glicko_rating=elo, glicko_rd=180.0,
            glicko_volatility=0.06, last_played=date(2025, 3, 1),
        )  # fmt: skip
        Position.objects.create(
            player=player, position=position, rank=position, previous_rank=None, glicko_rd=181.0
        )
    State.objects.create(pk=1, key="2025-03-01|elo|365|x")
    Update.objects.create(changed_since=when)
    return {"ann": ann.pk, "bob": bob.pk, "cy": cy.pk, "first": results[0].pk}


def test_every_row_becomes_celtic_with_its_finishing_order(old_apps):
    ids = _seed(old_apps)
    apps = _migrate(AFTER)
    RatedResult = apps.get_model("rankings", "RatedResult")
    Placing = apps.get_model("rankings", "RatedPlacing")
    Snapshot = apps.get_model("rankings", "RatingSnapshot")
    Rating = apps.get_model("rankings", "PlayerRating")
    Position = apps.get_model("rankings", "RankingPosition")

    assert set(RatedResult.objects.values_list("kind", flat=True)) == {"celtic"}
    assert list(
        Placing.objects.order_by("result_id", "seat").values_list(
            "result__player1__name", "player__name", "seat", "place"
        )
    ) == [
        ("ann", "ann", 1, 1), ("ann", "bob", 2, 2),  # 1-0
        ("bob", "bob", 1, 1), ("bob", "cy", 2, 1),  # a draw shares first place
        ("cy", "cy", 1, 2), ("cy", "ann", 2, 1),  # 0-1
    ]  # fmt: skip
    snapshots = Snapshot.objects.order_by("result_id")
    assert [(s.kind, s.place, s.players, s.mu) for s in snapshots] == [
        ("celtic", 1, 2, None), ("celtic", 2, 2, None),
    ]  # fmt: skip
    assert snapshots[0].elo_after == 1520.0 and snapshots[0].result_id == ids["first"]

    ratings = {r.player_id: r for r in Rating.objects.all()}
    assert {pid: (r.kind, r.elo, r.games, r.glicko_rd) for pid, r in ratings.items()} == {
        ids["ann"]: ("celtic", 1520.0, 2, 180.0),
        ids["bob"]: ("celtic", 1500.0, 2, 180.0),
        ids["cy"]: ("celtic", 1480.0, 2, 180.0),
    }
    positions = Position.objects.order_by("position")
    assert [(p.player_id, p.kind, p.rank, p.glicko_rd) for p in positions] == [
        (ids["ann"], "celtic", 1, 181.0),
        (ids["bob"], "celtic", 2, 181.0),
        (ids["cy"], "celtic", 3, 181.0),
    ]
    assert all(p.rating_id == ratings[p.player_id].pk for p in positions)
    state = apps.get_model("rankings", "RankingState").objects.get()
    assert (state.kind, state.key) == ("celtic", "2025-03-01|elo|365|x")
    assert apps.get_model("rankings", "RankingUpdate").objects.get().kind == "celtic"
