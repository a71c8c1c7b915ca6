"""The ranking is stored: updated in the rating transaction, rebuilt for a new day or new
settings, and read with a number of queries that does not grow with the players."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rankings.csvimport import ImportedResult
from rankings.models import PlayerRating, RankingPosition, RankingState
from rankings.ranking import ranking_refresh
from rankings.rating.standings import Placed, Standing, place_players, ranks_at
from rankings.selectors import ranking_list
from rankings.services import (
    rating_game_changed,
    rating_game_finished,
    ratings_recompute,
    results_import,
)
from tests.rankings.conftest import at, finished_game

pytestmark = pytest.mark.django_db

TODAY = "2025-06-15T12:00:00Z"


def _stored() -> dict[str, tuple]:
    return {
        row.player.name: (row.position, row.rank, row.previous_rank, row.glicko_rd)
        for row in RankingPosition.objects.select_related("player")
    }


def _import_pairs(count: int, day: str = "2025-06-01") -> None:
    """`count` players (p00, p01, ...), paired off; the first of each pair wins."""
    results_import(
        results=[
            ImportedResult(i, date.fromisoformat(day), f"p{2 * i:02}", f"p{2 * i + 1:02}", "1-0")
            for i in range(count // 2)
        ]
    )


# --- the order itself (pure) ------------------------------------------------------------------


def test_place_players_ranks_active_players_then_lists_inactive_ones():
    since = date(2025, 1, 1)
    placed = place_players(
        [
            Standing(1, "cy", 1500.0, date(2025, 2, 1)),
            Standing(2, "ann", 1600.0, date(2024, 2, 1)),  # inactive, best rating
            Standing(3, "bob", 1500.0, date(2025, 3, 1)),  # ties with cy: by name
            Standing(4, "dee", 1400.0, None),
        ],
        active_since=since,
    )
    assert placed == [Placed(3, 1, 1), Placed(1, 2, 2), Placed(2, 3, None), Placed(4, 4, None)]
    assert ranks_at([Standing(1, "cy", 1500.0, date(2025, 2, 1))], active_since=since) == {1: 1}


# --- kept up to date --------------------------------------------------------------------------


@time_machine.travel(TODAY, tick=False)
def test_each_rated_game_updates_the_stored_ranking_as_a_rebuild_would(users):
    ann, bob, cy, dee = (users[name] for name in ("ann", "bob", "cy", "dee"))
    games = [(ann, bob, "1-0"), (cy, dee, "1-0"), (bob, cy, "1-0"), (dee, ann, "1-0")]
    expected_orders = [
        ["ann", "bob"],
        ["ann", "cy", "bob", "dee"],
        ["ann", "bob", "cy", "dee"],
        ["bob", "dee", "ann", "cy"],  # 1502.29 each (ties by name), then 1497.71 each
    ]
    for day, ((orange, blue, result), order) in enumerate(
        zip(games, expected_orders, strict=True), start=1
    ):
        rating_game_finished(game=finished_game(orange, blue, result, at(2025, 6, day)))
        incremental = _stored()
        assert sorted(incremental, key=lambda name: incremental[name][0]) == order
        assert [incremental[name][1] for name in order] == list(range(1, len(order) + 1))
        assert ranking_refresh(force=True)
        assert _stored() == incremental  # the same as a rebuild from scratch


@time_machine.travel(TODAY, tick=False)
def test_a_new_day_rebuilds_once_with_activity_and_rank_changes_of_that_day(users):
    rating_game_finished(game=finished_game(users["ann"], users["bob"], "1-0", at(2025, 6, 1)))
    assert [(e.name, e.rank, e.previous_rank) for e in ranking_list()] == [
        ("ann", 1, None),
        ("bob", 2, None),
    ]
    assert not ranking_refresh()  # current: nothing to do
    with time_machine.travel("2025-07-02T00:30:00Z", tick=False):
        # 2025-06-01 12:00 is before 00:00 UTC 30 days ago: the ranks then are known
        assert [(e.name, e.previous_rank) for e in ranking_list()] == [("ann", 1), ("bob", 2)]
        assert RankingState.objects.get().key.startswith("2025-07-02|")
    with time_machine.travel("2026-06-02T12:00:00Z", tick=False):
        assert ranking_list() == []  # a year and a day later nobody is active
        assert [e.rank for e in ranking_list(include_inactive=True)] == [None, None]


@time_machine.travel(TODAY, tick=False)
def test_changed_settings_rebuild_the_stored_ranking(users, settings):
    rating_game_finished(game=finished_game(users["ann"], users["bob"], "1-0", at(2025, 6, 1)))
    assert [e.name for e in ranking_list()] == ["ann", "bob"]
    settings.RATING_ACTIVE_DAYS = 1
    assert ranking_list() == []


@time_machine.travel(TODAY, tick=False)
def test_recompute_rebuilds_a_damaged_stored_ranking(users):
    _import_pairs(6)
    good = _stored()
    RankingPosition.objects.filter(rank=1).update(rank=5, previous_rank=3, glicko_rd=1.0)
    RankingPosition.objects.filter(rank=2).delete()
    ratings_recompute()
    assert _stored() == good


@time_machine.travel(TODAY, tick=False)
def test_players_without_a_counting_game_leave_the_stored_ranking(users):
    game = finished_game(users["ann"], users["bob"], "1-0", at(2025, 6, 1))
    rating_game_finished(game=game)
    game.rated = False  # as if a moderator made it unrated
    game.save()
    rating_game_changed(game=game)
    assert not PlayerRating.objects.exists()
    assert not RankingPosition.objects.exists()


# --- reading costs the same for 4 players as for 40 ---------------------------------------------


def _queries(client, url: str, **params: str) -> int:
    client.get(url, params)  # the stored ranking is current after the first read
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, params)
    assert response.status_code == 200
    return len(captured)


@pytest.mark.parametrize("players", [4, 40])
def test_reading_the_ranking_takes_a_constant_number_of_queries(client, players):
    with time_machine.travel(TODAY, tick=False):
        _import_pairs(players)
        first = RankingPosition.objects.get(rank=1).player_id
        following = client.get(reverse("rankings_api:list"), {"page_size": "2"}).json()["next"]
        counts = {
            "api list": _queries(client, reverse("rankings_api:list"), page_size="10"),
            "api list, next page": _queries(client, following),
            "api list, country": _queries(client, reverse("rankings_api:list"), country="IE"),
            "csv": _queries(client, reverse("rankings_api:export"), active="false"),
            "api player": _queries(client, reverse("rankings_api:player", args=[first])),
            "page list": _queries(client, reverse("rankings:list")),
            "page player": _queries(client, reverse("rankings:player", args=[first])),
        }
    # one freshness check, then a page (the API: no count) or the rows, the player, their
    # history; the page list also reads the kinds with results, for its menu of kinds
    assert counts == {
        "api list": 2,
        "api list, next page": 2,
        "api list, country": 2,
        "csv": 2,
        "api player": 4,
        "page list": 5,
        "page player": 4,
    }


def test_the_ranking_page_is_paginated(client):
    with time_machine.travel(TODAY, tick=False):
        _import_pairs(150)
        html = client.get(reverse("rankings:list"), {"page": "2"}).content.decode()
    assert "Page 2 of 2" in html
    assert ">101<" in html and ">150<" in html and ">100<" not in html
    assert 'rel="prev"' in html


@time_machine.travel(TODAY, tick=False)
def test_refresh_task_rebuilds_only_when_stale(users):
    from rankings.tasks import refresh_ranking

    rating_game_finished(game=finished_game(users["ann"], users["bob"], "1-0", at(2025, 6, 1)))
    assert refresh_ranking.delay().get() is False
    with time_machine.travel(date(2025, 6, 16) + timedelta(minutes=1), tick=False):
        assert refresh_ranking.delay().get() is True
