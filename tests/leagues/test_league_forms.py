"""The organiser's league pages: /leagues/new/ and /leagues/<id>/edit/, their refusals, and
the links to them."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from leagues import services
from leagues.models import League, Season
from tests.accounts.factories import make_superuser, make_user
from tests.leagues.conftest import T0, grant
from tests.pages import field_errors, logged_in, messages_of

pytestmark = pytest.mark.django_db

NEW = "/leagues/new/"

# Every field of the form, none left at its default.
VALID: dict[str, Any] = {
    "name": "  Samhain League  ",
    "description": "Two seasons a year.",
    "first_registration_opens_at": "2026-04-01T18:30",
    "registration_days": "10",
    "season_days": "60",
    "division_size": "6",
    "division_min_size": "4",
    "promotion_count": "",
    "promotion_percent": "25",
    "relegation_count": "1",
    "relegation_percent": "",
    "tiebreaks": "SB, de",
    "tiebreak_edition": "2024",
    "withdrawal_policy": "forfeit_rest",
    "rookie_division": "on",
    "public": "on",
    "clock_kind": "fischer",
    "days_per_move": "3",
    "bank_days": "12",
    "increment_days": "1",
    "max_days": "15",
    "weekends_off": "on",
    # rated and vacation_allowed left unticked: False
}


@pytest.fixture
def in_dublin(organiser: User) -> User:
    """The organiser, with the pages shown in Dublin time (UTC+1 in April)."""
    organiser.profile.time_zone = "Europe/Dublin"
    organiser.profile.save()
    return organiser


def league_perm_only(username: str) -> User:
    """Holds the league organiser permission but not the tournament one."""
    return grant(make_user(username), "organise_league")


# --- Creating -------------------------------------------------------------------------------


def test_the_page_renders_for_an_organiser(organiser):
    page = logged_in(organiser).get(NEW)
    html = page.content.decode()

    assert page.status_code == 200
    assert "<h1>New league</h1>" in html
    for name in (*VALID, "rated", "vacation_allowed"):
        assert f'name="{name}"' in html, name
    form = page.context["form"]
    assert (form["promotion_count"].value(), form["relegation_count"].value()) == (2, 2)
    assert not re.search(r"<script(?![^>]*\bsrc=)", html)
    assert " style=" not in html and " onclick=" not in html


def test_a_valid_post_creates_exactly_what_was_posted(in_dublin, clock):
    answer = logged_in(in_dublin).post(NEW, VALID, follow=True)

    league = League.objects.get()
    assert answer.redirect_chain == [(f"/leagues/{league.pk}/", 302)]
    assert messages_of(answer) == [
        "Samhain League is created. Season 1 opens for registration on 1 Apr 2026, 18:30."
    ]
    stored = {
        field: getattr(league, field)
        for field in (
            "name",
            "description",
            "organiser",
            "registration_days",
            "season_days",
            "division_size",
            "division_min_size",
            "promotion_count",
            "promotion_percent",
            "relegation_count",
            "relegation_percent",
            "tiebreaks",
            "tiebreak_edition",
            "withdrawal_policy",
            "rookie_division",
            "rated",
            "public",
        )
    }
    assert stored == {
        "name": "Samhain League",
        "description": "Two seasons a year.",
        "organiser": in_dublin,
        "registration_days": 10,
        "season_days": 60,
        "division_size": 6,
        "division_min_size": 4,
        "promotion_count": None,
        "promotion_percent": 25,
        "relegation_count": 1,
        "relegation_percent": None,
        "tiebreaks": ["sb", "de"],
        "tiebreak_edition": "2024",
        "withdrawal_policy": "forfeit_rest",
        "rookie_division": True,
        "rated": False,
        "public": True,
    }
    assert (
        league.clock_kind,
        league.bank_days,
        league.increment_days,
        league.max_days,
        league.weekends_off,
        league.vacation_allowed,
    ) == ("fischer", 12, 1, 15, True, False)
    season = league.seasons.get()
    assert (season.number, season.status) == (1, Season.Status.PLANNED)
    assert season.registration_opens_at == datetime(2026, 4, 1, 17, 30, tzinfo=UTC)  # Dublin
    assert season.starts_at == datetime(2026, 4, 11, 17, 30, tzinfo=UTC)


def test_a_season_whose_date_has_come_opens_at_once(organiser, clock):
    data = {**VALID, "first_registration_opens_at": "2026-03-01T09:00"}  # T0 is 2 March

    answer = logged_in(organiser).post(NEW, data, follow=True)

    assert messages_of(answer) == ["Samhain League is created. Registration for season 1 is open."]
    assert League.objects.get().seasons.get().status == Season.Status.REGISTRATION


def test_counts_left_empty_are_two_as_in_the_api(organiser, clock):
    data = {**VALID, "promotion_percent": "", "relegation_count": ""}

    logged_in(organiser).post(NEW, data)

    league = League.objects.get()
    assert (league.promotion_count, league.promotion_percent) == (2, None)
    assert (league.relegation_count, league.relegation_percent) == (2, None)


@pytest.mark.parametrize(
    ("changes", "field", "error"),
    [
        ({"name": "   "}, "name", "This field is required."),
        ({"name": "x" * 151}, "name", "Ensure this value has at most 150 characters (it has 151)."),
        ({"division_min_size": "2"}, "division_min_size", "From 3 to 30 players, not 2."),
        (
            {"division_size": "3"},
            "division_size",
            "At least the smallest division (4 players), not 3.",
        ),
        ({"division_size": "six"}, "division_size", "Enter a whole number."),
        ({"division_size": "-1"}, "division_size", "From 3 to 30 players, not -1."),
        (
            {"promotion_count": "1"},
            "promotion_count",
            "Give either a count or a percent, not both.",
        ),
        (
            {"promotion_percent": "50"},
            "promotion_percent",
            "From 0 to 49 percent of the division, not 50.",
        ),
        (
            {"relegation_count": "3"},
            "relegation_count",
            "From 0 to 2 players (half the smallest division), not 3.",
        ),
        ({"tiebreaks": "de, nonsense"}, "tiebreaks", "Unknown tie-break(s): nonsense."),
        ({"tiebreak_edition": "1999"}, "tiebreak_edition", "Select a valid choice."),
        ({"withdrawal_policy": "vanish"}, "withdrawal_policy", "Select a valid choice."),
        ({"season_days": "6"}, "season_days", "From 7 to 365 days, not 6."),
        ({"registration_days": "0"}, "registration_days", "From 1 to 90 days, not 0."),
        (
            {"registration_days": "100000"},
            "registration_days",
            "From 1 to 90 days, not 100000.",
        ),
        ({"first_registration_opens_at": ""}, "first_registration_opens_at", "required"),
        (
            {"first_registration_opens_at": "next Tuesday"},
            "first_registration_opens_at",
            "Enter a valid date/time.",
        ),
        (
            {"first_registration_opens_at": "2026-02-28T09:00"},  # T0 is 2 March
            "first_registration_opens_at",
            "2026-02-28 09:00 UTC is in the past: expected a time from 2026-03-01 09:00 UTC",
        ),
        (
            {"first_registration_opens_at": "9999-10-01T00:00"},
            "first_registration_opens_at",
            "9999-10-01 00:00 UTC is too far ahead: expected a time from",
        ),
        ({"clock_kind": "sundial"}, "clock_kind", "Select a valid choice."),
        ({"bank_days": "0"}, "bank_days", "greater than or equal to 1."),
        (
            {"max_days": "11"},
            "__all__",
            "max_days is 11: expected at least bank_days (12)",
        ),
    ],
)
def test_each_invalid_input_is_shown_on_the_form_and_nothing_is_created(
    organiser, clock, changes, field, error
):
    answer = logged_in(organiser).post(NEW, {**VALID, **changes})

    assert answer.status_code == 400
    errors = field_errors(answer)
    assert list(errors) == [field], errors
    assert error in " ".join(errors[field])
    html = answer.content.decode()
    assert 'role="alert"' in html and "Two seasons a year." in html  # kept as typed
    assert not League.objects.exists() and not Season.objects.exists()


def test_a_name_taken_in_any_case_is_refused_and_the_rules_are_kept(organiser, clock):
    services.league_create(
        organiser=organiser, name="Samhain league", first_registration_opens_at=T0
    )

    answer = logged_in(organiser).post(NEW, {**VALID, "season_days": "5"})

    assert answer.status_code == 400
    assert field_errors(answer) == {
        "name": ["There is already a league called 'Samhain League'."],
        "season_days": ["From 7 to 365 days, not 5."],
    }
    form = answer.context["form"]
    assert (form["division_size"].value(), form["tiebreaks"].value()) == ("6", "SB, de")
    assert League.objects.count() == 1


@pytest.mark.parametrize("who", ["player", "league permission only"])
def test_users_without_the_permissions_are_refused(organiser, who):
    user = make_user("plain") if who == "player" else league_perm_only("halfway")
    client = logged_in(user)

    shown = client.get(NEW, follow=True)
    posted = client.post(NEW, VALID, follow=True)

    for answer in (shown, posted):
        assert answer.redirect_chain == [("/leagues/", 302)]
        assert messages_of(answer) == [
            "You need the league and the tournament organiser permissions to create leagues "
            "(each division is a tournament you run); ask an administrator."
        ]
    assert not League.objects.exists()


def test_a_suspended_organiser_is_logged_out(organiser):
    client = logged_in(organiser)
    organiser.is_active = False
    organiser.save()

    answer = client.post(NEW, VALID)

    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")
    assert not League.objects.exists()


def test_an_anonymous_visitor_is_sent_to_log_in(organiser):
    for answer in (Client().get(NEW), Client().post(NEW, VALID)):
        assert answer.status_code == 302
        assert answer["Location"] == f"/accounts/login/?next={NEW}"
    assert not League.objects.exists()


def test_the_list_links_to_the_page_only_for_those_allowed(organiser):
    link = f'href="{NEW}"'
    superuser = make_superuser("root")

    assert link in logged_in(organiser).get("/leagues/").content.decode()
    assert link in logged_in(superuser).get("/leagues/").content.decode()
    assert link not in logged_in(make_user("plain")).get("/leagues/").content.decode()
    assert link not in logged_in(league_perm_only("halfway")).get("/leagues/").content.decode()
    assert link not in Client().get("/leagues/").content.decode()


# --- Changing the rules -----------------------------------------------------------------------


@pytest.fixture
def league(organiser: User, clock) -> League:
    return services.league_create(
        organiser=organiser,
        name="Beltane League",
        first_registration_opens_at=T0,
        tiebreaks=["de", "sb"],
        promotion_percent=20,
    )


def edit_url(league: League) -> str:
    return f"/leagues/{league.pk}/edit/"


def form_data(answer) -> dict[str, Any]:
    """What the browser would send back from the page's form, untouched."""
    form = answer.context["form"]
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value is True:
            data[name] = "on"
        elif value not in (None, False):
            data[name] = value
    return data


def test_the_edit_page_shows_the_league_s_rules(organiser, league):
    answer = logged_in(organiser).get(edit_url(league))

    assert answer.status_code == 200
    html = answer.content.decode()
    assert 'value="Beltane League"' in html and 'value="de, sb"' in html
    assert 'name="first_registration_opens_at"' not in html  # a season exists already
    data = form_data(answer)
    assert (data["promotion_percent"], data["relegation_count"]) == (20, 2)
    assert "promotion_count" not in data


def test_the_organiser_changes_the_rules(organiser, league):
    client = logged_in(organiser)
    data = form_data(client.get(edit_url(league)))
    data.update(name="Beltane Cup", division_size="10", tiebreaks="sb", days_per_move="5")

    answer = client.post(edit_url(league), data, follow=True)

    assert answer.redirect_chain == [(f"/leagues/{league.pk}/", 302)]
    assert messages_of(answer) == ["The rules are saved; the next season's start uses them."]
    league.refresh_from_db()
    assert (league.name, league.division_size, league.tiebreaks, league.days_per_move) == (
        "Beltane Cup",
        10,
        ["sb"],
        5,
    )
    assert (league.promotion_percent, league.rated, league.season_days) == (20, True, 90)


def test_a_bad_change_is_shown_and_nothing_is_saved(organiser, league):
    client = logged_in(organiser)
    data = form_data(client.get(edit_url(league)))
    data.update(division_size="3", promotion_count="1")

    answer = client.post(edit_url(league), data)

    assert answer.status_code == 400
    assert field_errors(answer) == {
        "division_size": ["At least the smallest division (4 players), not 3."],
        "promotion_count": ["Give either a count or a percent, not both."],
    }
    league.refresh_from_db()
    assert (league.division_size, league.promotion_count) == (8, None)


def test_only_the_organiser_and_superusers_may_edit(organiser, league):
    """``league_update`` lets the league's organiser and superusers change it, not another
    holder of the organiser permission (it lets a user organise their own leagues only);
    the page and its link follow it."""
    edit_link = f'href="{edit_url(league)}"'
    other_organiser = league_perm_only("otherorg")
    player = make_user("plain")

    for allowed in (organiser, make_superuser("boss")):
        assert edit_link in logged_in(allowed).get(f"/leagues/{league.pk}/").content.decode()
        assert logged_in(allowed).get(edit_url(league)).status_code == 200
    for refused_user in (other_organiser, player):
        page = logged_in(refused_user).get(f"/leagues/{league.pk}/").content.decode()
        assert edit_link not in page
    assert edit_link not in Client().get(f"/leagues/{league.pk}/").content.decode()

    for refused_user in (other_organiser, player):
        refused = logged_in(refused_user).post(
            edit_url(league), {"name": "Taken over"}, follow=True
        )
        assert refused.redirect_chain == [(f"/leagues/{league.pk}/", 302)]
        assert messages_of(refused) == [
            "Only the organiser of Beltane League (or an administrator) may do this."
        ]
    anonymous = Client().post(edit_url(league), {"name": "Taken over"})
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    league.refresh_from_db()
    assert league.name == "Beltane League"


def test_a_private_league_is_not_found_by_outsiders(organiser, clock):
    private = services.league_create(
        organiser=organiser, name="Hidden", first_registration_opens_at=T0, public=False
    )

    assert logged_in(league_perm_only("otherorg")).get(edit_url(private)).status_code == 404
    assert logged_in(organiser).get(edit_url(private)).status_code == 200
    assert logged_in(organiser).get("/leagues/999999/edit/").status_code == 404
