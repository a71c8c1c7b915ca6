"""A knockout's final-standings email lists places as its page does: shared places as a range
("3\u20134", an en dash) with the stage reached, not game points that rank nothing."""

from __future__ import annotations

import pytest

from notifications.models import OutboxEmail
from tests.tournaments.conftest import finish, register_all
from tournaments import services
from tournaments.models import Tournament, TournamentGame

pytestmark = pytest.mark.django_db


def test_the_knockout_email_lists_places_and_stages_as_the_page(
    make_tournament, organiser, players, commit
):
    tournament = make_tournament(format="knockout", name="Oak Cup")
    register_all(tournament, players[:4])
    with commit():
        services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    for number in (1, 2):  # the higher seed wins every game: 1 v 4, 2 v 3, then 1 v 2
        links = TournamentGame.objects.filter(tournament=tournament, round__number=number)
        for link in links.select_related("orange", "blue", "game"):
            orange_wins = link.orange.seed < link.blue.seed
            finish(link.game, "1-0" if orange_wins else "0-1", commit=commit)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED

    email = OutboxEmail.objects.get(event="tournament_finished", recipient__username="p3")
    shared = "3\u20134"  # an en dash, as the page writes the places
    lines = f"1. p1, winner\n2. p2, final\n{shared}. p3, semi-finals\n{shared}. p4, semi-finals\n"
    assert lines in email.body_text
    assert "You share 3rd place." in email.body_text  # no game points: they rank nothing here
    assert f"<td>{shared}</td><td>p3</td><td>semi-finals</td>" in email.body_html
