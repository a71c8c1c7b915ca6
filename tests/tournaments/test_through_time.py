"""A whole round robin run by the clock: registration, an automatic start, rounds starting
on their dates, games played through the games services, a timeout, a withdrawal, an
unstarted game, a deadline with the organiser's adjudication, and the final standings.

Five players (seeded p1..p5 in registration order, all unrated) meet by the Berger table:

    round 1: p2-p5, p3-p4 (p1 off)      round 4: p1-p4, p2-p3 (p5 off)
    round 2: p5-p3, p1-p2 (p4 off)      round 5: p4-p2, p5-p1 (p3 off)
    round 3: p3-p1, p4-p5 (p2 off)

The beat (``decide_timeouts`` and ``advance_tournaments``) runs whenever the test lets time
pass; every other change goes through the services a player or organiser would call.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from fractions import Fraction

import pytest
import time_machine
from django.core import mail

from celticsite.errors import DomainError
from games.models import Game
from games.tasks import decide_timeouts
from notifications.models import OutboxEmail
from tests.tournaments.conftest import T0, finish, first_move
from tournaments import selectors, services
from tournaments.models import Round, Tournament, TournamentGame
from tournaments.tasks import advance_tournaments

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)
START = T0 + 7 * DAY  # rounds start on days 7, 14, 21, 28 and 35 (Mondays)


def test_a_round_robin_runs_itself(organiser, players, commit):
    p1, p2, p3, p4, p5, late = players
    clock = time_machine.travel(T0, tick=False)
    traveller = clock.start()

    def at(moment):
        traveller.move_to(moment)

    def beat():
        with commit():
            decide_timeouts()
            advance_tournaments()

    def game(a, b):
        """The game in which ``a`` has Orange against ``b``."""
        games = Game.objects.played_by(a).filter(tournament_link__tournament=tournament)
        return next(g for g in games if g.seat_users() == [a, b])

    try:
        # --- registration ------------------------------------------------------------------
        tournament = services.tournament_create(
            organiser=organiser,
            name="Spring Correspondence Round Robin",
            start_mode="at_date",
            starts_at=START,
            registration_closes_at=START - DAY,
            round_start_mode="on_dates",
            round_interval_days=7,
            round_duration_days=6,
            tiebreaks=["de", "sb"],
        )
        services.tournament_registration_open(tournament_id=tournament.pk, actor=organiser)
        for hour, user in enumerate([p1, p2, p3, p4, p5]):
            at(T0 + DAY + hour * timedelta(hours=1))
            services.tournament_register(tournament_id=tournament.pk, user=user)
        at(START - DAY + timedelta(hours=1))
        with pytest.raises(DomainError) as refused:
            services.tournament_register(tournament_id=tournament.pk, user=late)
        assert refused.value.code == "registration_closed"
        at(START - timedelta(minutes=1))
        beat()
        assert Tournament.objects.get(pk=tournament.pk).status == "registration"

        # --- the start and round 1 ---------------------------------------------------------
        at(START)
        beat()
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.RUNNING
        assert list(tournament.entries.order_by("seed").values_list("name", flat=True)) == [
            "p1",
            "p2",
            "p3",
            "p4",
            "p5",
        ]
        assert tournament.rounds_planned == 5
        at(START + DAY)
        finish(game(p2, p5), "1-0", commit=commit)
        finish(game(p3, p4), "1-0", commit=commit)
        assert Round.objects.get(tournament=tournament, number=1).status == "complete"
        beat()
        assert Round.objects.get(tournament=tournament, number=2).status == "planned"

        # --- round 2 starts on its date; p3 lets the clock run out --------------------------
        at(START + 7 * DAY)
        beat()
        assert Round.objects.get(tournament=tournament, number=2).started_at == START + 7 * DAY
        at(START + 8 * DAY)
        first_move(game(p5, p3))
        finish(game(p1, p2), "1-0", commit=commit)
        at(START + 11 * DAY + timedelta(hours=1))  # p3's three days are over
        beat()
        assert game(p5, p3).termination == Game.Termination.TIMEOUT
        assert Round.objects.get(tournament=tournament, number=2).status == "complete"

        # --- round 3; p5 withdraws with a game running --------------------------------------
        at(START + 14 * DAY)
        beat()
        at(START + 15 * DAY)
        with commit():
            services.entry_withdraw(tournament_id=tournament.pk, user=p5)
        assert game(p4, p5).termination == Game.Termination.RESIGNATION
        finish(game(p3, p1), "0-1", commit=commit)

        # --- round 4: one game outlives the round's end date --------------------------------
        at(START + 21 * DAY)
        beat()
        round_four = Round.objects.get(tournament=tournament, number=4)
        assert round_four.ends_at == START + 27 * DAY
        at(START + 22 * DAY)
        finish(game(p1, p4), "0-1", commit=commit)
        long_game = game(p2, p3)
        for day in range(22, 27):  # a move a day, well within the three days per move
            at(START + day * DAY)
            with commit():
                long_game = first_move(long_game)
        assert long_game.is_active
        at(START + 27 * DAY + timedelta(hours=1))
        beat()
        link = TournamentGame.objects.get(game=long_game)
        assert link.needs_adjudication
        news = OutboxEmail.objects.get(
            event="tournament_organiser", recipient=organiser, subject__contains="adjudicate"
        )
        assert f"game #{long_game.pk}" in news.body_text

        # --- round 5 starts on its date; the organiser adjudicates; p4 never moves ----------
        at(START + 28 * DAY)
        beat()
        assert Round.objects.get(tournament=tournament, number=5).status == "running"
        assert (
            not Game.objects.played_by(p5).filter(tournament_link__round__number=5).exists()
        )  # p5 withdrew: a forfeit, no game
        with commit():
            services.tournament_game_adjudicate(
                tournament_game_id=link.pk,
                actor=organiser,
                result="1/2-1/2",
                reason="level position after the round's end date",
            )
        assert Round.objects.get(tournament=tournament, number=4).status == "complete"
        at(START + 31 * DAY + timedelta(hours=1))  # p4's three days for the first move pass
        beat()
        assert game(p4, p2).status == Game.Status.ANNULLED

        # --- the end -----------------------------------------------------------------------
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.FINISHED
        assert tournament.finished_at == START + 31 * DAY + timedelta(hours=1)
        assert tournament.winner == p1
        results = {
            (link.orange.name, link.blue.name): link.result
            for link in TournamentGame.objects.filter(tournament=tournament).select_related(
                "orange", "blue"
            )
        }
        assert results == {
            ("p2", "p5"): "1-0",
            ("p3", "p4"): "1-0",
            ("p5", "p3"): "1-0",  # on time
            ("p1", "p2"): "1-0",
            ("p3", "p1"): "0-1",
            ("p4", "p5"): "+/-",  # p5 withdrew after half their games: forfeits
            ("p1", "p4"): "0-1",
            ("p2", "p3"): "1/2-1/2",  # adjudicated
            ("p4", "p2"): "-/+",  # p4 never moved: a forfeit
            ("p5", "p1"): "-/+",  # after the withdrawal, without a game
        }
        standings = selectors.tournament_standings(tournament=tournament)
        assert [(r.rank, r.name, r.points, r.withdrawn) for r in standings.rows] == [
            (1, "p1", Fraction(3), False),
            (2, "p2", Fraction(5, 2), False),
            (3, "p4", Fraction(2), False),
            (4, "p3", Fraction(3, 2), False),
            (5, "p5", Fraction(1), True),
        ]
        stored = list(tournament.entries.order_by("final_rank").values_list("name", "final_points"))
        assert stored == [
            ("p1", Decimal("3.0")),
            ("p2", Decimal("2.5")),
            ("p4", Decimal("2.0")),
            ("p3", Decimal("1.5")),
            ("p5", Decimal("1.0")),
        ]
        finals = OutboxEmail.objects.filter(event="tournament_finished")
        assert finals.count() == 5
        assert any("The winner is p1" in m.body for m in mail.outbox)
        assert OutboxEmail.objects.filter(event="tournament_withdrawn", recipient=p5).exists()
        started = list(tournament.rounds.order_by("number").values_list("started_at", flat=True))
        assert started == [START + week * 7 * DAY for week in range(5)]
        # nothing more happens however often the beat runs
        games = Game.objects.count()
        at(START + 40 * DAY)
        beat()
        assert Game.objects.count() == games
    finally:
        clock.stop()
