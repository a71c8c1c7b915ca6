"""The reminder and timeout scans read what can be due, in chunks, with a number of queries
that does not grow with the running games."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Profile
from accounts.services import vacation_start
from accounts.validators import MAX_REMINDER_HOURS
from games import services as game_services
from games.clock import Pauses, TimeControl, running_time, running_time_at_least
from games.models import Game
from games.timeouts import game_timeouts_decide
from notifications.events import REMINDER_WINDOW, deadline_reminders_queue, reminder_window
from notifications.models import OutboxEmail
from tests.accounts.factories import make_user
from tests.notifications.conftest import set_profile

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # a Monday
DAY = timedelta(days=1)


# --- the bounds (pure) ------------------------------------------------------------------------


def test_the_running_time_bound_never_exceeds_the_running_time():
    rng = random.Random(7)
    zones = [ZoneInfo("Europe/Dublin"), ZoneInfo("America/New_York"), ZoneInfo("UTC")]
    for _ in range(500):
        start = T0 + timedelta(hours=rng.randrange(0, 24 * 400))
        end = start + timedelta(hours=rng.randrange(0, 24 * 60))
        zone = rng.choice([None, *zones])
        vacation_start_at = start + timedelta(hours=rng.randrange(-100, 24 * 40))
        vacations = (
            (vacation_start_at, vacation_start_at + timedelta(hours=rng.randrange(1, 500))),
        )
        exact = running_time(
            start, end, Pauses(weekend_zone=zone, vacations=vacations).stream(since=start)
        )
        bound = running_time_at_least(
            start, end, weekends_off=zone is not None, vacations=vacations
        )
        assert bound <= exact, (start, end, zone, vacations)


def test_no_reminder_can_be_due_beyond_the_window_without_a_vacation():
    for hours in (1, 2, 24, 47, 100, MAX_REMINDER_HOURS):
        for weekday in range(7):
            start = T0 + weekday * DAY + timedelta(hours=hours % 24)
            for weekends_off in (False, True):
                end = start + reminder_window(hours, weekends_off=weekends_off)
                assert running_time_at_least(
                    start, end + timedelta(seconds=1), weekends_off=weekends_off
                ) > timedelta(hours=hours), (hours, weekday, weekends_off)
    assert timedelta(days=23, hours=14, minutes=24) == REMINDER_WINDOW


# --- the reminder scan ------------------------------------------------------------------------


_user_numbers = itertools.count()


def _players(count: int) -> list:
    return [make_user(f"p{next(_user_numbers)}") for _ in range(count)]


def _start_games(count: int, **options) -> list[Game]:
    users = _players(count + 1)
    return [
        game_services.game_start(players=[users[index], users[index + 1]], now=T0, **options)
        for index in range(count)
    ]


def _count(action) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as captured:
        outcome = action()
    return len(captured), outcome


@pytest.mark.django_db
@pytest.mark.parametrize("games", [3, 30])
def test_a_run_with_nothing_due_costs_three_queries(games):
    _start_games(games)
    _start_games(2, time_control=TimeControl(days_per_move=3, weekends_off=True))
    queries, reminded = _count(lambda: deadline_reminders_queue(now=T0 + DAY))
    # the vacations not over, the largest reminder chosen, the games with their movers'
    # banks, time zones and choices (no seats, players or profiles built)
    assert (queries, reminded) == (3, [])


@pytest.mark.django_db
@pytest.mark.parametrize("games", [3, 30])
def test_a_run_after_the_reminders_went_out_costs_four_queries(games):
    started = _start_games(games)
    now = T0 + timedelta(days=2, hours=1)  # 23 h left: the 24 h reminder is due
    assert sorted(deadline_reminders_queue(now=now)) == sorted(game.pk for game in started)
    queries, reminded = _count(lambda: deadline_reminders_queue(now=now + timedelta(minutes=5)))
    assert (queries, reminded) == (4, [])  # ... and the reminders already queued


@pytest.mark.django_db
def test_each_due_reminder_costs_the_same_number_of_queries():
    now = T0 + timedelta(days=2, hours=1)
    _start_games(3)
    three, _ = _count(lambda: deadline_reminders_queue(now=now))
    OutboxEmail.objects.all().delete()
    Game.objects.all().delete()
    _start_games(13)
    thirteen, _ = _count(lambda: deadline_reminders_queue(now=now))
    per_reminder = (thirteen - three) / 10
    assert per_reminder == int(per_reminder) and per_reminder <= 12, (three, thirteen)


@pytest.mark.django_db
def test_games_are_read_in_chunks_in_deadline_order_with_ties_by_id():
    started = _start_games(5)  # all five share one deadline
    reminded = deadline_reminders_queue(now=T0 + timedelta(days=2, hours=1), chunk_size=2)
    assert reminded == [game.pk for game in sorted(started, key=lambda game: game.pk)]
    assert OutboxEmail.objects.filter(event="deadline_reminder").count() == 5


@pytest.mark.django_db
def test_a_far_deadline_is_reminded_when_a_vacation_makes_the_clock_short():
    alice, bob = make_user("alice"), make_user("bob")
    set_profile(alice, reminder_hours=[MAX_REMINDER_HOURS])  # 14 days
    game = game_services.game_start(
        players=[alice, bob], time_control=TimeControl(days_per_move=30), now=T0
    )
    vacation_start(user=alice, days=20, now=T0 + 16 * DAY)
    game.refresh_from_db()
    assert game.deadline == T0 + 50 * DAY
    now = T0 + 17 * DAY  # 33 days to the deadline, but only 14 of them on the clock
    assert game.deadline - now > REMINDER_WINDOW
    assert deadline_reminders_queue(now=now) == [game.pk]


@pytest.mark.django_db
def test_a_far_deadline_without_a_vacation_is_not_due():
    alice, bob = make_user("alice"), make_user("bob")
    set_profile(alice, reminder_hours=[MAX_REMINDER_HOURS])
    game_services.game_start(
        players=[alice, bob], time_control=TimeControl(days_per_move=60), now=T0
    )
    assert deadline_reminders_queue(now=T0 + 10 * DAY) == []
    assert deadline_reminders_queue(now=T0 + 46 * DAY) != []  # 14 days left


# --- the timeout scan -------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("games", [3, 30])
def test_a_timeout_run_with_nothing_overdue_is_one_query(games):
    _start_games(games)
    assert _count(lambda: game_timeouts_decide(now=T0 + DAY)) == (1, [])


@pytest.mark.django_db
def test_overdue_games_are_decided_in_chunks():
    started = _start_games(5)  # one shared deadline; nobody moved: annulled
    decided = game_timeouts_decide(now=T0 + 4 * DAY, chunk_size=2)
    assert decided == sorted(game.pk for game in started)
    assert set(Game.objects.values_list("status", flat=True)) == {Game.Status.ANNULLED}
    assert game_timeouts_decide(now=T0 + 4 * DAY, chunk_size=2) == []


@pytest.mark.django_db
def test_chunks_cost_no_query_of_their_own_when_nothing_is_due():
    _start_games(5)
    queries, reminded = _count(lambda: deadline_reminders_queue(now=T0 + DAY, chunk_size=2))
    assert (queries, reminded) == (3, [])  # three chunks (2, 2 and 1 games), one stream


@pytest.mark.django_db
def test_the_games_of_players_on_vacation_are_looked_up_in_batches(monkeypatch):
    monkeypatch.setattr("notifications.events.VACATION_BATCH", 2)
    movers = _players(3)
    games = []
    for mover in movers:
        set_profile(mover, reminder_hours=[MAX_REMINDER_HOURS])
        games.append(
            game_services.game_start(
                players=[mover, *_players(1)],
                time_control=TimeControl(days_per_move=30),
                now=T0,
            )
        )
        vacation_start(user=mover, days=20, now=T0 + 16 * DAY)
    now = T0 + 17 * DAY  # every deadline is beyond the window, but due on the clock
    assert sorted(deadline_reminders_queue(now=now)) == sorted(game.pk for game in games)
    queries, reminded = _count(lambda: deadline_reminders_queue(now=now + timedelta(minutes=5)))
    # the vacations, the largest reminder, two batches of movers on vacation, the games with
    # their movers' choices, and the reminders already queued
    assert (queries, reminded) == (6, [])


@pytest.mark.django_db
def test_the_games_of_players_on_vacation_are_one_join_not_an_exists_per_player():
    movers = _players(12)
    for mover in movers:
        game_services.game_start(players=[mover, *_players(1)], now=T0)
        vacation_start(user=mover, days=3, now=T0 + DAY)
    with CaptureQueriesContext(connection) as captured:
        deadline_reminders_queue(now=T0 + DAY + timedelta(minutes=5))
    lookups = [q["sql"] for q in captured.captured_queries if 'U0."user_id" IN' in q["sql"]]
    # PostgreSQL tests an EXISTS per player on every game in progress: minutes for 200
    # players on vacation among 50,000 games, against milliseconds for the join
    assert len(lookups) == 1
    assert "EXISTS" not in lookups[0].upper()


@pytest.mark.django_db
def test_the_scan_reads_the_movers_choices_from_the_game_row_without_building_seats():
    started = _start_games(3)
    mover = started[0].user_to_move()
    set_profile(mover, reminder_hours=[48], time_zone="Asia/Tokyo")
    (game,) = Game.objects.with_mover().filter(pk=started[0].pk)
    seat = game.seat_row(game.seat_to_move)

    assert (game.mover_user_id, game.mover_time_left) == (mover.pk, seat.time_left)
    assert (game.mover_time_zone, game.mover_reminder_hours) == ("Asia/Tokyo", [48])
    Profile.objects.filter(user=mover).delete()  # a player who never saved a profile
    (game,) = Game.objects.with_mover().filter(pk=started[0].pk)
    assert (game.mover_time_zone, game.mover_reminder_hours) == (None, None)
