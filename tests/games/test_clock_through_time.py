"""Clocks driven through time: weekends off in the player's zone, vacations, Fischer banks,
timeouts, and what the API and pages show."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.urls import reverse

from accounts.services import profile_update, vacation_start
from games import services
from games.clock import ClockKind, TimeControl
from games.models import Game
from games.timeouts import game_timeouts_decide
from tests.games.conftest import API

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)
FRIDAY = datetime(2026, 3, 6, 9, 0, tzinfo=UTC)  # Friday 6 March 2026, 09:00 UTC
MONDAY = datetime(2026, 3, 9, 0, 0, tzinfo=UTC)


def weekend_game(orange, blue, *, now=FRIDAY, **tc: object) -> Game:
    control = TimeControl(days_per_move=1, weekends_off=True, **tc)
    return services.game_start(players=[orange, blue], time_control=control, now=now)


def test_weekends_off_game_is_not_decided_during_the_weekend(alice, bob):
    game = weekend_game(alice, bob)
    services.move_submit(game_id=game.pk, user=alice, expected_ply=0, notation="d5 ESW", now=FRIDAY)
    game.refresh_from_db()
    deadline = MONDAY + timedelta(hours=9)  # 15 h on Friday, 9 h on Monday
    assert game.deadline == deadline
    for moment in (FRIDAY + DAY, FRIDAY + 2 * DAY, deadline):  # Saturday, Sunday, the deadline
        assert game_timeouts_decide(now=moment) == []
    assert game_timeouts_decide(now=deadline + timedelta(seconds=59)) == [game.pk]
    game.refresh_from_db()
    assert (game.result, game.termination) == ("1-0", "timeout")


def test_weekends_follow_the_time_zone_of_the_player_to_move(alice, bob):
    profile_update(user=alice, time_zone="Pacific/Auckland")  # NZDT: weekend Fri 11:00 UTC on
    game = weekend_game(alice, bob)
    # 2 h before Auckland's weekend, then from Sunday 11:00 UTC the other 22 h.
    assert game.deadline == datetime(2026, 3, 9, 9, 0, tzinfo=UTC)
    assert game_timeouts_decide(now=datetime(2026, 3, 8, 12, tzinfo=UTC)) == []


def test_a_vacation_stops_the_clock_until_it_ends_then_the_game_times_out(alice, bob):
    game = services.game_start(players=[alice, bob], now=FRIDAY)  # 3 days per move
    services.move_submit(game_id=game.pk, user=alice, expected_ply=0, notation="d5 ESW", now=FRIDAY)
    vacation_start(user=bob, days=4, now=FRIDAY + DAY)
    game.refresh_from_db()
    deadline = FRIDAY + 7 * DAY
    assert game.deadline == deadline
    assert game_timeouts_decide(now=FRIDAY + 3 * DAY + timedelta(minutes=1)) == []
    assert game_timeouts_decide(now=deadline) == []
    assert game_timeouts_decide(now=deadline + timedelta(seconds=30)) == [game.pk]
    game.refresh_from_db()
    assert (game.result, game.termination) == ("1-0", "timeout")


def test_a_fischer_bank_spends_only_running_time(alice, bob):
    tc = {"kind": ClockKind.FISCHER, "bank_days": 2, "increment_days": 1, "max_days": 5}
    game = weekend_game(alice, bob, **tc)  # bank 2 days from Friday 09:00
    assert game.deadline == MONDAY + timedelta(days=1, hours=9)
    moved_at = MONDAY + timedelta(hours=3)  # 15 h on Friday + 3 h on Monday used
    services.move_submit(
        game_id=game.pk, user=alice, expected_ply=0, notation="d5 ESW", now=moved_at
    )
    game.refresh_from_db()
    assert game.seat_time_left(1) == timedelta(days=2, hours=6)  # 2 d - 18 h + 1 d


def test_the_api_shows_a_stopped_clock_and_the_running_time_left(alice, bob, alice_api):
    game = weekend_game(alice, bob)
    with time_machine.travel(FRIDAY + DAY, tick=False):  # Saturday 09:00 UTC
        body = alice_api.get(f"{API}/games/{game.pk}/").json()
    assert body["clock"] == {
        "seat": 1,
        "side": "orange",
        "seconds_left": 9 * 3600,
        "deadline": "2026-03-09T09:00:00Z",
        "paused": "weekend",
        "resumes_at": "2026-03-09T00:00:00Z",
    }
    assert body["orange_seconds_left"] == 9 * 3600
    assert body["blue_seconds_left"] == 86400
    assert body["time_control"]["weekends_off"] is True
    assert body["time_control"]["description"] == "1 day per move, weekends off"
    with time_machine.travel(MONDAY + timedelta(hours=1), tick=False):
        running = alice_api.get(f"{API}/games/{game.pk}/").json()["clock"]
    assert (running["seconds_left"], running["paused"], running["resumes_at"]) == (
        8 * 3600,
        None,
        None,
    )


def test_a_finished_game_or_one_without_limit_has_no_clock(alice, bob, alice_api):
    unlimited = services.game_start(
        players=[alice, bob], time_control=TimeControl(kind=ClockKind.NONE)
    )
    assert alice_api.get(f"{API}/games/{unlimited.pk}/").json()["clock"] is None
    services.game_resign(game_id=unlimited.pk, user=alice)
    assert alice_api.get(f"{API}/games/{unlimited.pk}/").json()["clock"] is None


def test_a_challenge_carries_weekends_off_and_vacations_into_the_game(alice_api, bob_api):
    response = alice_api.post(
        f"{API}/challenges/",
        {"time_control": {"kind": "per_move", "weekends_off": True, "vacation_allowed": False}},
        format="json",
    )
    assert response.status_code == 201
    assert response.json()["time_control"]["description"] == (
        "3 days per move, weekends off, no vacations"
    )
    accepted = bob_api.post(f"{API}/challenges/{response.json()['id']}/accept/")
    assert accepted.status_code == 201, accepted.json()
    game = Game.objects.get()
    assert (game.weekends_off, game.vacation_allowed) == (True, False)


def test_a_challenge_with_a_non_boolean_flag_is_refused(alice_api):
    response = alice_api.post(
        f"{API}/challenges/", {"time_control": {"weekends_off": "sometimes"}}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"] == {
        "time_control": {"weekends_off": ["Expected true or false, not a string."]}
    }


def test_the_challenge_form_sets_the_flags(client, alice):
    client.force_login(alice)
    form = {
        "colour": "random",
        "clock_kind": "per_move",
        "days_per_move": 2,
        "bank_days": 10,
        "increment_days": 2,
        "max_days": 20,
        "weekends_off": "on",
    }
    response = client.post(reverse("games:challenges"), form)
    assert response.status_code == 302
    challenge = alice.challenges_sent.get()
    assert (challenge.weekends_off, challenge.vacation_allowed) == (True, False)


def test_pages_say_the_clock_is_stopped_and_until_when(client, alice, bob):
    game = weekend_game(alice, bob)
    vacation_start(user=alice, days=1, now=FRIDAY + timedelta(hours=1))
    client.force_login(alice)
    with time_machine.travel(FRIDAY + timedelta(hours=2), tick=False):
        page = client.get(reverse("games:game", args=[game.pk])).content.decode()
        home = client.get(reverse("games:home")).content.decode()
    # On vacation until Saturday 10:00, then the weekend: the clock runs again on Monday.
    for html in (page, home):
        assert "clock stopped: on vacation until Mon 9 Mar, 00:00 UTC" in html
    assert "23 h 0 min</strong> left" in page  # 1 h was used on Friday before the vacation
    assert "Mon 9 Mar 2026, 23:00 UTC" in home  # the deadline: 23 h after Monday 00:00
