"""The pure clock maths of games.clock: weekends in the player's zone, vacations, running
time and deadlines. No database."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.clock import (
    ClockKind,
    PauseReason,
    Pauses,
    TimeControl,
    deadline_after,
    merged,
    pause_at,
    read_clock,
    running_time,
    weekends,
)

DAY = timedelta(days=1)
HOUR = timedelta(hours=1)
FRIDAY_NOON = datetime(2026, 3, 6, 12, 0, tzinfo=UTC)  # Friday 6 March 2026
NEW_YORK = ZoneInfo("America/New_York")
AUCKLAND = ZoneInfo("Pacific/Auckland")


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def first(stream, n=1):
    return list(itertools.islice(stream, n))


# --- weekends --------------------------------------------------------------------------------


def test_utc_weekends_run_from_saturday_midnight_to_monday_midnight():
    assert first(weekends(ZoneInfo("UTC"), since=FRIDAY_NOON), 2) == [
        (utc(2026, 3, 7), utc(2026, 3, 9)),
        (utc(2026, 3, 14), utc(2026, 3, 16)),
    ]


def test_the_weekend_in_progress_is_included_and_a_finished_one_is_not():
    zone = ZoneInfo("UTC")
    assert first(weekends(zone, since=utc(2026, 3, 8, 23)))[0] == (utc(2026, 3, 7), utc(2026, 3, 9))
    assert first(weekends(zone, since=utc(2026, 3, 9)))[0] == (utc(2026, 3, 14), utc(2026, 3, 16))


def test_auckland_weekend_starts_on_friday_in_utc():
    # NZDT is UTC+13 in March: Saturday 00:00 there is Friday 11:00 UTC.
    assert first(weekends(AUCKLAND, since=FRIDAY_NOON - DAY)) == [
        (utc(2026, 3, 6, 11), utc(2026, 3, 8, 11))
    ]


def test_new_york_weekend_with_the_spring_change_lasts_47_hours():
    # Clocks go forward on Sunday 8 March 2026 at 02:00: Sat 00:00 EST to Mon 00:00 EDT.
    [(start, end)] = first(weekends(NEW_YORK, since=FRIDAY_NOON))
    assert (start, end) == (utc(2026, 3, 7, 5), utc(2026, 3, 9, 4))
    assert end - start == timedelta(hours=47)


def test_auckland_weekend_with_the_autumn_change_lasts_49_hours():
    # Clocks go back on Sunday 5 April 2026 at 03:00: Sat 00:00 NZDT to Mon 00:00 NZST.
    [(start, end)] = first(weekends(AUCKLAND, since=utc(2026, 4, 2)))
    assert (start, end) == (utc(2026, 4, 3, 11), utc(2026, 4, 5, 12))
    assert end - start == timedelta(hours=49)


def test_a_dst_week_still_has_five_days_of_running_time():
    monday = datetime(2026, 3, 2, tzinfo=NEW_YORK)
    next_monday = datetime(2026, 3, 9, tzinfo=NEW_YORK)
    pauses = Pauses(weekend_zone=NEW_YORK).stream(since=monday)
    assert running_time(monday, next_monday, pauses) == 5 * DAY


def test_naive_datetimes_are_refused():
    with pytest.raises(ValueError, match="has no time zone: expected an aware datetime"):
        running_time(datetime(2026, 3, 6), FRIDAY_NOON, [])


# --- merging, running time, deadlines ------------------------------------------------------


def test_overlapping_and_touching_pauses_merge():
    a = (utc(2026, 3, 1), utc(2026, 3, 3))
    b = (utc(2026, 3, 2), utc(2026, 3, 4))
    c = (utc(2026, 3, 4), utc(2026, 3, 5))
    d = (utc(2026, 3, 10), utc(2026, 3, 11))
    assert list(merged([a, c], [b, d])) == [(utc(2026, 3, 1), utc(2026, 3, 5)), d]


def test_a_one_day_move_on_friday_noon_is_due_on_monday_noon_with_weekends_off():
    pauses = Pauses(weekend_zone=ZoneInfo("UTC"))
    due = deadline_after(FRIDAY_NOON, DAY, pauses.stream(since=FRIDAY_NOON))
    assert due == utc(2026, 3, 9, 12)
    assert running_time(FRIDAY_NOON, due, pauses.stream(since=FRIDAY_NOON)) == DAY


def test_a_turn_started_on_sunday_counts_from_monday_midnight():
    sunday = utc(2026, 3, 8, 15)
    pauses = Pauses(weekend_zone=ZoneInfo("UTC")).stream(since=sunday)
    assert deadline_after(sunday, 3 * DAY, pauses) == utc(2026, 3, 12)


def test_a_budget_ending_exactly_at_a_weekend_is_due_at_its_start():
    pauses = Pauses(weekend_zone=ZoneInfo("UTC")).stream(since=FRIDAY_NOON)
    assert deadline_after(FRIDAY_NOON, 12 * HOUR, pauses) == utc(2026, 3, 7)


def test_a_vacation_adds_its_length_and_merges_with_the_weekend():
    # Vacation Thursday 5 March 18:00 to Saturday 7 March 06:00: then the weekend to Monday.
    vacation = (utc(2026, 3, 5, 18), utc(2026, 3, 7, 6))
    start = utc(2026, 3, 5, 12)
    pauses = Pauses(weekend_zone=ZoneInfo("UTC"), vacations=(vacation,))
    # 6 h on Thursday, then nothing until Monday 00:00, then 18 h.
    assert deadline_after(start, DAY, pauses.stream(since=start)) == utc(2026, 3, 9, 18)
    without_weekends = Pauses(vacations=(vacation,))
    # 6 h on Thursday, then 18 h from Saturday 06:00.
    assert deadline_after(start, DAY, without_weekends.stream(since=start)) == utc(2026, 3, 8)


def test_vacations_that_ended_before_since_are_left_out_of_the_stream():
    old = (utc(2026, 1, 1), utc(2026, 1, 5))
    assert list(Pauses(vacations=(old,)).stream(since=FRIDAY_NOON)) == []


def test_running_time_is_zero_when_the_end_is_not_later():
    assert running_time(FRIDAY_NOON, FRIDAY_NOON - HOUR, []) == timedelta(0)


def test_pause_at_includes_the_start_and_excludes_the_end():
    pause = (utc(2026, 3, 7), utc(2026, 3, 9))
    assert pause_at(utc(2026, 3, 7), [pause]) == pause
    assert pause_at(utc(2026, 3, 9), [pause]) is None
    assert pause_at(utc(2026, 3, 6), [pause]) is None


def test_reading_the_clock_during_a_weekend_says_weekend_until_monday():
    pauses = Pauses(weekend_zone=ZoneInfo("Europe/Dublin"))
    deadline = utc(2026, 3, 10, 12)
    reading = read_clock(deadline=deadline, now=utc(2026, 3, 7, 10), pauses=pauses)
    assert reading.paused is PauseReason.WEEKEND
    assert reading.resumes_at == utc(2026, 3, 9)
    assert reading.time_left == timedelta(days=1, hours=12)
    running = read_clock(deadline=deadline, now=utc(2026, 3, 9, 12), pauses=pauses)
    assert (running.paused, running.resumes_at) == (None, None)
    assert running.time_left == DAY


def test_a_vacation_running_into_a_weekend_resumes_after_the_weekend():
    vacation = (utc(2026, 3, 4), utc(2026, 3, 7, 12))
    pauses = Pauses(weekend_zone=ZoneInfo("UTC"), vacations=(vacation,))
    reading = read_clock(deadline=utc(2026, 3, 20), now=utc(2026, 3, 5), pauses=pauses)
    assert reading.paused is PauseReason.VACATION
    assert reading.resumes_at == utc(2026, 3, 9)


# --- the time control -------------------------------------------------------------------------


def test_describe_names_weekends_off_and_no_vacations():
    tc = TimeControl(kind=ClockKind.PER_MOVE, days_per_move=3, weekends_off=True)
    assert tc.describe() == "3 days per move, weekends off"
    fischer = TimeControl(kind=ClockKind.FISCHER, vacation_allowed=False)
    assert fischer.describe() == "10 days + 2 per move (at most 20), no vacations"
    assert TimeControl(kind=ClockKind.NONE, weekends_off=True).describe() == "no time limit"


# --- properties -------------------------------------------------------------------------------

ZONES = [None, "UTC", "Europe/Dublin", "America/New_York", "Pacific/Auckland", "Asia/Kolkata"]

starts = st.datetimes(
    min_value=datetime(2024, 1, 1), max_value=datetime(2030, 12, 31), timezones=st.just(UTC)
)
budgets = st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=60))
vacation_lists = st.lists(
    st.tuples(
        st.timedeltas(min_value=-10 * DAY, max_value=60 * DAY),
        st.timedeltas(min_value=timedelta(minutes=1), max_value=30 * DAY),
    ),
    max_size=4,
)


def make_pauses(zone: str | None, start: datetime, vacations) -> Pauses:
    return Pauses(
        weekend_zone=ZoneInfo(zone) if zone else None,
        vacations=tuple((start + offset, start + offset + length) for offset, length in vacations),
    )


@settings(max_examples=300, deadline=None)
@given(start=starts, budget=budgets, zone=st.sampled_from(ZONES), vacations=vacation_lists)
def test_the_deadline_is_the_first_moment_the_budget_has_run(start, budget, zone, vacations):
    pauses = make_pauses(zone, start, vacations)
    due = deadline_after(start, budget, pauses.stream(since=start))
    assert due >= start + budget
    assert running_time(start, due, pauses.stream(since=start)) == budget
    if budget:
        earlier = due - timedelta(microseconds=1)
        assert running_time(start, earlier, pauses.stream(since=start)) < budget


@settings(max_examples=300, deadline=None)
@given(
    start=starts,
    first_gap=budgets,
    second_gap=budgets,
    zone=st.sampled_from(ZONES),
    vacations=vacation_lists,
)
def test_running_time_adds_up_and_never_exceeds_wall_time(
    start, first_gap, second_gap, zone, vacations
):
    pauses = make_pauses(zone, start, vacations)
    middle, end = start + first_gap, start + first_gap + second_gap
    whole = running_time(start, end, pauses.stream(since=start))
    parts = running_time(start, middle, pauses.stream(since=start)) + running_time(
        middle, end, pauses.stream(since=middle)
    )
    assert whole == parts
    assert timedelta(0) <= whole <= end - start


def test_the_clock_maths_imports_no_django():
    import ast
    from pathlib import Path

    import games.clock

    tree = ast.parse(Path(games.clock.__file__).read_text())
    imported = {
        alias.name if isinstance(node, ast.Import) else node.module or ""
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert not {name for name in imported if name.split(".")[0] in {"django", "accounts"}}
    assert "zoneinfo" in imported
