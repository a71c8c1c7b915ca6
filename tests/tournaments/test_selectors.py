"""Reads: lists and who may see them, rounds, crosstables, possible places, a player's
events; and the event's own end date and cancellation."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine

from celticsite.errors import DomainError
from games.models import Game
from notifications.models import OutboxEmail
from tests.tournaments.conftest import T0, finish, register_all
from tournaments import selectors, services
from tournaments.models import Tournament, TournamentGame

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _at_t0():
    with time_machine.travel(T0, tick=False):
        yield


@pytest.fixture
def running(make_tournament, organiser, players, commit) -> Tournament:
    tournament = make_tournament(name="Running", round_start_mode="all_at_once")
    register_all(tournament, players[:4])
    with commit():
        services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    return Tournament.objects.get(pk=tournament.pk)


def by_seeds(tournament, orange_seed, blue_seed) -> TournamentGame:
    return TournamentGame.objects.select_related("game").get(
        tournament=tournament, orange__seed=orange_seed, blue__seed=blue_seed
    )


def test_lists_and_visibility(make_tournament, organiser, players):
    draft = make_tournament(name="Draft", open_registration=False)
    private = make_tournament(name="Private", public=False)
    make_tournament(name="Closing", registration_closes_at=T0 + timedelta(days=1))
    closed = make_tournament(name="Closed", registration_closes_at=T0 - timedelta(days=1))
    outsider, entrant = players[0], players[1]
    services.tournament_register(tournament_id=private.pk, user=entrant)

    def names(rows):
        return sorted(t.name for t in rows)

    assert names(selectors.tournament_list()) == ["Closed", "Closing"]
    assert names(selectors.tournament_list(user=outsider)) == ["Closed", "Closing"]
    assert names(selectors.tournament_list(user=entrant)) == ["Closed", "Closing", "Private"]
    assert names(selectors.tournament_list(user=organiser)) == [
        "Closed",
        "Closing",
        "Draft",
        "Private",
    ]
    assert [t.name for t in selectors.tournament_list_open(user=entrant)] == ["Closing", "Private"]
    with pytest.raises(DomainError) as caught:
        selectors.tournament_get_visible(tournament_id=draft.pk, user=outsider)
    assert caught.value.code == "tournament_not_found"
    assert selectors.tournament_get_visible(tournament_id=draft.pk, user=organiser) == draft
    assert [t.name for t in selectors.player_tournament_list(user=entrant)] == ["Private"]
    assert closed in selectors.tournament_list(status="registration")


def test_rounds_crosstable_and_places(running, commit):
    rounds = list(selectors.tournament_rounds(tournament=running))
    assert [r.number for r in rounds] == [1, 2, 3]
    assert [len(r.games.all()) for r in rounds] == [2, 2, 2]
    start = selectors.tournament_possible_places(tournament=running)
    assert {(p.best, p.worst) for p in start.values()} == {(1, 4)}
    finish(by_seeds(running, 1, 4).game, "1-0", commit=commit)
    finish(by_seeds(running, 2, 3).game, "0-1", commit=commit)
    (table,) = selectors.tournament_crosstables(tournament=running)
    cells = {row.number: row.cells for row in table.rows}
    assert cells[1] == ["x", "", "", "1"]
    assert cells[3] == ["", "1", "x", ""]
    assert {row.number: row.points for row in table.rows} == {1: 1, 2: 0, 3: 1, 4: 0}
    for link in TournamentGame.objects.filter(tournament=running, result=""):
        finish(link.game, "1-0", commit=commit)
    running.refresh_from_db()
    assert running.status == "finished"
    ranks = {
        row.entry_id: row.rank for row in selectors.tournament_standings(tournament=running).rows
    }
    places = selectors.tournament_possible_places(tournament=running)
    # nothing left to play: each range is the place shared with those level on points
    points = {
        row.entry_id: row.points for row in selectors.tournament_standings(tournament=running).rows
    }
    for entry, place in places.items():
        ahead = sum(1 for other in points.values() if other > points[entry])
        level = sum(1 for other in points.values() if other == points[entry])
        assert (place.best, place.worst) == (1 + ahead, ahead + level)
        assert place.best <= ranks[entry] <= place.worst


def test_the_event_end_date_sends_every_running_game_to_the_organiser(
    make_tournament, organiser, players, commit
):
    tournament = make_tournament(
        round_start_mode="all_at_once", starts_at=T0, ends_at=T0 + timedelta(days=20)
    )
    register_all(tournament, players[:4])
    with commit():
        services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    assert services.tournaments_advance(now=T0 + timedelta(days=19)) == {}
    done = services.tournaments_advance(now=T0 + timedelta(days=20, minutes=1))
    assert len(done[tournament.pk]["adjudication_needed"]) == 6
    assert selectors.tournament_games_to_adjudicate(tournament=tournament).count() == 6


def test_cancel_annuls_running_games_and_tells_the_players(running, organiser, players, commit):
    with pytest.raises(DomainError) as caught:
        services.tournament_cancel(tournament_id=running.pk, actor=players[0], reason="x")
    assert caught.value.code == "not_organiser"
    with commit():
        services.tournament_cancel(tournament_id=running.pk, actor=organiser, reason="server move")
    running.refresh_from_db()
    assert (running.status, running.status_note) == ("cancelled", "server move")
    games = Game.objects.filter(tournament_link__tournament=running)
    assert set(games.values_list("status", flat=True)) == {"annulled"}
    mails = OutboxEmail.objects.filter(event="tournament_finished")
    assert mails.count() == 4
    assert "was cancelled" in mails.first().subject
