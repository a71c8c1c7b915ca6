"""A tournament game costs no more queries to show than any other game: the game page and the
API read the event, round and board through one join (``Game.tournament``)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import services as games_services
from tests.tournaments.conftest import imported, register_all
from tournaments import selectors, services, tables
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _queries(url: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as captured:
        response = Client().get(url)
    assert response.status_code == 200
    return len(captured.captured_queries), response.content.decode()


def test_a_tournament_game_page_costs_the_same_as_a_casual_one(make_tournament, organiser, players):
    tournament = make_tournament(name="Imbolc RR")
    register_all(tournament, players[:4])
    services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    event_game = tournament.games.order_by("board").first().game
    casual = games_services.game_start(players=[players[4], players[5]], public=True)

    event_count, event_page = _queries(f"/games/{event_game.pk}/")
    casual_count, casual_page = _queries(f"/games/{casual.pk}/")

    assert "Imbolc RR</a>, round 1, board 1" in event_page
    assert "Imbolc RR" not in casual_page
    assert event_count == casual_count


def _started(make_tournament, organiser, players, count: int, **settings):
    tournament = make_tournament(**settings)
    register_all(tournament, players[:count])
    services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    return tournament


def _read_queries(read) -> int:
    with CaptureQueriesContext(connection) as captured:
        read()
    return len(captured.captured_queries)


def test_the_round_table_costs_the_same_for_any_field(make_tournament, organiser, players):
    small = _started(make_tournament, organiser, players, 4, name="Small RR")
    large = _started(make_tournament, organiser, players, 6, name="Large RR")
    counts = []
    for tournament in (small, large):
        tournament.refresh_from_db()
        standings = selectors.tournament_standings(tournament=tournament)
        counts.append(
            _read_queries(
                lambda t=tournament, s=standings: tables.tournament_round_tables(
                    tournament=t, standings=s
                )
            )
        )
        (table,) = tables.tournament_round_tables(tournament=tournament, standings=standings)
        assert all(cell.pending for row in table.rows for cell in row.cells)
    assert counts[0] == counts[1] <= 6
    small_page, html = _queries(f"/tournaments/{small.pk}/")
    assert 'class="round-table"' in html
    assert _queries(f"/tournaments/{large.pk}/")[0] == small_page


def test_the_bracket_costs_the_same_for_any_field(make_tournament, organiser, players):
    small = _started(make_tournament, organiser, players, 3, name="Small KO", format="knockout")
    large = _started(make_tournament, organiser, players, 6, name="Large KO", format="knockout")
    counts = []
    for tournament in (small, large):
        tournament.refresh_from_db()
        counts.append(_read_queries(lambda t=tournament: tables.tournament_bracket(tournament=t)))
    assert counts[0] == counts[1] <= 3
    small_page, html = _queries(f"/tournaments/{small.pk}/")
    assert 'class="bracket"' in html
    assert _queries(f"/tournaments/{large.pk}/")[0] == small_page


def test_the_event_page_costs_the_same_for_any_field(organiser):
    """The same number of queries for 120 players in 2 rounds as for 240 in 4: nothing is
    read per player, game or round."""

    def queries(tournament: Tournament) -> int:
        client = Client()
        with CaptureQueriesContext(connection) as captured:
            assert client.get(f"/tournaments/{tournament.pk}/").status_code == 200
        return len(captured.captured_queries)

    small = imported(organiser, players=120, rounds=2, name="Small")
    large = imported(organiser, players=240, rounds=4, name="Large")
    assert queries(small) == queries(large)
