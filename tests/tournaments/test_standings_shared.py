"""Standings and possible places are ranked once per change for every process: remembered
in the cache the processes share, stored by the worker after a result, and still answered
(computed) while the cache is down (``tournaments.standings_memo``)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.core.cache import cache
from django.test import Client, override_settings

from tests.tournaments.conftest import imported
from tournaments import services, standings, standings_memo, tasks
from tournaments.records import section_fields

pytestmark = pytest.mark.django_db

UNREACHABLE_CACHE = {
    "default": {
        "BACKEND": "celticsite.cache.FailOpenRedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
}


@pytest.fixture
def computed(monkeypatch) -> list[str]:
    """The names of the rankings computed (standings, places), in order."""
    calls: list[str] = []
    rank, places = standings.compute_standings, standings.possible_places

    def counted_rank(*args, **kwargs):
        calls.append("standings")
        return rank(*args, **kwargs)

    def counted_places(*args, **kwargs):
        calls.append("places")
        return places(*args, **kwargs)

    monkeypatch.setattr(standings, "compute_standings", counted_rank)
    monkeypatch.setattr(standings, "possible_places", counted_places)
    standings_memo.forget()
    yield calls
    standings_memo.forget()


def answers(tournament) -> list[int]:
    """The standings API's entry ids, after the event page, each as a new process would
    answer them (its own memory empty)."""
    standings_memo.forget()
    assert Client().get(f"/tournaments/{tournament.pk}/").status_code == 200
    standings_memo.forget()
    rows = Client().get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()["rows"]
    return [row["entry_id"] for row in rows]


def test_two_processes_rank_once_per_change(organiser, computed):
    tournament = imported(organiser, players=4, rounds=1)
    first = answers(tournament)
    assert computed == ["standings", "places"]
    assert answers(tournament) == first and computed == ["standings", "places"]
    game = tournament.games.get(board=1)
    services.tournament_result_fix(
        tournament_game_id=game.pk, actor=organiser, result="1/2-1/2", reason="Misread sheet"
    )
    computed.clear()
    answers(tournament)
    answers(tournament)
    # The fix stored the final standings itself; the places of the new results once.
    assert computed == ["places"]


def test_the_worker_stores_what_the_page_then_reads(organiser, computed):
    tournament = imported(organiser, players=4, rounds=1)
    assert tasks.standings_warm(tournament.pk) is True
    assert computed == ["standings", "places"]
    computed.clear()
    answers(tournament)
    assert computed == []


def test_a_result_queues_the_worker_after_commit(organiser, computed, commit):
    tournament = imported(organiser, players=4, rounds=1)
    game = tournament.games.get(board=1)
    with commit():
        services.tournament_result_fix(
            tournament_game_id=game.pk, actor=organiser, result="0-1", reason="Misread sheet"
        )
    assert computed == ["standings", "places"]  # the fix's final standings, the worker's places
    computed.clear()
    answers(tournament)
    assert computed == []


def test_the_worker_leaves_an_event_not_ranked_alone(organiser, computed):
    assert tasks.standings_warm(0) is False
    draft = services.tournament_create(organiser=organiser, name="Draft", format="round_robin")
    assert tasks.standings_warm(draft.pk) is False
    assert computed == []


def test_a_cache_outage_still_answers(organiser, computed):
    tournament = imported(organiser, players=4, rounds=1)
    with override_settings(CACHES=UNREACHABLE_CACHE):
        first = answers(tournament)
        assert len(first) == 4 and answers(tournament) == first
        assert tasks.standings_warm(tournament.pk) is True
    assert computed.count("standings") == 5  # nothing stored: each process ranks


def test_a_burst_of_results_queues_one_ranking(organiser, computed, commit):
    """While a ranking waits in the queue, another result queues none (it will read the
    results as they are when it runs)."""
    tournament = imported(organiser, players=4, rounds=1)
    assert standings_memo.warm_claim(tournament.pk) is True  # one waits in the queue
    assert standings_memo.warm_claim(tournament.pk) is False
    game = tournament.games.get(board=1)
    with commit():
        services.tournament_result_fix(
            tournament_game_id=game.pk, actor=organiser, result="0-1", reason="Misread sheet"
        )
    assert computed == ["standings"]  # the fix's final standings; no ranking queued
    tasks.standings_warm(tournament.pk)  # the one waiting runs, and frees the claim
    assert computed == ["standings", "places"]
    assert standings_memo.warm_claim(tournament.pk) is True


def test_a_section_keeps_one_stored_answer_of_each_kind(organiser, computed):
    """A 5,000-player event's rows are megabytes: a new result's answer replaces the one
    stored before, it does not pile up beside it until it expires."""
    tournament = imported(organiser, players=4, rounds=1)
    first_entry = tournament.entries.order_by("seed").first().pk
    slot = f"tournaments:standings:slot:standings:{first_entry}:1"
    answers(tournament)
    before = cache.get(slot)
    assert before is not None and cache.get(before) is not None
    game = tournament.games.get(board=1)
    services.tournament_result_fix(
        tournament_game_id=game.pk, actor=organiser, result="1/2-1/2", reason="Misread sheet"
    )
    answers(tournament)
    assert cache.get(slot) not in (None, before) and cache.get(before) is None


def test_pairing_a_round_changes_no_key_a_result_does(organiser):
    """Pending games make no record: a round paired keeps the stored answers, a result in
    it names new ones."""
    tournament = imported(organiser, players=4, rounds=1)
    (section,) = section_fields(tournament)
    first, second = (entry.pk for entry in section.entries[:2])
    paired = replace(section, games=(*section.games, (2, first, second, "", False)))
    decided = replace(section, games=(*section.games, (2, first, second, "1-0", False)))
    assert paired.digest == section.digest
    assert decided.digest != section.digest
