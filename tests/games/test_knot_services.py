"""Direct challenges to several named players (Celtic Knot for 3 to 6): each invited player
accepts or declines, the game starts when all have accepted, one decline closes it for all;
through the services and the API."""

from __future__ import annotations

import random

import pytest

from accounts.services import user_suspend
from games import errors, selectors, services
from games.models import Challenge, Game
from notifications.models import OutboxEmail
from tests.accounts.factories import make_moderator, make_user
from tests.games.conftest import API, token_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def people() -> dict[str, object]:
    return {name: make_user(name) for name in ("ann", "ben", "cat", "dan", "eve")}


def invite(people, *names: str, **options) -> Challenge:
    return services.challenge_create(
        challenger=people["ann"], invited=[people[n] for n in names], kind="knot", **options
    )


def test_the_game_starts_when_every_invited_player_has_accepted(people):
    challenge = invite(people, "ben", "cat", "dan")
    assert challenge.seat_count == 4
    for name in ("ben", "cat"):
        waiting = services.challenge_accept(challenge_id=challenge.pk, user=people[name])
        assert isinstance(waiting, Challenge) and waiting.status == "open"
    game = services.challenge_accept(challenge_id=challenge.pk, user=people["dan"])
    assert isinstance(game, Game)
    assert (game.kind, game.seat_count, game.status) == ("knot", 4, "active")
    assert {user.username for user in game.seat_users()} == {"ann", "ben", "cat", "dan"}
    challenge.refresh_from_db()
    assert challenge.status == "accepted"


def test_the_challenger_gets_the_chosen_seat_and_the_others_are_drawn(people):
    challenge = invite(people, "ben", "cat", seat_choice=3)
    services.challenge_accept(challenge_id=challenge.pk, user=people["ben"])
    game = services.challenge_accept(
        challenge_id=challenge.pk, user=people["cat"], rng=random.Random(1)
    )
    assert game.user_at(3) == people["ann"]


def test_without_a_choice_seat_one_is_drawn_among_all_players(people):
    first_movers = set()
    for attempt in range(12):
        challenge = invite(people, "ben", "cat")
        services.challenge_accept(challenge_id=challenge.pk, user=people["ben"])
        game = services.challenge_accept(
            challenge_id=challenge.pk, user=people["cat"], rng=random.Random(attempt)
        )
        first_movers.add(game.user_at(1).username)
    assert first_movers == {"ann", "ben", "cat"}


def test_one_decline_closes_the_challenge_for_everyone(people):
    challenge = invite(people, "ben", "cat", "dan")
    services.challenge_accept(challenge_id=challenge.pk, user=people["ben"])
    declined = services.challenge_decline(challenge_id=challenge.pk, user=people["cat"])
    assert declined.status == "declined"
    with pytest.raises(errors.ChallengeNotOpen):
        services.challenge_accept(challenge_id=challenge.pk, user=people["dan"])
    assert not Game.objects.exists()


def test_only_invited_players_may_accept_or_decline(people):
    challenge = invite(people, "ben", "cat")
    with pytest.raises(errors.NotPermitted, match="addressed to someone else"):
        services.challenge_accept(challenge_id=challenge.pk, user=people["eve"])
    with pytest.raises(errors.NotPermitted, match="Only the invited players can decline"):
        services.challenge_decline(challenge_id=challenge.pk, user=people["eve"])


def test_an_invited_player_accepts_once_and_cannot_decline_after(people):
    challenge = invite(people, "ben", "cat")
    services.challenge_accept(challenge_id=challenge.pk, user=people["ben"])
    with pytest.raises(errors.Conflict, match="already hold a seat"):
        services.challenge_accept(challenge_id=challenge.pk, user=people["ben"])
    with pytest.raises(errors.Conflict, match=r"accepted challenge #\d+ already"):
        services.challenge_decline(challenge_id=challenge.pk, user=people["ben"])


@pytest.mark.parametrize(
    ("names", "options", "message"),
    [
        (("ben",), {}, "names them as the opponent"),
        (("ben", "ben"), {}, "invited twice"),
        (("ben", "cat"), {"seat_count": 4}, "game is for 3 with you, not 4"),
        (("ben", "ann"), {}, "cannot challenge yourself"),
        (("ben", "cat", "dan", "eve", "ann"), {}, "cannot challenge yourself"),
    ],
)
def test_a_bad_invitation_is_refused_saying_why(people, names, options, message):
    with pytest.raises(errors.DomainError, match=message):
        invite(people, *names, **options)
    assert not Challenge.objects.exists()


def test_a_kind_for_two_cannot_invite_several(people):
    with pytest.raises(errors.DomainError, match="Celtic!"):
        services.challenge_create(
            challenger=people["ann"], invited=[people["ben"], people["cat"]], kind="celtic"
        )


def test_an_opponent_and_invited_players_together_are_refused(people):
    with pytest.raises(errors.DomainError, match="not both"):
        services.challenge_create(
            challenger=people["ann"],
            opponent=people["dan"],
            invited=[people["ben"], people["cat"]],
            kind="knot",
        )


def test_a_challenge_to_several_is_no_open_seek_and_only_its_players_see_it(people):
    challenge = invite(people, "ben", "cat")
    assert list(selectors.challenge_list_open()) == []
    for name in ("ann", "ben", "cat"):
        assert selectors.challenge_get_visible(challenge_id=challenge.pk, user=people[name])
    with pytest.raises(errors.ChallengeNotFound):
        selectors.challenge_get_visible(challenge_id=challenge.pk, user=people["eve"])
    incoming = selectors.challenge_list_for_user(user=people["cat"], scope="incoming")
    assert list(incoming) == [challenge]
    assert list(selectors.challenge_list_for_user(user=people["eve"])) == []


def test_suspending_an_invited_player_closes_the_challenge(people):
    challenge = invite(people, "ben", "cat")
    user_suspend(user=people["cat"], actor=make_moderator(), reason="Spam")
    challenge.refresh_from_db()
    assert challenge.status == "cancelled"


def test_every_invited_player_hears_of_the_challenge_by_email(people):
    challenge = invite(people, "ben", "cat")
    received = OutboxEmail.objects.filter(event="challenge_received").order_by("recipient_id")
    assert [row.recipient.username for row in received] == ["ben", "cat"]
    assert [row.context["challenger_name"] for row in received] == ["ann", "ann"]
    assert [row.dedupe_key for row in received] == [
        f"challenge_received:{challenge.pk}:{people[name].pk}" for name in ("ben", "cat")
    ]


def test_the_decline_email_names_the_player_who_declined(people):
    challenge = invite(people, "ben", "cat")
    services.challenge_decline(challenge_id=challenge.pk, user=people["cat"])
    row = OutboxEmail.objects.get(recipient=people["ann"], event="challenge_declined")
    assert row.context["opponent_name"] == "cat"


# --- through the API ------------------------------------------------------------------------


def test_a_challenge_to_several_through_the_api(people):
    ann, ben, cat = (token_client(people[n]) for n in ("ann", "ben", "cat"))
    created = ann.post(
        f"{API}/challenges/", {"kind": "knot", "invited": ["ben", "cat"], "seat": 2}, format="json"
    )
    assert created.status_code == 201, created.json()
    body = created.json()
    assert (body["seat_count"], body["seat"], body["opponent"], body["entrants"]) == (
        3,
        2,
        None,
        [],
    )
    assert [(i["user"]["username"], i["accepted"]) for i in body["invited"]] == [
        ("ben", False),
        ("cat", False),
    ]
    incoming = cat.get(f"{API}/challenges/?scope=incoming").json()["results"]
    assert [c["id"] for c in incoming] == [body["id"]]
    assert ann.get(f"{API}/challenges/").json()["results"] == []  # not an open seek

    joined = ben.post(f"{API}/challenges/{body['id']}/accept/")
    assert joined.status_code == 200
    assert [(i["user"]["username"], i["accepted"]) for i in joined.json()["invited"]] == [
        ("ben", True),
        ("cat", False),
    ]
    started = cat.post(f"{API}/challenges/{body['id']}/accept/")
    assert started.status_code == 201
    game = started.json()
    assert game["seats"][1]["user"]["username"] == "ann"
    assert game["chance_commitment"] and game["chance_seed"] is None


@pytest.mark.parametrize(
    ("data", "status", "detail"),
    [
        ({"invited": ["ben", "nobody"]}, 404, "nobody"),
        ({"invited": ["ben", "cat"], "opponent": "dan"}, 400, "not both"),
        ({"invited": "ben"}, 400, None),
    ],
)
def test_a_bad_challenge_to_several_is_refused_through_the_api(people, data, status, detail):
    response = token_client(people["ann"]).post(
        f"{API}/challenges/", {"kind": "knot", **data}, format="json"
    )
    assert response.status_code == status, response.json()
    if detail is not None:
        assert detail in response.json()["detail"]


def test_a_decline_through_the_api_closes_it(people):
    ann = token_client(people["ann"])
    created = ann.post(f"{API}/challenges/", {"kind": "knot", "invited": ["ben", "cat"]})
    declined = token_client(people["ben"]).post(f"{API}/challenges/{created.json()['id']}/decline/")
    assert (declined.status_code, declined.json()["status"]) == (200, "declined")
