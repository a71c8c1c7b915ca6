"""Games decided on time by the beat task: the player to move loses, an unstarted game is
annulled, and nothing is decided twice."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail

from games import services
from games.engine import game_state
from games.models import Game
from games.tasks import decide_timeouts
from games.timeouts import game_timeouts_decide
from notifications.models import OutboxEmail
from rankings.models import PlayerRating, RatedResult
from tests.seats import to_move

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
DEADLINE = T0 + timedelta(days=3)


@pytest.fixture
def started(alice, bob) -> Game:
    with time_machine.travel(T0, tick=False):
        return services.game_start(players=[alice, bob])


def play_first_move(game: Game, user, *, at: datetime) -> Game:
    """Orange plays the first legal move (in text order) at ``at``; Blue's clock starts."""
    move = str(sorted(game_state(game).legal_choices(), key=str)[0])
    return services.move_submit(
        game_id=game.pk, user=user, expected_ply=0, notation=move, now=at
    ).game


def ratings() -> dict[str, float]:
    return {r.player.name: r.elo for r in PlayerRating.objects.select_related("player")}


def test_nothing_happens_before_the_deadline(started):
    assert game_timeouts_decide(now=DEADLINE) == []  # at the deadline, still in time
    started.refresh_from_db()
    assert (started.status, started.result) == ("active", "")


def test_player_to_move_loses_on_time(alice, bob, started):
    game = play_first_move(started, alice, at=T0 + timedelta(hours=1))
    blue_deadline = T0 + timedelta(hours=1, days=3)
    assert game.deadline == blue_deadline
    assert game_timeouts_decide(now=blue_deadline - timedelta(seconds=1)) == []

    decided_at = blue_deadline + timedelta(seconds=30)
    assert game_timeouts_decide(now=decided_at) == [game.pk]
    game.refresh_from_db()
    assert (game.status, game.result, game.termination) == ("finished", "1-0", "timeout")
    assert (game.finished_at, to_move(game), game.deadline) == (decided_at, "", None)
    subjects = sorted(
        OutboxEmail.objects.filter(event="game_finished").values_list(
            "recipient__username", "subject"
        )
    )
    assert subjects == [
        ("alice", f"Game #{game.pk} against bob: you won"),
        ("bob", f"Game #{game.pk} against alice: you lost"),
    ]
    assert (
        "you lost (1-0).\nBlue ran out of time: Orange wins (1-0)."
        in OutboxEmail.objects.get(recipient=bob, event="game_finished").body_text
    )


def test_orange_out_of_time_after_moves_loses_with_blue_winning(alice, bob, started):
    game = play_first_move(started, alice, at=T0 + timedelta(hours=1))
    move = str(sorted(game_state(game).legal_choices(), key=str)[0])
    game = services.move_submit(
        game_id=game.pk, user=bob, expected_ply=game.ply, notation=move, now=T0 + timedelta(hours=2)
    ).game
    assert to_move(game) == "orange"
    game_timeouts_decide(now=game.deadline + timedelta(minutes=1))
    game.refresh_from_db()
    assert (game.result, game.termination) == ("0-1", "timeout")


def test_unstarted_game_is_annulled(started):
    assert game_timeouts_decide(now=DEADLINE + timedelta(minutes=1)) == [started.pk]
    started.refresh_from_db()
    assert (started.status, started.result, started.termination) == ("annulled", "", "annulled")
    assert started.finished_at == DEADLINE + timedelta(minutes=1)
    assert RatedResult.objects.count() == 0
    body = OutboxEmail.objects.filter(event="game_finished").first().body_text
    assert (
        "was annulled. It counts for nothing.\nAnnulled: no move was made before the deadline."
        in body
    )


def test_unstarted_game_loses_on_time_when_annulling_is_off(settings, started):
    settings.GAMES_TIMEOUT_ANNUL_UNSTARTED = False
    game_timeouts_decide(now=DEADLINE + timedelta(minutes=1))
    started.refresh_from_db()
    assert (started.status, started.result, started.termination) == ("finished", "0-1", "timeout")


def test_running_twice_decides_once_and_rates_once(alice, bob, started):
    game = play_first_move(started, alice, at=T0 + timedelta(hours=1))
    before = ratings()
    later = game.deadline + timedelta(minutes=1)
    assert game_timeouts_decide(now=later) == [game.pk]
    after_first = ratings()
    assert game_timeouts_decide(now=later + timedelta(minutes=1)) == []

    assert ratings() == after_first
    assert after_first != before
    assert after_first["alice"] > 1500.0 > after_first["bob"]
    assert RatedResult.objects.get().score1 == 1.0
    assert OutboxEmail.objects.filter(event="game_finished").count() == 2


def test_unrated_game_leaves_ratings_alone(alice, bob):
    with time_machine.travel(T0, tick=False):
        game = services.game_start(players=[alice, bob], rated=False)
    play_first_move(game, alice, at=T0)
    game_timeouts_decide(now=T0 + timedelta(days=4))
    game.refresh_from_db()
    assert game.result == "1-0"
    assert RatedResult.objects.count() == 0


def test_games_without_a_clock_never_time_out(alice, bob):
    from games.clock import ClockKind, TimeControl

    with time_machine.travel(T0, tick=False):
        game = services.game_start(
            players=[alice, bob], time_control=TimeControl(kind=ClockKind.NONE)
        )
    assert game.deadline is None
    assert game_timeouts_decide(now=T0 + timedelta(days=3650)) == []


def test_beat_task_decides_with_the_current_time(started, django_capture_on_commit_callbacks):
    from celticsite.celery import app

    app.conf.task_always_eager, previous = True, app.conf.task_always_eager
    try:
        with time_machine.travel(DEADLINE - timedelta(minutes=1), tick=False):
            assert decide_timeouts.apply().get() == []
        with (
            time_machine.travel(DEADLINE + timedelta(minutes=1), tick=False),
            django_capture_on_commit_callbacks(execute=True),
        ):
            assert decide_timeouts.apply().get() == [started.pk]
    finally:
        app.conf.task_always_eager = previous
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.org", "bob@example.org"]
