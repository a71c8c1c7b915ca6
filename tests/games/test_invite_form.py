"""The new-game form names the players to invite: one opponent for a game for two, several
for a bigger game (Celtic Knot: 2 to 6 seats), none for an open seek. The lists show who is
invited and who accepted, and each invited player accepts through the web until the game
starts."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.html import strip_tags

from games.models import Challenge, Game
from tests.accounts.factories import make_user
from tests.games.test_pages_kinds import TIME_CONTROL, logged_in, messages_of

pytestmark = pytest.mark.django_db

PAGE = reverse("games:challenges")


def user(username: str):
    return get_user_model().objects.get(username=username)


@pytest.fixture
def ann():
    """Offers the games; ben, cat, dan and eve exist to be named."""
    for name in ("ben", "cat", "dan", "eve"):
        make_user(name)
    return make_user("ann")


def refused(ann, **fields: object) -> dict[str, list[str]]:
    """The form's errors when ann posts ``fields``; nothing may be created."""
    response = logged_in(ann).post(PAGE, {**TIME_CONTROL, "seat": "random", **fields})
    assert response.status_code == 400
    assert not Challenge.objects.exists()
    return response.context["form"].errors


# --- what the form refuses --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "field", "error"),
    [
        (
            {"kind": "knot", "opponent": "ben zed, cat yann"},
            "opponent",
            "There is no active player called 'zed' or 'yann'.",
        ),
        (
            {"kind": "knot", "opponent": "ben, ann"},
            "opponent",
            "You cannot challenge yourself: name only the other players; you take a seat anyway.",
        ),
        (
            {"kind": "knot", "opponent": "ben, cat, Ben"},
            "opponent",
            "Ben is named twice: name each player once.",
        ),
        (
            {"kind": "celtic", "opponent": "ben cat"},
            "opponent",
            "Celtic! is played by 2 players, you included: name 1 player, not 2.",
        ),
        (
            {"kind": "knot", "opponent": "ben cat dan eve fay gil"},
            "opponent",
            "Celtic Knot is played by 2 to 6 players, you included: name 1 to 5 players, not 6.",
        ),
        (
            {"kind": "knot", "opponent": "ben cat dan", "seat_count": 3},
            "seat_count",
            "You named 3 players, so the game is for 4 with you, not 3: name 2 players, or "
            "leave Players empty.",
        ),
        (
            {"kind": "knot", "opponent": "ben cat", "seat": "4"},
            "seat",
            "A game of Celtic Knot for 3 has no seat 4: choose Random or one of Red, Blue, Green.",
        ),
    ],
)
def test_a_bad_list_of_players_is_refused_on_its_field(ann, fields, field, error) -> None:
    for name in ("fay", "gil"):
        make_user(name)
    assert refused(ann, **fields)[field] == [error]


def test_a_suspended_player_is_not_found(ann) -> None:
    get_user_model().objects.filter(username="cat").update(is_active=False)
    assert refused(ann, kind="knot", opponent="ben cat")["opponent"] == [
        "There is no active player called 'cat'."
    ]


def test_the_players_field_is_prefilled_and_not_capitalised_by_phones() -> None:
    page = logged_in(make_user("ann")).get(PAGE + "?opponent=ben").content.decode()
    assert 'name="opponent" value="ben"' in page
    assert 'autocapitalize="none"' in page and 'autocorrect="off"' in page


# --- what it creates --------------------------------------------------------------------------


def test_one_name_is_a_challenge_for_two_and_none_an_open_seek(ann) -> None:
    one = logged_in(ann).post(
        PAGE, {**TIME_CONTROL, "kind": "knot", "opponent": " ben "}, follow=True
    )
    assert messages_of(one) == ["Challenge sent to ben."]
    none = logged_in(ann).post(PAGE, {**TIME_CONTROL, "kind": "knot", "opponent": ""}, follow=True)
    assert messages_of(none) == ["Your open challenge is posted: anyone may accept it."]
    rows = Challenge.objects.order_by("pk").values_list("opponent__username", "seat_count")
    assert list(rows) == [("ben", 2), (None, 2)]
    assert not Challenge.objects.filter(invitations__isnull=False).exists()


def test_a_knot_for_four_invites_three_who_accept_on_the_web_until_it_starts(ann) -> None:
    created = logged_in(ann).post(
        PAGE,
        {**TIME_CONTROL, "kind": "knot", "opponent": "ben, cat  dan", "seat": "1"},
        follow=True,
    )
    assert messages_of(created) == [
        "Challenge sent to ben, cat and dan. The game starts when all 3 have accepted."
    ]
    challenge = Challenge.objects.get()
    assert (challenge.kind, challenge.seat_count, challenge.seat_choice) == ("knot", 4, 1)
    assert challenge.opponent is None
    invited = [i.user.get_username() for i in challenge.invitations.select_related("user")]
    assert invited == ["ben", "cat", "dan"]
    mine = created.content.decode()
    assert 'ben</a></strong> <span class="muted">(not answered yet)</span>' in mine
    assert "1 of 4 seats taken" in mine

    accept = reverse("games:challenge_accept", args=[challenge.pk])
    players = {name: logged_in(user(name)) for name in invited}
    home = players["ben"].get(reverse("games:home")).content.decode()
    assert "Challenges for you" in home and accept in home and ">Accept</button>" in home
    outsider = logged_in(user("eve")).get(PAGE).content.decode()
    assert accept not in outsider  # not an open seek

    first = players["ben"].post(accept, {"next": PAGE}, follow=True)
    assert messages_of(first) == [
        "You accepted: 2 of 4 seats taken. The game starts when every invited player has accepted."
    ]
    page = first.content.decode()
    assert '<strong>you</strong> <span class="muted">(accepted)</span>' in page
    assert 'cat</a></strong> <span class="muted">(not answered yet)</span>' in page
    assert "2 of 4 seats taken · you hold one" in page
    assert accept not in page  # ben has answered: no second Accept, no Decline
    assert reverse("games:challenge_decline", args=[challenge.pk]) not in page

    players["cat"].post(accept)
    assert not Game.objects.exists()
    last = players["dan"].post(accept, follow=True)
    game = Game.objects.get()
    assert last.redirect_chain[-1][0] == reverse("games:game", args=[game.pk])
    assert game.kind == "knot" and game.user_at(1) == ann
    assert {u.get_username() for u in game.seat_users()} == {"ann", "ben", "cat", "dan"}
    decided = logged_in(ann).get(PAGE).content.decode()
    assert f"ann → ben, cat, dan: accepted · game #{game.pk}" in strip_tags(decided)


def test_a_decline_by_one_invited_player_closes_the_challenge_for_all(ann) -> None:
    logged_in(ann).post(PAGE, {**TIME_CONTROL, "kind": "knot", "opponent": "ben cat"})
    challenge = Challenge.objects.get()
    cat = logged_in(user("cat"))
    declined = cat.post(reverse("games:challenge_decline", args=[challenge.pk]), follow=True)
    assert messages_of(declined) == ["You declined ann's challenge."]
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.DECLINED
    ben_home = logged_in(user("ben")).get(reverse("games:home"))
    assert "Challenges for you" not in ben_home.content.decode()
