"""A finished event's pages as an organiser reads them after the last round: results written
with halves (½-½) as the standings write points, and no "clinched" tag once it is over."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.accounts.factories import make_superuser
from tests.tournaments.conftest import finish, register_all
from tests.tournaments.test_pages import login
from tournaments import services
from tournaments.models import Tournament, TournamentGame

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_rr(make_tournament, organiser, players, commit) -> Tournament:
    """A round robin of three: Orange wins in rounds 1 and 2, round 3 (the one the page lists)
    is drawn; one player ends first alone."""
    tournament = make_tournament(name="Samhain RR")
    register_all(tournament, players[:3])
    with commit():
        services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    arbiter = make_superuser()
    for number in (1, 2, 3):
        for link in TournamentGame.objects.filter(
            tournament=tournament, round__number=number
        ).select_related("game"):
            result = "1/2-1/2" if number == 3 else "1-0"
            finish(link.game, result, commit=commit, arbiter=arbiter)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return tournament


def test_a_draw_is_written_with_halves_on_the_event_and_manage_pages(finished_rr, organiser):
    page = Client().get(f"/tournaments/{finished_rr.pk}/").content.decode()
    manage = login(organiser).get(f"/tournaments/{finished_rr.pk}/manage/").content.decode()
    for html in (page, manage):
        assert "½-½" in html
        assert ">1/2-1/2<" not in html
    assert '<option value="1/2-1/2" selected>' in manage  # the form still sends the code


def test_a_knockout_bracket_writes_a_draw_with_halves(make_tournament, organiser, players, commit):
    tournament = make_tournament(format="knockout", knockout_decider="higher_seed")
    register_all(tournament, players[:2])
    with commit():
        services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    link = TournamentGame.objects.filter(tournament=tournament).select_related("game").first()
    finish(link.game, "1/2-1/2", commit=commit, arbiter=make_superuser())
    html = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert ">½-½</a>" in html and ">1/2-1/2<" not in html


def test_no_clinched_tag_once_the_event_is_over(finished_rr):
    html = Client().get(f"/tournaments/{finished_rr.pk}/").content.decode()
    assert finished_rr.winner is not None  # first alone: while running, that was "clinched"
    assert "clinched" not in html


def test_the_manage_page_gives_each_entry_its_final_place_not_playing(finished_rr, organiser):
    html = login(organiser).get(f"/tournaments/{finished_rr.pk}/manage/").content.decode()
    ranks = sorted(finished_rr.entries.values_list("final_rank", flat=True))
    assert ranks == [1, 2, 3]
    for rank in ranks:
        assert f"<td>Finished {rank}.</td>" in html
    assert "<td>Playing</td>" not in html
