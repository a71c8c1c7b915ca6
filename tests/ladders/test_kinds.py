"""A ladder's game kind: chosen among the kinds with games of two seats, refused with a clear
message otherwise, in the service, the API and the form; its seat names on its pages."""

from __future__ import annotations

import pytest

from celticsite.errors import DomainError
from ladders import services
from ladders.models import Ladder
from tests.accounts.factories import make_user
from tests.games.conftest import token_client
from tests.ladders.test_ladder_form import NEW, VALID
from tests.pages import logged_in
from tests.tournaments.kinds import extra_kinds  # noqa: F401 (fixture)

# ruff: noqa: F811 (the fixture above as the tests' argument)

pytestmark = pytest.mark.django_db

A = "/api/v1/ladders"
CROWD_REFUSAL = "Crowd is played by 3 to 4 players; competitions pair two players per game."


def test_a_ladder_plays_celtic_unless_another_kind_is_chosen(make_ladder, extra_kinds):
    assert make_ladder().kind == "celtic"
    duel = make_ladder(name="Duel Ladder", kind="duel")
    duel.refresh_from_db()
    assert (duel.kind, duel.kind_name, duel.challenger_seat_name) == ("duel", "Duel", "Red")


@pytest.mark.parametrize(
    ("kind", "message"),
    [("go", "Unknown game kind 'go': expected one of "), ("crowd", CROWD_REFUSAL)],
)
def test_a_kind_unknown_or_not_played_by_two_is_refused(make_ladder, extra_kinds, kind, message):
    with pytest.raises(DomainError) as caught:
        make_ladder(kind=kind)
    assert caught.value.code == "invalid_settings"
    assert caught.value.extra["errors"]["kind"].startswith(message)


def test_the_challenger_hears_the_seat_name_of_the_kind(make_ladder, commit, extra_kinds):
    ladder = make_ladder(name="Duel Ladder", kind="duel", challenge_range=1)
    ann, bob = make_user("ann"), make_user("bob")
    for user in (ann, bob):
        services.ladder_join(ladder_id=ladder.pk, user=user)
    page = logged_in(bob).get(f"/ladders/{ladder.pk}/").content.decode()
    assert "Duel · " in page and "the challenger plays Red and moves first" in page
    with commit():
        answer = logged_in(bob).post(
            f"/ladders/{ladder.pk}/challenge/", {"defender": ann.pk}, follow=True
        )
    assert "Challenge made: you play Red against ann." in answer.content.decode()


def test_the_api_takes_and_answers_the_kind(organiser, extra_kinds):
    client = token_client(organiser)
    created = client.post(f"{A}/", {"name": "Duel Ladder", "kind": "duel"}, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["kind"] == "duel"
    assert client.get(f"{A}/{created.json()['id']}/").json()["kind"] == "duel"
    refused = client.post(f"{A}/", {"name": "Crowd Ladder", "kind": "crowd"}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (400, "invalid_settings")
    assert refused.json()["errors"] == {"kind": CROWD_REFUSAL}


def test_the_form_offers_the_kinds_with_two_seats(organiser, extra_kinds):
    page = logged_in(organiser).get(NEW).content.decode()
    assert '<option value="duel">Duel</option>' in page and 'value="crowd"' not in page
    answer = logged_in(organiser).post(NEW, {**VALID, "kind": "duel"})
    assert answer.status_code == 302
    assert Ladder.objects.get().kind == "duel"
