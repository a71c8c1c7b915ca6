"""A tournament game costs no more queries to show than any other game: the game page and the
API read the event, round and board through one join (``Game.tournament``)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import services as games_services
from tests.tournaments.conftest import register_all
from tournaments import services

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
    casual = games_services.game_start(orange=players[4], blue=players[5], public=True)

    event_count, event_page = _queries(f"/games/{event_game.pk}/")
    casual_count, casual_page = _queries(f"/games/{casual.pk}/")

    assert "Imbolc RR</a>, round 1, board 1" in event_page
    assert "Imbolc RR" not in casual_page
    assert event_count == casual_count
