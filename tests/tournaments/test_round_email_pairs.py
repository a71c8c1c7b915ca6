"""A knockout round starts a pair of games per match: each player gets one "round started"
email naming both games, not one email per game."""

from __future__ import annotations

import pytest

from notifications.models import OutboxEmail
from tests.tournaments.conftest import register_all
from tournaments import services
from tournaments.models import TournamentGame

pytestmark = pytest.mark.django_db


def test_one_round_email_names_both_games_of_a_knockout_pair(
    make_tournament, organiser, players, commit
):
    tournament = make_tournament(format="knockout", name="Ash Cup")
    register_all(tournament, players[:2])
    with commit():
        services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    first, second = TournamentGame.objects.filter(tournament=tournament).order_by("board")
    p1 = first.orange.player

    told = OutboxEmail.objects.filter(event="tournament_round", recipient=p1)
    assert told.count() == 1
    body = told.get().body_text
    assert (
        f"You play Orange against p2 in game #{first.game_id} "
        f"and Blue against p2 in game #{second.game_id}."
    ) in body
