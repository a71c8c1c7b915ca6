"""The organiser's page to create a ladder, /ladders/new/, its refusals, and the link to it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from ladders.models import Ladder
from tests.accounts.factories import make_staff, make_superuser, make_user
from tests.pages import field_errors, logged_in, messages_of

pytestmark = pytest.mark.django_db

NEW = "/ladders/new/"

# Every field of the form, none left at its default.
VALID: dict[str, Any] = {
    "name": "  Oak Ladder  ",
    "description": "Fridays at the club.",
    "challenge_range": "5",
    "max_open_challenges": "3",
    "rematch_days": "0",
    "timeout_drop_places": "0",
    "inactivity_days": "45",
    "public": "on",
    "clock_kind": "per_move",
    "days_per_move": "4",
    "bank_days": "10",
    "increment_days": "2",
    "max_days": "20",
    "weekends_off": "on",
    # rated and vacation_allowed left unticked: False
}


def test_the_page_renders_for_an_organiser(organiser):
    page = logged_in(organiser).get(NEW)
    html = page.content.decode()

    assert page.status_code == 200
    assert "<h1>New ladder</h1>" in html
    for name in (*VALID, "rated", "vacation_allowed"):
        assert f'name="{name}"' in html, name
    form = page.context["form"]
    assert (form["challenge_range"].value(), form["inactivity_days"].value()) == (3, 30)
    assert not re.search(r"<script(?![^>]*\bsrc=)", html)
    assert " style=" not in html and " onclick=" not in html


def test_a_valid_post_creates_exactly_what_was_posted(organiser):
    answer = logged_in(organiser).post(NEW, VALID, follow=True)

    ladder = Ladder.objects.get()
    assert answer.redirect_chain == [(f"/ladders/{ladder.pk}/", 302)]
    assert messages_of(answer) == ["Oak Ladder is created: players may join it now."]
    stored = {
        field: getattr(ladder, field)
        for field in (
            "name",
            "description",
            "organiser",
            "challenge_range",
            "max_open_challenges",
            "rematch_days",
            "timeout_drop_places",
            "inactivity_days",
            "rated",
            "public",
            "clock_kind",
            "days_per_move",
            "weekends_off",
            "vacation_allowed",
        )
    }
    assert stored == {
        "name": "Oak Ladder",
        "description": "Fridays at the club.",
        "organiser": organiser,
        "challenge_range": 5,
        "max_open_challenges": 3,
        "rematch_days": 0,
        "timeout_drop_places": 0,
        "inactivity_days": 45,
        "rated": False,
        "public": True,
        "clock_kind": "per_move",
        "days_per_move": 4,
        "weekends_off": True,
        "vacation_allowed": False,
    }
    assert not ladder.players.exists()


def test_a_fischer_clock_and_no_limit_are_stored(organiser):
    client = logged_in(organiser)
    fischer = {**VALID, "clock_kind": "fischer", "bank_days": "14", "increment_days": "0"}
    client.post(NEW, fischer)
    client.post(NEW, {**VALID, "name": "Elm Ladder", "clock_kind": "none"})

    oak, elm = Ladder.objects.get(name="Oak Ladder"), Ladder.objects.get(name="Elm Ladder")
    assert (oak.clock_kind, oak.bank_days, oak.increment_days, oak.max_days) == (
        "fischer",
        14,
        0,
        20,
    )
    assert elm.clock_kind == "none"


@pytest.mark.parametrize(
    ("changes", "field", "error"),
    [
        ({"name": ""}, "name", "This field is required."),
        ({"name": "x" * 151}, "name", "Ensure this value has at most 150 characters (it has 151)."),
        ({"challenge_range": "0"}, "challenge_range", "From 1 to 50 places."),
        ({"challenge_range": "51"}, "challenge_range", "From 1 to 50 places."),
        ({"challenge_range": "100000"}, "challenge_range", "From 1 to 50 places."),
        ({"rematch_days": "-1"}, "rematch_days", "From 0 to 365 days."),
        ({"challenge_range": "-1"}, "challenge_range", "From 1 to 50 places."),
        ({"challenge_range": "three"}, "challenge_range", "Enter a whole number."),
        ({"max_open_challenges": "21"}, "max_open_challenges", "From 1 to 20 challenges."),
        ({"rematch_days": "366"}, "rematch_days", "From 0 to 365 days."),
        ({"timeout_drop_places": "101"}, "timeout_drop_places", "From 0 to 100 places (0: no"),
        ({"inactivity_days": "6"}, "inactivity_days", "From 7 to 365 days."),
        ({"inactivity_days": ""}, "inactivity_days", "This field is required."),
        ({"days_per_move": "61"}, "days_per_move", "less than or equal to 60."),
        ({"clock_kind": "hourglass"}, "clock_kind", "Select a valid choice."),
        (
            {"clock_kind": "fischer", "max_days": "5"},
            "__all__",
            "max_days is 5: expected at least bank_days (10)",
        ),
    ],
)
def test_each_invalid_input_is_shown_on_the_form_and_nothing_is_created(
    organiser, changes, field, error
):
    answer = logged_in(organiser).post(NEW, {**VALID, **changes})

    assert answer.status_code == 400
    errors = field_errors(answer)
    assert list(errors) == [field], errors
    assert error in " ".join(errors[field])
    html = answer.content.decode()
    assert 'role="alert"' in html and "Fridays at the club." in html  # kept as typed
    assert not Ladder.objects.exists()


def test_a_name_taken_in_any_case_is_refused_with_the_other_problems(organiser):
    client = logged_in(organiser)
    client.post(NEW, VALID)

    answer = client.post(NEW, {**VALID, "name": "OAK LADDER", "rematch_days": "400"})

    assert answer.status_code == 400
    assert field_errors(answer) == {
        "rematch_days": ["From 0 to 365 days."],
        "name": ["There is already a ladder called 'OAK LADDER'."],
    }
    assert answer.context["form"]["challenge_range"].value() == "5"
    assert Ladder.objects.count() == 1


@pytest.mark.parametrize("who", ["player", "staff removing players"])
def test_users_without_the_permission_are_refused(who):
    user = (
        make_user("plain")
        if who == "player"
        else make_staff("staff", "ladders.manage_ladder_players")
    )
    client = logged_in(user)

    for answer in (client.get(NEW, follow=True), client.post(NEW, VALID, follow=True)):
        assert answer.redirect_chain == [("/ladders/", 302)]
        assert messages_of(answer) == [
            "You need the ladder organiser permission to create ladders; ask an administrator."
        ]
    assert not Ladder.objects.exists()


def test_an_anonymous_visitor_is_sent_to_log_in():
    for answer in (Client().get(NEW), Client().post(NEW, VALID)):
        assert answer.status_code == 302
        assert answer["Location"] == f"/accounts/login/?next={NEW}"
    assert not Ladder.objects.exists()


def test_the_list_links_to_the_page_only_for_those_allowed(organiser):
    link = f'href="{NEW}"'

    assert link in logged_in(organiser).get("/ladders/").content.decode()
    assert link in logged_in(make_superuser("root")).get("/ladders/").content.decode()
    assert link not in logged_in(make_user("plain")).get("/ladders/").content.decode()
    staff = make_staff("staff", "ladders.manage_ladder_players")
    assert link not in logged_in(staff).get("/ladders/").content.decode()
    assert link not in Client().get("/ladders/").content.decode()
