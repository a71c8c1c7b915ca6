"""The organiser hears when their event is over (who won), not only that its last round is
complete: the players' final-standings email goes to the players alone."""

from __future__ import annotations

import pytest

from notifications.models import OutboxEmail
from tests.tournaments.conftest import finish, register_all
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_the_organiser_is_told_the_event_is_over_and_who_won(
    make_tournament, organiser, players, commit
):
    tournament = make_tournament(name="Rowan RR")
    register_all(tournament, players[:2])
    with commit():
        services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    link = tournament.games.select_related("game", "orange").get()
    finish(link.game, "1-0", commit=commit)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED

    told = OutboxEmail.objects.filter(recipient=organiser).order_by("pk")
    assert [e.subject for e in told] == [
        "Rowan RR: round 1 is complete",
        "Rowan RR: the event is over",
    ]
    assert f"Rowan RR is over: every round is complete. The winner is {link.orange.name}." in (
        told.last().body_text
    )
