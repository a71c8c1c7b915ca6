"""A round due is paired in a task after the commit, never in the request that made it due:
every path that completes or starts a round marks the next one "pairing" and queues
``pair_round``; the task is safe twice; the beat and a worker's start queue it again."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client

from games import services as game_services
from games.timeouts import game_timeouts_decide
from tests.accounts.factories import PASSWORD, make_superuser, make_user
from tests.tournaments.conftest import T0, register_all
from tournaments import selectors, services
from tournaments.handlers import on_worker_ready
from tournaments.models import KnockoutMatch, Round, Tournament, TournamentGame
from tournaments.services import rounds

pytestmark = [pytest.mark.django_db, pytest.mark.pairing_deferred]


@pytest.fixture(autouse=True)
def _at_t0():
    with time_machine.travel(T0, tick=False):
        yield


@pytest.fixture
def deferred(django_capture_on_commit_callbacks) -> Callable[[Callable[[], Any]], list[Any]]:
    """``deferred(action)`` runs ``action`` as a request would, keeping back what its commit
    would queue; returns those callbacks."""

    def run(action: Callable[[], Any]) -> list[Any]:
        with django_capture_on_commit_callbacks() as callbacks:
            action()
        return callbacks

    return run


@pytest.fixture
def after_commit(django_capture_on_commit_callbacks) -> Callable[[list[Any]], None]:
    """``after_commit(callbacks)`` runs them as the commit would (the tasks in process), and
    whatever they queue in turn."""

    def run(callbacks: list[Any]) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            for callback in callbacks:
                callback()

    return run


def status(tournament: Tournament, number: int) -> str | None:
    return tournament.rounds.filter(number=number).values_list("status", flat=True).first()


def games_of(tournament: Tournament, number: int) -> list[TournamentGame]:
    return list(
        TournamentGame.objects.filter(tournament=tournament, round__number=number)
        .select_related("game")
        .order_by("board")
    )


@pytest.fixture
def swiss(make_tournament, organiser, players, deferred, after_commit) -> Tournament:
    """A Swiss of four players, three rounds round by round, round 1 paired by its task and
    all but its last game decided (recorded)."""
    tournament = make_tournament(format="swiss", rounds_planned=3)
    register_all(tournament, players[:4])
    start = deferred(
        lambda: services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    )
    assert status(tournament, 1) == Round.Status.PAIRING and not games_of(tournament, 1)
    after_commit(start)
    first = games_of(tournament, 1)[0]
    game_services.game_resign(game_id=first.game.pk, user=first.game.user_at(2))
    services.tournament_game_ended(game_id=first.game.pk)
    assert status(tournament, 1) == Round.Status.RUNNING
    return Tournament.objects.get(pk=tournament.pk)


def _last_game(tournament: Tournament) -> TournamentGame:
    return games_of(tournament, 1)[1]


def _by_result(tournament, organiser):
    game = _last_game(tournament).game
    game_services.game_resign(game_id=game.pk, user=game.user_at(1))
    services.tournament_game_ended(game_id=game.pk)


def _by_adjudication(tournament, organiser):
    services.tournament_game_adjudicate(
        tournament_game_id=_last_game(tournament).pk, actor=organiser, result="1-0", reason="late"
    )


def _by_annulment(tournament, organiser):
    game = _last_game(tournament).game
    game_services.game_annul(
        game_id=game.pk, actor=make_superuser("mod"), reason="cheating", moderator_check=False
    )
    services.tournament_game_ended(game_id=game.pk)


def _by_result_fix(tournament, organiser):
    link = _last_game(tournament)
    game_services.game_resign(game_id=link.game.pk, user=link.game.user_at(1))  # not recorded yet
    services.tournament_result_fix(
        tournament_game_id=link.pk, actor=organiser, result="-/+", reason="no show"
    )


def _by_withdrawal(tournament, organiser):
    services.entry_withdraw(
        tournament_id=tournament.pk, user=_last_game(tournament).game.user_at(2)
    )


def _by_timeout_and_the_beat(tournament, organiser):
    later = T0 + timedelta(days=30)
    game_timeouts_decide(now=later)  # the game's own hook is lost: the beat records it
    services.tournament_advance(tournament_id=tournament.pk, now=later)


@pytest.mark.parametrize(
    "complete",
    [
        _by_result,
        _by_adjudication,
        _by_annulment,
        _by_result_fix,
        _by_withdrawal,
        _by_timeout_and_the_beat,
    ],
)
def test_completing_a_round_queues_the_next_pairing_and_does_not_pair_it(
    swiss, organiser, complete, deferred, after_commit
):
    queued = deferred(lambda: complete(swiss, organiser))
    assert status(swiss, 1) == Round.Status.COMPLETE
    assert status(swiss, 2) == Round.Status.PAIRING
    assert not games_of(swiss, 2)
    after_commit(queued)
    assert status(swiss, 2) == Round.Status.RUNNING
    assert len(games_of(swiss, 2)) + swiss.rounds.get(number=2).byes.count() >= 1


def test_the_pairing_task_twice_makes_one_set_of_games(swiss, deferred):
    queued = deferred(lambda: _by_result(swiss, None))
    assert queued  # kept back: the test runs the task by hand
    assert services.tournament_round_pair(tournament_id=swiss.pk, round_number=2) is True
    made = sorted(link.pk for link in games_of(swiss, 2))
    assert services.tournament_round_pair(tournament_id=swiss.pk, round_number=2) is False
    assert sorted(link.pk for link in games_of(swiss, 2)) == made and made
    assert services.tournament_round_pair(tournament_id=swiss.pk, round_number=3) is False
    assert status(swiss, 3) is None  # a Swiss round is made when it is due


def test_the_beat_queues_a_lost_pairing_again_after_a_minute(swiss, deferred, after_commit):
    deferred(lambda: _by_result(swiss, None))  # the task is lost with its worker
    soon = deferred(
        lambda: services.tournament_advance(tournament_id=swiss.pk, now=T0 + timedelta(seconds=30))
    )
    assert not soon and status(swiss, 2) == Round.Status.PAIRING
    done: dict[str, Any] = {}
    later = deferred(
        lambda: done.update(
            services.tournament_advance(tournament_id=swiss.pk, now=T0 + timedelta(seconds=61))
        )
    )
    assert done == {"pairing_requeued": [2]}
    after_commit(later)
    assert status(swiss, 2) == Round.Status.RUNNING and games_of(swiss, 2)


def test_a_worker_starting_queues_every_round_still_pairing(swiss, deferred, after_commit):
    deferred(lambda: _by_result(swiss, None))  # the task died with the worker
    queued = deferred(lambda: on_worker_ready(sender=None))
    after_commit(queued)
    assert status(swiss, 2) == Round.Status.RUNNING and games_of(swiss, 2)


def test_the_organiser_may_pair_a_round_waiting_for_its_task(
    make_tournament, organiser, players, deferred, after_commit
):
    tournament = make_tournament(format="swiss", rounds_planned=3)
    register_all(tournament, players[:4])
    queued = deferred(
        lambda: services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    )
    e1, e2, e3, e4 = tournament.entries.order_by("seed")
    services.round_pair_manually(
        tournament_id=tournament.pk,
        actor=organiser,
        pairs=[(e1.pk, e4.pk), (e3.pk, e2.pk)],
        reason="by hand",
    )
    after_commit(queued)  # the task finds round 1 paired and leaves it
    assert [(g.orange.seed, g.blue.seed) for g in games_of(tournament, 1)] == [(1, 4), (3, 2)]


def test_the_beat_starts_an_event_at_its_date_through_the_task(
    make_tournament, players, deferred, after_commit
):
    tournament = make_tournament(
        format="swiss", rounds_planned=3, start_mode="at_date", starts_at=T0 + timedelta(hours=1)
    )
    register_all(tournament, players[:4])
    later = T0 + timedelta(hours=2)
    queued = deferred(lambda: services.tournament_advance(tournament_id=tournament.pk, now=later))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert status(tournament, 1) == Round.Status.PAIRING and not games_of(tournament, 1)
    after_commit(queued)
    assert len(games_of(tournament, 1)) == 2


@pytest.mark.outbox_unrendered  # 3,540 "your game started" emails: not rendered here
def test_a_sixty_player_round_robin_starts_at_once_and_its_tasks_make_1770_games(
    make_tournament, organiser, monkeypatch
):
    tournament = make_tournament(round_start_mode="all_at_once", max_players=60)
    register_all(tournament, [make_user(f"rr{i}") for i in range(60)])
    queued: list[tuple[int, int]] = []
    monkeypatch.setattr(rounds, "_round_pairing_queue", lambda *task: queued.append(task))
    services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    assert not TournamentGame.objects.filter(tournament=tournament).exists()
    assert status(tournament, 1) == Round.Status.PAIRING and queued == [(tournament.pk, 1)]
    while queued:  # each task queues the next round: all at once, one after the other
        tournament_id, number = queued.pop(0)
        services.tournament_round_pair(tournament_id=tournament_id, round_number=number)
    assert TournamentGame.objects.filter(tournament=tournament, game__isnull=False).count() == 1770
    assert set(tournament.rounds.values_list("status", flat=True)) == {Round.Status.RUNNING}


def test_the_event_page_and_the_api_show_a_round_pairing(
    make_tournament, organiser, players, deferred
):
    tournament = make_tournament(format="swiss", rounds_planned=3)
    register_all(tournament, players[:4])
    deferred(lambda: services.tournament_start(tournament_id=tournament.pk, actor=organiser))
    client = Client()
    assert client.login(username=players[0].username, password=PASSWORD)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert '<strong>Round 1</strong> <span class="muted">· pairing…' in page
    assert "Being paired: its games start in a moment." in page
    api = client.get(f"/api/v1/tournaments/{tournament.pk}/").json()
    assert [(r["number"], r["status"]) for r in api["rounds"]] == [(1, "pairing")]
    assert api["rounds_planned"] == 3


def test_a_swiss_makes_each_round_as_it_comes(swiss, players, deferred, after_commit):
    assert list(swiss.rounds.values_list("number", flat=True)) == [1]  # not 2 and 3 ahead
    assert selectors.tournament_rounds_to_come(tournament=swiss) == [2, 3]
    assert selectors.tournament_rounds_total(tournament=swiss) == 3
    services.bye_enter(
        tournament_id=swiss.pk,
        actor=swiss.organiser,
        entry_id=swiss.entries.get(player=players[0]).pk,
        kind="Z",
        round_number=3,
        reason="away",
    )
    assert list(swiss.rounds.values_list("number", "status")) == [(1, "running"), (3, "planned")]
    after_commit(deferred(lambda: _by_result(swiss, None)))
    assert list(swiss.rounds.values_list("number", "status")) == [
        (1, "complete"),
        (2, "running"),
        (3, "planned"),
    ]
    assert selectors.tournament_rounds_to_come(tournament=swiss) == [3]


def test_a_knockout_match_decided_by_the_organiser_queues_the_next_round(
    make_tournament, organiser, players, deferred, after_commit
):
    tournament = make_tournament(format="knockout")
    register_all(tournament, players[:4])
    after_commit(
        deferred(lambda: services.tournament_start(tournament_id=tournament.pk, actor=organiser))
    )
    first, second = KnockoutMatch.objects.filter(round__tournament=tournament).order_by("number")

    def decide(match: KnockoutMatch) -> None:
        services.knockout_match_decide(
            match_id=match.pk, actor=organiser, winner_entry_id=match.higher_id, reason="no show"
        )

    decide(first)
    queued = deferred(lambda: decide(second))
    assert status(tournament, 1) == Round.Status.COMPLETE
    assert status(tournament, 2) == Round.Status.PAIRING and not games_of(tournament, 2)
    after_commit(queued)
    assert len(games_of(tournament, 2)) == 2  # the final's first pair of games
