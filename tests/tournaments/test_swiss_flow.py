"""A Swiss event through the services, paired round by round by the installed Dutch system."""

from __future__ import annotations

import pytest
import time_machine

from tests.tournaments.conftest import T0, finish, register_all
from tournaments import selectors, services
from tournaments.models import Bye, Entry, Tournament, TournamentGame

pytestmark = pytest.mark.django_db


def test_five_players_three_rounds_with_a_withdrawal(make_tournament, organiser, players, commit):
    with time_machine.travel(T0, tick=False):
        tournament = make_tournament(format="swiss", rounds_planned=3, tiebreaks=["bh", "sb"])
        register_all(tournament, players[:5])
        with commit():
            services.tournament_start(tournament_id=tournament.pk, actor=organiser)
        for number in (1, 2, 3):
            links = TournamentGame.objects.filter(tournament=tournament, round__number=number)
            assert links.count() == 2  # five players, then four after the withdrawal
            assert Bye.objects.filter(round__number=number, kind="U").count() == (
                1 if number < 3 else 0
            )
            if number == 2:
                with commit():
                    services.entry_withdraw(tournament_id=tournament.pk, user=players[4])
            for link in links.select_related("game"):
                if link.game.is_active:
                    finish(link.game, "1-0", commit=commit)
        tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    withdrawn = Entry.objects.get(tournament=tournament, player=players[4])
    assert withdrawn.withdrawn_after_round == 2
    rows = selectors.tournament_standings(tournament=tournament).rows
    assert sum(row.points for row in rows) == 3 + 3 + 2  # two games a round, two byes
    assert rows[0].rank == 1 and set(rows[0].tiebreaks) == {"bh", "sb"}
    places = selectors.tournament_possible_places(tournament=tournament)
    assert places[rows[0].entry_id].best == 1
