"""A rated result moves the players' ratings in its own transaction; the stored ranking
follows in a task right after the commit, so the move that finished the game does not wait
for the ranking to be re-sorted. Several results waiting cost one rewrite; a lost task is
made up by the beat."""

from __future__ import annotations

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from celticsite.settings import CELERY_BEAT_SCHEDULE
from rankings import tasks
from rankings.models import PlayerRating, RankingPosition, RankingUpdate
from rankings.ranking import ranking_refresh, ranking_updates_apply
from rankings.services import rating_game_finished, ratings_recompute
from tests.rankings.conftest import at, finished_game

pytestmark = [pytest.mark.django_db, pytest.mark.ranking_deferred]

TODAY = "2025-06-15T12:00:00Z"


def _order() -> list[str]:
    return list(RankingPosition.objects.order_by("position").values_list("player__name", flat=True))


def _finish(orange, blue, result: str, day: int) -> None:
    rating_game_finished(game=finished_game(orange, blue, result, at(2025, 6, day)))


@time_machine.travel(TODAY, tick=False)
def test_the_ranking_follows_a_result_in_a_task_after_its_commit(
    users, django_capture_on_commit_callbacks
):
    ann, bob = users["ann"], users["bob"]
    with django_capture_on_commit_callbacks() as callbacks:
        _finish(ann, bob, "0-1", 1)
    # the ratings moved in the result's transaction; the ranking waits for the task
    assert PlayerRating.objects.get(player__name="bob").elo > 1500
    assert _order() == []
    assert RankingUpdate.objects.count() == 1
    assert len(callbacks) == 1
    callbacks[0]()  # the commit queues the task (run at once here)
    assert _order() == ["bob", "ann"]
    assert not RankingUpdate.objects.exists()


@time_machine.travel(TODAY, tick=False)
def test_results_waiting_together_are_applied_in_one_rewrite_as_a_rebuild_would(users):
    ann, bob, cy, dee = (users[name] for name in ("ann", "bob", "cy", "dee"))
    _finish(ann, bob, "1-0", 1)
    _finish(cy, dee, "0-1", 2)
    _finish(dee, ann, "1-0", 3)
    assert RankingUpdate.objects.count() == 3
    assert ranking_updates_apply()
    applied = list(RankingPosition.objects.order_by("position").values_list())
    assert _order() == ["dee", "ann", "bob", "cy"]
    with CaptureQueriesContext(connection) as captured:
        assert not ranking_updates_apply()  # nothing left: one query
    assert len(captured) == 1
    assert ranking_refresh(force=True)
    assert list(RankingPosition.objects.order_by("position").values_list()) == applied


@time_machine.travel(TODAY, tick=False)
def test_a_task_lost_to_a_broker_outage_is_made_up_by_the_beat(
    users, monkeypatch, django_capture_on_commit_callbacks, caplog
):
    def broker_down() -> None:
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379")

    monkeypatch.setattr(tasks.apply_ranking_updates, "delay", broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        _finish(users["ann"], users["bob"], "1-0", 1)
    assert "the beat will apply it" in caplog.text
    assert RankingUpdate.objects.count() == 1 and _order() == []
    beat = CELERY_BEAT_SCHEDULE["rankings-apply-updates"]
    assert beat["task"] == "rankings.tasks.apply_ranking_updates"
    assert tasks.apply_ranking_updates.apply().get() is True
    assert _order() == ["ann", "bob"]


@time_machine.travel(TODAY, tick=False)
def test_a_recomputation_applies_the_updates_waiting(users):
    _finish(users["ann"], users["bob"], "1-0", 1)
    assert RankingUpdate.objects.count() == 1
    ratings_recompute()
    assert not RankingUpdate.objects.exists()
    assert _order() == ["ann", "bob"]
    assert not ranking_updates_apply()
