"""Time controls: the pure arithmetic of games.clock, and the clocks a move stores."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games import errors, services
from games.clock import ClockKind, TimeControl
from games.models import Game
from tests.games.conftest import API, submit

DAY = timedelta(days=1)
START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


# --- pure ----------------------------------------------------------------------------------


def test_per_move_starts_with_the_days_per_move_and_resets_after_each_move():
    tc = TimeControl(kind=ClockKind.PER_MOVE, days_per_move=5)
    assert tc.initial == 5 * DAY
    assert tc.after_move(remaining=5 * DAY, used=4 * DAY) == 5 * DAY
    assert tc.describe() == "5 days per move"
    assert TimeControl(kind=ClockKind.PER_MOVE, days_per_move=1).describe() == "1 day per move"


def test_fischer_spends_the_bank_and_adds_the_increment():
    tc = TimeControl(kind=ClockKind.FISCHER, bank_days=10, increment_days=2, max_days=20)
    assert tc.initial == 10 * DAY
    after = tc.after_move(remaining=10 * DAY, used=timedelta(days=3, hours=6))
    assert after == timedelta(days=8, hours=18)
    assert tc.describe() == "10 days + 2 per move (at most 20)"


def test_fischer_bank_is_capped_at_max_days():
    tc = TimeControl(kind=ClockKind.FISCHER, bank_days=10, increment_days=5, max_days=12)
    assert tc.after_move(remaining=10 * DAY, used=timedelta(hours=1)) == 12 * DAY


def test_no_time_limit_has_no_clock():
    tc = TimeControl(kind=ClockKind.NONE)
    assert tc.initial is None
    assert tc.after_move(remaining=None, used=100 * DAY) is None
    assert tc.describe() == "no time limit"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"kind": ClockKind.PER_MOVE, "days_per_move": 0}, "days_per_move is 0: expected 1 to 60"),
        ({"kind": ClockKind.PER_MOVE, "days_per_move": 61}, "days_per_move is 61"),
        ({"kind": ClockKind.FISCHER, "bank_days": 0}, "bank_days is 0: expected 1 to 120"),
        ({"kind": ClockKind.FISCHER, "increment_days": 31}, "increment_days is 31"),
        (
            {"kind": ClockKind.FISCHER, "bank_days": 10, "max_days": 9},
            "max_days is 9: expected at least bank_days (10)",
        ),
    ],
)
def test_invalid_time_controls_say_which_field_is_wrong(fields, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        TimeControl(**fields)


def test_fields_of_other_kinds_are_not_checked():
    assert TimeControl(kind=ClockKind.NONE, days_per_move=0, bank_days=0).initial is None


# --- stored clocks ---------------------------------------------------------------------------


@pytest.fixture
def fischer_game(alice, bob) -> Game:
    tc = TimeControl(kind=ClockKind.FISCHER, bank_days=10, increment_days=2, max_days=11)
    return services.game_start(players=[alice, bob], time_control=tc, now=START)


def test_a_new_game_starts_both_clocks_with_the_bank(fischer_game):
    assert fischer_game.seat_time_left(1) == 10 * DAY
    assert fischer_game.seat_time_left(2) == 10 * DAY
    assert fischer_game.turn_started_at == START
    assert fischer_game.deadline == START + 10 * DAY


def test_a_move_stores_the_movers_bank_and_starts_the_opponents_clock(fischer_game, alice, bob):
    moved_at = START + timedelta(days=1, hours=12)
    services.move_submit(
        game_id=fischer_game.pk, user=alice, expected_ply=0, notation="d5 ESW", now=moved_at
    )
    game = Game.objects.get(pk=fischer_game.pk)
    assert game.seat_time_left(1) == timedelta(days=10.5)  # 10 - 1.5 + 2
    assert game.seat_time_left(2) == 10 * DAY
    assert game.turn_started_at == moved_at
    assert game.deadline == moved_at + 10 * DAY

    blue_moved_at = moved_at + timedelta(hours=1)
    services.move_submit(
        game_id=game.pk, user=bob, expected_ply=1, notation="c5 ESW", now=blue_moved_at
    )
    game.refresh_from_db()
    assert game.seat_time_left(2) == 11 * DAY  # 10 - 1h + 2, capped at 11
    assert game.deadline == blue_moved_at + game.seat_time_left(1)


def test_per_move_clock_through_the_api_with_time_moving(alice, bob, alice_api):
    with time_machine.travel(START, tick=False) as traveller:
        game = services.game_start(players=[alice, bob])
        traveller.shift(timedelta(days=2))
        response = submit(alice_api, game.pk, 0, "d5 ESW")
        assert response.status_code == 201
        body = response.json()["game"]
        assert body["deadline"] == "2026-03-06T12:00:00Z"  # moved on day 2, then three days
        assert body["blue_seconds_left"] == 3 * 86400
        assert body["orange_seconds_left"] == 3 * 86400
        traveller.shift(timedelta(hours=1))
        body = alice_api.get(f"{API}/games/{game.pk}/").json()
        assert body["blue_seconds_left"] == 3 * 86400 - 3600  # Blue's clock is running


def test_a_move_after_the_deadline_is_refused_and_changes_nothing(game, alice, alice_api):
    with time_machine.travel(game.deadline + timedelta(seconds=1), tick=False):
        response = submit(alice_api, game.pk, 0, "d5 ESW")
    assert response.status_code == 409
    assert response.json()["code"] == "time_expired"
    assert Game.objects.get(pk=game.pk).ply == 0
    assert not game.moves.exists()


def test_time_expired_is_a_conflict_from_the_service(game, alice):
    with pytest.raises(errors.GameNotActive) as caught:
        services.move_submit(
            game_id=game.pk,
            user=alice,
            expected_ply=0,
            notation="d5 ESW",
            now=game.deadline + timedelta(minutes=1),
        )
    assert caught.value.code == "time_expired"
    assert caught.value.status == 409
