"""Vacations: the yearly allowance, starting and ending one, the API and the profile page, and
the deadlines that move with them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
import time_machine
from django.urls import reverse

from accounts.models import Vacation
from accounts.selectors import vacation_allowance
from accounts.services import profile_update, vacation_end, vacation_start
from celticsite.errors import Conflict, DomainError
from games import services as game_services
from games.clock import TimeControl
from games.models import Game
from tests.accounts.factories import make_user

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # a Monday
VACATION = "/api/v1/accounts/me/vacation/"


@pytest.fixture
def carol():
    return make_user("carol")


# --- allowance and services ---------------------------------------------------------------


def test_a_new_player_has_the_configured_days(settings, alice):
    settings.CELTIC_VACATION_DAYS_PER_YEAR = 12
    allowance = vacation_allowance(user=alice, now=T0)
    assert (allowance.year, allowance.days_per_year) == (2026, 12)
    assert (allowance.used, allowance.left, allowance.current) == (timedelta(0), 12 * DAY, None)


def test_starting_a_vacation_uses_days_and_ending_early_gives_the_rest_back(alice):
    vacation = vacation_start(user=alice, days=Decimal("2.5"), now=T0)
    assert (vacation.started_at, vacation.ends_at) == (T0, T0 + timedelta(days=2, hours=12))
    allowance = vacation_allowance(user=alice, now=T0 + DAY)
    assert allowance.current == vacation
    assert allowance.left == timedelta(days=27, hours=12)

    ended = vacation_end(user=alice, now=T0 + timedelta(hours=6))
    assert ended.ends_at == T0 + timedelta(hours=6)
    after = vacation_allowance(user=alice, now=T0 + DAY)
    assert (after.current, after.used) == (None, timedelta(hours=6))


def test_ending_a_vacation_the_moment_it_began_removes_it(alice):
    vacation_start(user=alice, days=1, now=T0)
    vacation_end(user=alice, now=T0)
    assert not Vacation.objects.filter(user=alice).exists()


def test_a_vacation_counts_in_the_year_it_starts_and_days_renew_on_1_january(alice):
    vacation_start(user=alice, days=30, now=datetime(2026, 12, 20, tzinfo=UTC))
    in_january = datetime(2027, 1, 10, tzinfo=UTC)
    assert vacation_allowance(user=alice, now=datetime(2026, 12, 21, tzinfo=UTC)).left == (
        timedelta(0)
    )
    allowance = vacation_allowance(user=alice, now=in_january)
    assert (allowance.year, allowance.used, allowance.left) == (2027, timedelta(0), 30 * DAY)
    assert allowance.current is not None  # still running, but paid for by 2026


def test_a_second_vacation_while_one_runs_is_refused(alice):
    vacation_start(user=alice, days=3, now=T0)
    with pytest.raises(Conflict) as caught:
        vacation_start(user=alice, days=1, now=T0 + DAY)
    assert caught.value.code == "already_on_vacation"
    assert "already on vacation until 2026-03-05 09:00 UTC" in caught.value.detail


@pytest.mark.parametrize("days", [0, Decimal("-1.5")])
def test_days_must_be_above_zero(alice, days):
    with pytest.raises(DomainError) as caught:
        vacation_start(user=alice, days=days, now=T0)
    assert caught.value.code == "invalid_vacation_days"
    assert f"days is {days}: expected a number of days greater than 0." == caught.value.detail


def test_more_days_than_left_is_refused_and_says_how_many_are_left(alice):
    vacation_start(user=alice, days=Decimal("27.5"), now=T0)  # over by T0 + 28 days
    with pytest.raises(DomainError) as caught:
        vacation_start(user=alice, days=3, now=T0 + 28 * DAY)
    assert caught.value.code == "too_many_vacation_days"
    assert "you have 2.5 days of vacation left in 2026" in caught.value.detail
    assert not Vacation.objects.filter(started_at=T0 + 28 * DAY).exists()


def test_no_days_left_is_a_conflict(settings, alice):
    settings.CELTIC_VACATION_DAYS_PER_YEAR = 0
    with pytest.raises(Conflict) as caught:
        vacation_start(user=alice, days=1, now=T0)
    assert caught.value.code == "no_vacation_days_left"
    assert "they renew on 1 January" in caught.value.detail


def test_ending_without_a_vacation_is_a_conflict(alice):
    with pytest.raises(Conflict) as caught:
        vacation_end(user=alice, now=T0)
    assert caught.value.code == "not_on_vacation"


# --- deadlines follow --------------------------------------------------------------------------


def start_game(orange, blue, **tc: object) -> Game:
    return game_services.game_start(players=[orange, blue], time_control=TimeControl(**tc), now=T0)


def test_a_vacation_moves_the_deadline_where_the_player_is_to_move(alice, bob, carol):
    mine = start_game(alice, bob)  # alice to move, deadline T0 + 3 days
    theirs = start_game(bob, alice)  # bob to move: alice's vacation does not matter yet
    forbidden = start_game(alice, carol, vacation_allowed=False)

    vacation_start(user=alice, days=5, now=T0 + DAY)
    for game in (mine, theirs, forbidden):
        game.refresh_from_db()
    assert mine.deadline == T0 + 8 * DAY
    assert theirs.deadline == T0 + 3 * DAY
    assert forbidden.deadline == T0 + 3 * DAY

    vacation_end(user=alice, now=T0 + 2 * DAY)  # back after one day: one day added in all
    mine.refresh_from_db()
    assert mine.deadline == T0 + 4 * DAY


def test_a_turn_starting_during_a_vacation_waits_for_its_end(alice, bob):
    game = start_game(bob, alice)
    vacation_start(user=alice, days=4, now=T0)
    game_services.move_submit(
        game_id=game.pk, user=bob, expected_ply=0, notation="d5 ESW", now=T0 + DAY
    )
    game.refresh_from_db()
    assert game.deadline == T0 + 4 * DAY + 3 * DAY


def test_an_expired_deadline_is_not_revived_by_a_vacation(alice, bob):
    game = start_game(alice, bob)
    vacation_start(user=alice, days=5, now=T0 + 4 * DAY)
    game.refresh_from_db()
    assert game.deadline == T0 + 3 * DAY


def test_changing_time_zone_keeps_the_time_left_and_moves_the_deadline(alice, bob):
    from games.selectors import game_clock

    friday = datetime(2026, 3, 6, tzinfo=UTC)  # Friday 00:00 UTC; alice's zone is UTC
    game = game_services.game_start(
        players=[alice, bob],
        time_control=TimeControl(days_per_move=1, weekends_off=True),
        now=friday,
    )
    assert game.deadline == friday + DAY  # the day runs out as the UTC weekend begins
    change = friday + timedelta(hours=6)
    with time_machine.travel(change, tick=False):
        profile_update(user=alice, time_zone="Pacific/Auckland")
    game.refresh_from_db()
    # 18 h left. Auckland's weekend (NZDT) is Friday 11:00 to Sunday 11:00 UTC: 5 h run
    # before it and 13 h after it.
    assert game.deadline == datetime(2026, 3, 9, 0, 0, tzinfo=UTC)
    assert game_clock(game=game, now=change).time_left == timedelta(hours=18)
    with time_machine.travel(change, tick=False):
        profile_update(user=alice, display_name="Al")  # no zone change: nothing moves
    game.refresh_from_db()
    assert game.deadline == datetime(2026, 3, 9, 0, 0, tzinfo=UTC)


# --- API ------------------------------------------------------------------------------------


def test_api_vacation_status_start_and_end(api_client, alice):
    api_client.force_login(alice)
    with time_machine.travel(T0, tick=False):
        empty = api_client.get(VACATION)
        assert empty.status_code == 200
        assert empty.json() == {
            "year": 2026,
            "days_per_year": 30,
            "days_used": 0.0,
            "days_left": 30.0,
            "current": None,
            "recent": [],
        }
        started = api_client.post(VACATION, {"days": "1.5"}, format="json")
    assert started.status_code == 201
    body = started.json()
    assert (body["days_used"], body["days_left"]) == (1.5, 28.5)
    assert body["current"]["started_at"] == "2026-03-02T09:00:00Z"
    assert body["current"]["ends_at"] == "2026-03-03T21:00:00Z"
    assert body["current"]["days"] == 1.5
    assert len(body["recent"]) == 1

    with time_machine.travel(T0 + timedelta(hours=12), tick=False):
        ended = api_client.post(f"{VACATION}end/")
    assert ended.status_code == 200
    assert ended.json()["current"] is None
    assert ended.json()["days_used"] == 0.5
    assert ended.json()["recent"][0]["ends_at"] == "2026-03-02T21:00:00Z"


@pytest.mark.parametrize(
    ("payload", "detail"),
    [
        ({}, "days: This field is required."),
        ({"days": "soon"}, "days: A valid number is required."),
        ({"days": "1.234"}, "days: Ensure that there are no more than 2 decimal places."),
    ],
)
def test_api_bad_days_are_400_naming_the_field(api_client, alice, payload, detail):
    api_client.force_login(alice)
    response = api_client.post(VACATION, payload, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == detail
    assert not Vacation.objects.exists()


def test_api_refusals_carry_their_codes(api_client, alice):
    api_client.force_login(alice)
    too_many = api_client.post(VACATION, {"days": 31}, format="json")
    assert (too_many.status_code, too_many.json()["code"]) == (400, "too_many_vacation_days")
    zero = api_client.post(VACATION, {"days": 0}, format="json")
    assert (zero.status_code, zero.json()["code"]) == (400, "invalid_vacation_days")
    not_on = api_client.post(f"{VACATION}end/")
    assert (not_on.status_code, not_on.json()["code"]) == (409, "not_on_vacation")
    assert api_client.post(VACATION, {"days": 2}, format="json").status_code == 201
    again = api_client.post(VACATION, {"days": 2}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "already_on_vacation")


def test_api_vacation_needs_a_login(api_client):
    assert api_client.get(VACATION).status_code in {401, 403}
    assert api_client.post(VACATION, {"days": 1}, format="json").status_code in {401, 403}


def test_api_reminder_hours_are_editable_and_checked(api_client, alice):
    api_client.force_login(alice)
    ok = api_client.patch("/api/v1/accounts/me/", {"reminder_hours": [48, 6]}, format="json")
    assert ok.status_code == 200
    assert ok.json()["reminder_hours"] == [48, 6]
    none = api_client.patch("/api/v1/accounts/me/", {"reminder_hours": []}, format="json")
    assert none.json()["reminder_hours"] == []
    bad = api_client.patch("/api/v1/accounts/me/", {"reminder_hours": [0]}, format="json")
    assert bad.status_code == 400
    assert bad.json()["detail"].startswith("reminder_hours: 0 hours is out of range")
    alice.profile.refresh_from_db()
    assert alice.profile.reminder_hours == []


# --- web ------------------------------------------------------------------------------------


def test_profile_page_starts_and_ends_a_vacation(client, alice):
    client.force_login(alice)
    page = client.get(reverse("accounts:profile"))
    assert b"of vacation left in" in page.content
    assert b"Start a vacation now" in page.content

    response = client.post(reverse("accounts:vacation_start"), {"days": "2"})
    assert response.status_code == 302
    page = client.get(reverse("accounts:profile"))
    assert b"You are on vacation" in page.content
    assert b"End my vacation now" in page.content

    assert client.post(reverse("accounts:vacation_end")).status_code == 302
    assert not vacation_allowance(user=alice, now=datetime.now(UTC)).current


def test_profile_page_shows_why_a_vacation_was_refused(client, alice):
    client.force_login(alice)
    response = client.post(reverse("accounts:vacation_start"), {"days": "45"})
    assert response.status_code == 400
    assert (
        "you have 30 days of vacation left" in response.context["vacation_form"].errors["days"][0]
    )
    response = client.post(reverse("accounts:vacation_start"), {"days": "x"})
    assert response.context["vacation_form"].errors["days"] == ["Enter a number."]
    ended = client.post(reverse("accounts:vacation_end"), follow=True)
    assert b"You are not on vacation" in ended.content


def test_profile_form_takes_reminder_hours_as_text(client, alice):
    client.force_login(alice)
    fields = {"email": "alice@example.org", "time_zone": "Europe/Dublin", "country": "IE"}
    assert b'value="24, 2"' in client.get(reverse("accounts:profile")).content
    response = client.post(reverse("accounts:profile"), {**fields, "reminder_hours": "12, 1"})
    assert response.status_code == 302
    alice.profile.refresh_from_db()
    assert alice.profile.reminder_hours == [12, 1]
    bad = client.post(reverse("accounts:profile"), {**fields, "reminder_hours": "soon"})
    assert "'soon' is not a list of whole hours" in bad.context["form"].errors["reminder_hours"][0]
    too_big = client.post(reverse("accounts:profile"), {**fields, "reminder_hours": "400"})
    assert "400 hours is out of range" in too_big.context["form"].errors["reminder_hours"][0]
