"""Deadline reminders at the hours each player chooses, on the running clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games import services as game_services
from games.clock import TimeControl
from notifications.events import deadline_reminders_queue
from notifications.models import OutboxEmail
from tests.notifications.conftest import game_start_quietly, set_profile

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # Monday; a 3-day move is due Thursday 09:00
HOUR = timedelta(hours=1)


def reminders() -> list[str]:
    return sorted(
        OutboxEmail.objects.filter(event="deadline_reminder").values_list("dedupe_key", flat=True)
    )


@pytest.fixture
def started(alice, bob):
    return game_start_quietly(players=[alice, bob], now=T0)


def test_each_chosen_time_is_reminded_once(alice, started):
    deadline = T0 + timedelta(days=3)
    assert deadline_reminders_queue(now=deadline - 24 * HOUR - timedelta(seconds=1)) == []
    assert deadline_reminders_queue(now=deadline - 24 * HOUR) == [started.pk]
    assert deadline_reminders_queue(now=deadline - 10 * HOUR) == []  # 24 h sent, 2 h not due
    assert deadline_reminders_queue(now=deadline - 2 * HOUR + timedelta(minutes=3)) == [started.pk]
    assert deadline_reminders_queue(now=deadline - HOUR) == []
    key = f"deadline_reminder:{started.pk}:20260302T090000.000000Z:{alice.pk}"
    assert reminders() == [f"{key}:24h", f"{key}:2h"]


def test_a_late_run_sends_only_the_smallest_due_reminder(alice, started):
    assert deadline_reminders_queue(now=T0 + timedelta(days=3) - HOUR) == [started.pk]
    assert reminders() == [f"deadline_reminder:{started.pk}:20260302T090000.000000Z:{alice.pk}:2h"]
    email = OutboxEmail.objects.get()
    assert email.subject.startswith(f"1 h 0 min left in game #{started.pk} against bob [celtic:")
    token = email.subject.rsplit("[celtic:", 1)[1].rstrip("]")
    assert email.reply_to == f"moves+{token}@celtic.localhost"  # a reply to it can move
    assert "You can move by replying to this email" in email.body_text
    assert "You have 1 h 0 min left on your clock" in email.body_text
    assert "Deadline: Thu 5 Mar 2026, 09:00 GMT." in email.body_text  # alice: Europe/Dublin


def test_no_reminders_when_the_player_chose_none(alice, started):
    set_profile(alice, reminder_hours=[])
    assert deadline_reminders_queue(now=T0 + timedelta(days=3) - HOUR) == []
    assert reminders() == []


def test_a_turn_shorter_than_the_reminder_time_gets_none_for_it(alice, bob):
    set_profile(alice, reminder_hours=[72, 48])
    game = game_start_quietly(
        players=[alice, bob], time_control=TimeControl(days_per_move=2), now=T0
    )
    # A 2-day turn never gets the 72 h or 48 h reminder: it was never longer than either.
    assert deadline_reminders_queue(now=T0) == []
    assert deadline_reminders_queue(now=T0 + timedelta(days=1)) == []
    set_profile(alice, reminder_hours=[47])
    assert deadline_reminders_queue(now=T0 + timedelta(hours=1)) == [game.pk]


def test_the_next_turn_is_reminded_again(alice, bob, started):
    deadline_reminders_queue(now=T0 + timedelta(days=2, hours=10))
    game_services.move_submit(
        game_id=started.pk, user=alice, expected_ply=0, notation="d5 ESW", now=T0 + 2 * 24 * HOUR
    )
    bobs_deadline = T0 + timedelta(days=5)
    assert deadline_reminders_queue(now=bobs_deadline - 20 * HOUR) == [started.pk]
    assert reminders() == [  # each turn named by when it began
        f"deadline_reminder:{started.pk}:20260302T090000.000000Z:{alice.pk}:24h",
        f"deadline_reminder:{started.pk}:20260304T090000.000000Z:{bob.pk}:24h",
    ]


def test_reminders_count_running_time_not_the_weekend(alice, bob):
    friday = datetime(2026, 3, 6, 9, 0, tzinfo=UTC)
    game = game_start_quietly(
        players=[alice, bob],
        time_control=TimeControl(days_per_move=2, weekends_off=True),
        now=friday,
    )
    assert game.deadline == datetime(2026, 3, 10, 9, 0, tzinfo=UTC)  # Tuesday 09:00
    # Sunday noon: 33 h of clock left (Monday and Tuesday morning), so no 24 h reminder yet,
    # although the deadline is less than two days away.
    assert deadline_reminders_queue(now=datetime(2026, 3, 8, 12, tzinfo=UTC)) == []
    with time_machine.travel(datetime(2026, 3, 9, 9, 0, tzinfo=UTC), tick=False):
        assert deadline_reminders_queue(now=datetime(2026, 3, 9, 9, 0, tzinfo=UTC)) == [game.pk]
    assert "You have 1 d 0 h left" in OutboxEmail.objects.get().body_text


def test_a_game_past_its_deadline_is_left_to_the_timeout_task(alice, started):
    assert deadline_reminders_queue(now=T0 + timedelta(days=3, seconds=1)) == []
