"""The manage page lists each round's byes under its games, as the event's page does: the
organiser sees who sits out (and how it counts) where they adjudicate."""

from __future__ import annotations

import pytest

from tests.tournaments.conftest import register_all
from tests.tournaments.test_pages import login
from tournaments import services
from tournaments.models import Bye

pytestmark = pytest.mark.django_db


def test_the_manage_page_names_the_bye_of_a_round(make_tournament, organiser, players, commit):
    tournament = make_tournament(format="swiss", rounds_planned=2)
    register_all(tournament, players[:3])
    with commit():
        services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    bye = Bye.objects.select_related("entry").get(round__tournament=tournament)
    html = login(organiser).get(f"/tournaments/{tournament.pk}/manage/").content.decode()
    assert f'Byes: {bye.entry.name} <span class="muted">(pairing bye, worth a win)</span>' in html
