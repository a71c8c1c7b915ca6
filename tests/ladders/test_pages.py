"""Ladder pages: the list, a ladder's page, and its join, challenge and leave buttons."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.selectors import profile_get
from ladders import services
from ladders.models import LadderChallenge
from tests.accounts.factories import make_user
from tests.ladders.conftest import grant, names

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_list_and_page_for_a_visitor(make_ladder):
    ladder = make_ladder(description="Mondays at the club")
    services.ladder_join(ladder_id=ladder.pk, user=make_user("ann"))
    listing = Client().get("/ladders/").content.decode()
    assert "Club Ladder" in listing and "1 player " in listing
    page = Client().get(f"/ladders/{ladder.pk}/").content.decode()
    assert "Mondays at the club" in page
    assert "ann" in page and "joined in place 1" in page
    assert "Log in to join" in page and ">Challenge</button>" not in page
    assert not re.search(r"<script(?![^>]*\bsrc=)", page)  # no inline script: works without JS
    assert Client().get("/ladders/999/").status_code == 404


def test_join_challenge_and_leave_with_the_buttons(make_ladder, commit):
    ladder = make_ladder(challenge_range=1)
    ann, bob = make_user("ann"), make_user("bob")
    services.ladder_join(ladder_id=ladder.pk, user=ann)
    client = logged_in(bob)
    answer = client.post(f"/ladders/{ladder.pk}/join/", follow=True)
    assert "You joined Club Ladder in place 2." in answer.content.decode()
    page = client.get(f"/ladders/{ladder.pk}/").content.decode()
    assert page.count(">Challenge</button>") == 1 and f'value="{ann.pk}"' in page

    with commit():
        answer = client.post(f"/ladders/{ladder.pk}/challenge/", {"defender": ann.pk})
    challenge = LadderChallenge.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/games/{challenge.game_id}/"

    refused = client.post(f"/ladders/{ladder.pk}/leave/", follow=True).content.decode()
    assert "You have a challenge game being played on this ladder" in refused
    again = client.post(f"/ladders/{ladder.pk}/challenge/", {"defender": ann.pk}, follow=True)
    assert "You already have a challenge game with this player." in again.content.decode()
    assert names(ladder) == ["ann", "bob"]


def test_buttons_need_a_login_and_a_post(make_ladder):
    ladder = make_ladder()
    answer = Client().post(f"/ladders/{ladder.pk}/join/")
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
    assert logged_in(make_user("ann")).get(f"/ladders/{ladder.pk}/join/").status_code == 405
    assert logged_in(make_user("bob")).post(f"/ladders/{ladder.pk}/dance/").status_code == 404
    assert not ladder.players.exists()


def test_the_organiser_removes_a_player_from_the_page_and_nobody_else_sees_the_form(
    make_ladder, organiser
):
    ladder = make_ladder()
    ann, bob = make_user("ann"), make_user("bob")
    for user in (ann, bob):
        services.ladder_join(ladder_id=ladder.pk, user=user)
    rival = grant(make_user("rival"), "organise_ladder", "manage_ladder_players")  # not staff

    assert "Remove…" not in logged_in(rival).get(f"/ladders/{ladder.pk}/").content.decode()
    refused = logged_in(rival).post(
        f"/ladders/{ladder.pk}/remove/", {"player": bob.pk, "reason": "mine now"}, follow=True
    )
    assert "Only the organiser of Club Ladder (or an administrator)" in refused.content.decode()
    client = logged_in(organiser)
    assert client.get(f"/ladders/{ladder.pk}/").content.decode().count("Remove…") == 2
    done = client.post(
        f"/ladders/{ladder.pk}/remove/", {"player": bob.pk, "reason": "left"}, follow=True
    )

    assert "bob is removed from Club Ladder." in done.content.decode()
    assert names(ladder) == ["ann"]


def _named(user, display_name: str):
    profile = profile_get(user=user)
    profile.display_name = display_name
    profile.save()
    return user


def test_challenges_being_played_show_the_places_now_and_display_names(make_ladder, commit):
    ladder = make_ladder(challenge_range=1)
    ann, bob, gwen = (make_user(n) for n in ("ann", "bob", "gwen"))
    _named(gwen, "Gwen Celt")
    for user in (ann, bob, gwen):
        services.ladder_join(ladder_id=ladder.pk, user=user)
    with commit():
        services.ladder_challenge(ladder_id=ladder.pk, challenger=gwen, defender_id=bob.pk)
    services.ladder_leave(ladder_id=ladder.pk, user=ann)  # everyone below moves up one

    page = Client().get(f"/ladders/{ladder.pk}/").content.decode()

    playing = page.split("Challenges being played")[1].split("</section>")[0]
    assert ">Gwen Celt</a> (2) v " in playing and ">bob</a> (1)" in playing
    assert page.count(">Gwen Celt</a>") >= 3  # the places, the challenge and the history
    assert ">gwen</a>" not in page
