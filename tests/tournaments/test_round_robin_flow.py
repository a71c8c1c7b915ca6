"""A round robin from registration to final standings, driven through the services."""

from __future__ import annotations

import pytest

from games.models import Game
from notifications.models import OutboxEmail
from tests.tournaments.conftest import play_out, register_all
from tournaments import selectors, services
from tournaments.models import Entry, Round, Tournament, TournamentGame

pytestmark = pytest.mark.django_db(transaction=False)


def test_four_players_round_by_round_to_the_end(make_tournament, organiser, players, commit):
    tournament = make_tournament(tiebreaks=["de", "sb"])
    register_all(tournament, players[:4])
    with commit():
        services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert tournament.rounds_planned == 3
    assert list(tournament.rounds.values_list("status", flat=True)) == [
        "running",
        "planned",
        "planned",
    ]
    first = TournamentGame.objects.filter(round__number=1)
    assert first.count() == 2
    assert all(link.game.rated for link in first)
    assert OutboxEmail.objects.filter(event="tournament_round").count() == 4
    assert OutboxEmail.objects.filter(event="your_turn").count() == 2
    for number in (1, 2, 3):
        for link in TournamentGame.objects.filter(round__number=number).select_related("game"):
            play_out(link.game, seed=link.pk, commit=commit)
        # the hook recorded the results and the next round started by itself
        rnd = Round.objects.get(tournament=tournament, number=number)
        assert rnd.status == Round.Status.COMPLETE
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    standings = selectors.tournament_standings(tournament=tournament)
    assert standings.rows[0].rank == 1
    assert sum(row.points for row in standings.rows) == 6
    assert tournament.winner == standings.rows[0].player
    assert Entry.objects.filter(tournament=tournament, final_rank=1).exists()
    assert OutboxEmail.objects.filter(event="tournament_finished").count() == 4
    assert Game.objects.filter(tournament_link__tournament=tournament).count() == 6
