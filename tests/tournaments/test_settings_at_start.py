"""Rounds on dates must start before the event's end: checked at creation with the most
players the event takes, and again at the start with the players who came (a double round
robin of n players has 2(n - 1) rounds, a Swiss its number)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from tests.accounts.factories import make_user
from tests.tournaments.conftest import register_all
from tournaments import services
from tournaments.errors import InvalidSettings
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
ON_DATES = {"round_start_mode": "on_dates", "round_interval_days": 7}


def _refused(make_tournament, **settings) -> dict[str, str]:
    with pytest.raises(InvalidSettings) as refused:
        make_tournament(**settings)
    return refused.value.extra["errors"]


@time_machine.travel(T0, tick=False)
def test_rounds_that_would_start_after_the_end_are_refused_at_creation(make_tournament):
    end = {"starts_at": T0, "start_mode": "at_date", "ends_at": T0 + timedelta(days=30)}

    double = _refused(make_tournament, cycles=2, max_players=4, **ON_DATES, **end)
    swiss = _refused(make_tournament, format="swiss", rounds_planned=6, **ON_DATES, **end)
    fits = make_tournament(max_players=4, **ON_DATES, **end)  # 3 rounds: days 0, 7, 14

    assert double == {
        "ends_at": "With 4 players the event has 6 rounds; the last would start on "
        "2026-06-05 12:00 UTC, not before the end (2026-05-31 12:00 UTC): set a later end "
        "or fewer days between rounds."
    }
    assert set(swiss) == {"ends_at"} and "has 6 rounds" in swiss["ends_at"]
    assert fits.status == Tournament.Status.REGISTRATION


def test_the_start_checks_again_with_the_players_who_came(make_tournament, organiser, commit):
    """No maximum: creation could only check the minimum; 6 players make 5 rounds."""
    with time_machine.travel(T0, tick=False):
        event = make_tournament(**ON_DATES, ends_at=T0 + timedelta(days=25))
        register_all(event, [make_user(f"r{i}") for i in range(1, 7)])

        with pytest.raises(InvalidSettings) as refused:
            services.tournament_start(tournament_id=event.pk, actor=organiser)

    assert set(refused.value.extra["errors"]) == {"ends_at"}
    assert "With 6 players the event has 5 rounds" in refused.value.extra["errors"]["ends_at"]
    event.refresh_from_db()
    assert event.status == Tournament.Status.REGISTRATION  # it can be changed and started
    assert not Round.objects.filter(tournament=event).exists()


def test_an_automatic_start_that_does_not_fit_cancels_the_event(make_tournament, commit):
    starts_at = T0 + timedelta(days=1)
    with time_machine.travel(T0, tick=False):
        event = make_tournament(
            start_mode="at_date", starts_at=starts_at, ends_at=T0 + timedelta(days=20), **ON_DATES
        )
        register_all(event, [make_user(f"a{i}") for i in range(1, 6)])

    with commit():
        services.tournaments_advance(now=starts_at)

    event.refresh_from_db()
    assert event.status == Tournament.Status.CANCELLED
    assert event.status_note.startswith(
        f"{event.name} cannot start: With 5 players the event has 5 rounds;"
    )


@time_machine.travel(T0, tick=False)
def test_rounds_far_beyond_any_calendar_are_refused_not_an_error(make_tournament):
    """32,767 players a year apart: the last round's date does not exist."""
    errors = _refused(
        make_tournament,
        max_players=32767,
        round_start_mode="on_dates",
        round_interval_days=365,
        starts_at=T0,
        ends_at=T0 + timedelta(days=30),
    )

    assert errors["ends_at"].startswith(
        "With 32767 players the event has 32767 rounds; the last would start after the "
        "year 9999, not before the end"
    )
