"""The player pages: home, challenges, the game page with its move form, replay and resign."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Challenge, Game, Move

pytestmark = pytest.mark.django_db


def make_user(username: str):
    return get_user_model().objects.create_user(username=username, password="pw-for-tests-1")


@pytest.fixture
def ann(db):
    return make_user("ann")


@pytest.fixture
def ben(db):
    return make_user("ben")


@pytest.fixture
def cat(db):
    """Plays in none of the games."""
    return make_user("cat")


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def game(ann, ben) -> Game:
    """Ann plays Orange and moves first."""
    return services.game_start(players=[ann, ben])


def game_url(game: Game, **query: object) -> str:
    url = reverse("games:game", args=[game.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def move(client: Client, game: Game, notation: str, ply: int | None = None):
    return client.post(
        reverse("games:game_move", args=[game.pk]),
        {"notation": notation, "ply": game.ply if ply is None else ply},
        follow=True,
    )


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def tile_groups(html: str) -> list[str]:
    return re.findall(r'<g class="tile [^"]*" data-cell="(\w\d)"', html)


# --- home and lists ---------------------------------------------------------------------------


def test_home_for_a_guest_welcomes_and_lists_public_games(client, game) -> None:
    response = client.get(reverse("games:home"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Celtic! by correspondence" in html
    assert reverse("accounts:signup") in html and reverse("accounts:login") in html
    assert reverse("games:game", args=[game.pk]) in html


def test_home_for_a_player_lists_their_turn_first_with_deadline(ann, ben, cat, game) -> None:
    other = services.game_start(players=[ben, ann])  # Ben to move: Ann waits
    incoming = services.challenge_create(challenger=cat, opponent=ann, message="A game?")
    response = logged_in(ann).get(reverse("games:home"))
    assert response.status_code == 200
    assert [g.pk for g in response.context["my_turn"]] == [game.pk]
    assert [g.pk for g in response.context["active_games"]] == [other.pk]
    assert [c.pk for c in response.context["incoming"]] == [incoming.pk]
    html = response.content.decode()
    assert "until " + f"{game.deadline:%a %-d %b %Y, %H:%M}" in html
    assert reverse("games:challenge_accept", args=[incoming.pk]) in html
    assert reverse("games:challenge_decline", args=[incoming.pk]) in html


def test_a_home_of_celtic_games_alone_names_no_kind_and_one_opponent(ann, ben, game) -> None:
    move(logged_in(ann), game, "f5 W")
    html = logged_in(ann).get(reverse("games:home")).content.decode()
    assert "Waiting for your opponent</h2>" in html
    assert "kind-tag" not in html
    assert "<td>1</td>" in html  # the turns: one step each in Celtic!


def test_the_messages_say_hello_to_the_one_opponent(ann, game) -> None:
    html = logged_in(ann).get(game_url(game)).content.decode()
    assert "No messages yet. Say hello to your opponent." in html


# --- challenges -------------------------------------------------------------------------------


def test_challenges_page_renders_for_guest_and_player(client, ann, ben) -> None:
    seek = services.challenge_create(challenger=ben)
    guest = client.get(reverse("games:challenges"))
    assert guest.status_code == 200
    assert [c.pk for c in guest.context["seeks"]] == [seek.pk]
    assert "Log in" in guest.content.decode()
    player = logged_in(ann).get(reverse("games:challenges"))
    html = player.content.decode()
    assert reverse("games:challenge_accept", args=[seek.pk]) in html
    assert 'name="csrfmiddlewaretoken"' in html


def test_create_a_direct_challenge_with_a_fischer_clock(ann, ben) -> None:
    response = logged_in(ann).post(
        reverse("games:challenges"),
        {
            "opponent": "ben",
            "seat": "2",
            "rated": "on",
            "public": "on",
            "clock_kind": "fischer",
            "days_per_move": 3,
            "bank_days": 7,
            "increment_days": 1,
            "max_days": 14,
            "message": "Good luck",
        },
        follow=True,
    )
    assert messages_of(response) == ["Challenge sent to ben."]
    challenge = Challenge.objects.get()
    assert (challenge.challenger, challenge.opponent, challenge.seat_choice) == (ann, ben, 2)
    clock = (challenge.clock_kind, challenge.bank_days, challenge.increment_days)
    assert clock == ("fischer", 7, 1)
    assert challenge.rated and challenge.public and not challenge.window_forfeit
    assert challenge.message == "Good luck"


def test_create_challenge_errors_show_on_the_form(ann) -> None:
    client = logged_in(ann)
    base = {
        "seat": "random",
        "clock_kind": "per_move",
        "days_per_move": 3,
        "bank_days": 10,
        "increment_days": 2,
        "max_days": 20,
    }
    unknown = client.post(reverse("games:challenges"), {**base, "opponent": "ghost"})
    assert unknown.status_code == 400
    assert "There is no active player called 'ghost'." in unknown.context["form"].errors["opponent"]
    myself = client.post(reverse("games:challenges"), {**base, "opponent": "ann"})
    assert myself.context["form"].errors["opponent"] == [
        "You cannot challenge yourself: name only the other players; you take a seat anyway."
    ]
    bad_clock = client.post(
        reverse("games:challenges"), {**base, "clock_kind": "fischer", "max_days": 5}
    )
    assert any("max_days is 5" in e for e in bad_clock.context["form"].non_field_errors())
    assert not Challenge.objects.exists()


def test_accept_starts_the_game_and_redirects_to_it(ann, ben) -> None:
    seek = services.challenge_create(challenger=ben, seat_choice=1)
    response = logged_in(ann).post(reverse("games:challenge_accept", args=[seek.pk]), follow=True)
    game = Game.objects.get()
    assert response.redirect_chain[-1][0] == reverse("games:game", args=[game.pk])
    assert game.seat_users() == [ben, ann]
    assert messages_of(response) == ["The game has started: you play Blue."]


def test_accepting_your_own_challenge_is_refused(ann) -> None:
    seek = services.challenge_create(challenger=ann)
    response = logged_in(ann).post(reverse("games:challenge_accept", args=[seek.pk]), follow=True)
    assert messages_of(response) == ["You cannot accept your own challenge; cancel it instead."]
    assert not Game.objects.exists()
    seek.refresh_from_db()
    assert seek.status == Challenge.Status.OPEN


def test_decline_and_cancel(ann, ben, cat) -> None:
    to_ben = services.challenge_create(challenger=ann, opponent=ben)
    decline_url = reverse("games:challenge_decline", args=[to_ben.pk])
    refused = logged_in(cat).post(decline_url, follow=True)
    assert messages_of(refused) == ["Only the challenged player can decline a direct challenge."]
    declined = logged_in(ben).post(decline_url, follow=True)
    assert messages_of(declined) == ["You declined ann's challenge."]
    to_ben.refresh_from_db()
    assert to_ben.status == Challenge.Status.DECLINED

    seek = services.challenge_create(challenger=ann)
    not_yours = logged_in(ben).post(reverse("games:challenge_cancel", args=[seek.pk]), follow=True)
    assert messages_of(not_yours) == ["Only the challenger can cancel a challenge."]
    cancelled = logged_in(ann).post(
        reverse("games:challenge_cancel", args=[seek.pk]), {"next": reverse("games:home")}
    )
    assert cancelled.status_code == 302 and cancelled["Location"] == reverse("games:home")
    seek.refresh_from_db()
    assert seek.status == Challenge.Status.CANCELLED


def test_challenge_actions_need_post_and_login(client, ann) -> None:
    seek = services.challenge_create(challenger=ann)
    url = reverse("games:challenge_accept", args=[seek.pk])
    assert logged_in(ann).get(url).status_code == 405
    response = client.post(url)
    assert response.status_code == 302 and response["Location"].startswith(
        reverse("accounts:login")
    )


def test_off_site_next_is_ignored(ann) -> None:
    seek = services.challenge_create(challenger=ann)
    response = logged_in(ann).post(
        reverse("games:challenge_cancel", args=[seek.pk]), {"next": "https://evil.example/"}
    )
    assert response["Location"] == reverse("games:challenges")


# --- the game page ----------------------------------------------------------------------------


@pytest.mark.parametrize("viewer", ["guest", "ann", "ben", "cat"])
def test_game_page_renders_for_everyone_who_may_see_it(viewer, game, ann, ben, cat) -> None:
    client = {
        "guest": Client(),
        "ann": logged_in(ann),
        "ben": logged_in(ben),
        "cat": logged_in(cat),
    }[viewer]
    response = client.get(game_url(game))
    assert response.status_code == 200
    html = response.content.decode()
    assert tile_groups(html) == ["e5"]
    assert "ann" in html and "ben" in html
    has_form = 'id="move-form"' in html
    assert has_form == (viewer == "ann")  # only the player to move gets the form
    assert ('id="legal-moves"' in html) == has_form


def test_private_game_is_404_for_outsiders(ann, ben, cat) -> None:
    private = services.game_start(players=[ann, ben], public=False)
    assert Client().get(game_url(private)).status_code == 404
    assert logged_in(cat).get(game_url(private)).status_code == 404
    assert logged_in(ben).get(game_url(private)).status_code == 200
    assert move(logged_in(cat), private, "f5 W").status_code == 404


def test_the_move_form_carries_the_ply_and_the_legal_moves(ann, game) -> None:
    response = logged_in(ann).get(game_url(game))
    html = response.content.decode()
    assert '<input type="hidden" name="ply" value="0"' in html
    legal = response.context["legal_json"]
    notations = {m["notation"] for m in legal["moves"]}
    assert "f5 W" in notations and "d5 E n" in notations
    assert all(m["icon"] in legal["icons"] for m in legal["moves"])
    assert 'data-cell="f5" tabindex="0" role="button"' in html
    assert "games/board.js" in html


def test_a_move_through_the_form_is_recorded(ann, game) -> None:
    response = move(logged_in(ann), game, "f5 w")
    assert response.redirect_chain[-1][0] == game_url(game)
    assert messages_of(response) == ["You played f5 W."]
    game.refresh_from_db()
    assert game.ply == 1 and game.seat_to_move == 2
    row = Move.objects.get(game=game)
    assert (row.ply, row.seat, row.kind, row.notation) == (0, 1, "move", "f5 W")
    assert sorted(tile_groups(response.content.decode())) == ["e5", "f5"]


def test_an_illegal_move_shows_the_rule_and_records_nothing(ann, game) -> None:
    response = move(logged_in(ann), game, "f5 N")
    (message,) = messages_of(response)
    assert message.startswith("f5 N: ")
    assert "west" in message  # the open side of e5 that f5 N would block
    assert not Move.objects.exists()
    game.refresh_from_db()
    assert game.ply == 0
    not_demand = move(logged_in(ann), game, "a1 N")
    assert "a1 is not a demand cell" in messages_of(not_demand)[0]


def test_unparseable_notation_says_what_is_expected(ann, game) -> None:
    response = move(logged_in(ann), game, "hello")
    (message,) = messages_of(response)
    assert "is not a move" in message and "'f5 NE'" in message
    assert not Move.objects.exists()


def test_a_stale_ply_shows_the_conflict(ann, ben, game) -> None:
    move(logged_in(ann), game, "f5 W")
    move(logged_in(ben), game, "d5 E", ply=1)
    response = move(logged_in(ann), game, "e6 S", ply=1)  # a page from before Ben's move
    assert messages_of(response) == ["The game is at ply 2, not 1: reload it and try again."]
    assert Move.objects.filter(game=game).count() == 2


def test_moving_out_of_turn_or_as_a_spectator_is_refused(ben, cat, game) -> None:
    assert messages_of(move(logged_in(ben), game, "f5 W")) == ["It is Orange's turn, not yours."]
    assert messages_of(move(logged_in(cat), game, "f5 W")) == [
        f"You are not a player in game #{game.pk}."
    ]
    assert not Move.objects.exists()


def test_replay_shows_earlier_positions(ann, ben, game) -> None:
    move(logged_in(ann), game, "f5 W")
    move(logged_in(ben), game, "d5 E", ply=1)
    client = Client()
    start = client.get(game_url(game, ply=0))
    assert start.status_code == 200 and start.context["replaying"]
    assert tile_groups(start.content.decode()) == ["e5"]
    one = client.get(game_url(game, ply=1)).content.decode()
    assert sorted(tile_groups(one)) == ["e5", "f5"]
    assert "position after 1 of 2 turns" in one
    assert '?ply=0" title="One turn back"' in one and '?ply=2" title="One turn forward"' in one
    now = client.get(game_url(game))
    assert sorted(tile_groups(now.content.decode())) == ["d5", "e5", "f5"]
    assert not now.context["replaying"]


def test_replay_hides_the_move_form(ann, ben, game) -> None:
    move(logged_in(ann), game, "f5 W")
    move(logged_in(ben), game, "d5 E", ply=1)
    html = logged_in(ann).get(game_url(game, ply=1)).content.decode()
    assert 'id="move-form"' not in html


@pytest.mark.parametrize(
    ("ply", "message"),
    [
        ("7", "ply 7 is outside this game: expected 0 to 0."),
        ("-1", "ply -1 is outside this game: expected 0 to 0."),
        ("abc", "ply='abc' is not a number: expected 0 to 0."),
    ],
)
def test_bad_replay_ply_gives_a_clear_message(game, ply, message) -> None:
    response = Client().get(game_url(game, ply=ply))
    assert response.status_code == 400
    assert message in response.content.decode().replace("&#x27;", "'")
    assert tile_groups(response.content.decode()) == ["e5"]


def test_move_list_is_numbered_like_the_record(ann, ben, game) -> None:
    move(logged_in(ann), game, "f5 W")
    move(logged_in(ben), game, "d5 E", ply=1)
    move(logged_in(ann), game, "e6 S n", ply=2)
    rows = Client().get(game_url(game)).context["move_rows"]
    assert [(r["number"], [t["text"] for t in r["turns"]]) for r in rows] == [
        (1, ["f5 W", "d5 E"]),
        (2, ["e6 S n"]),
    ]


def test_resign_asks_for_confirmation_then_ends_the_game(ann, game) -> None:
    client = logged_in(ann)
    url = reverse("games:game_resign", args=[game.pk])
    confirm = client.get(url)
    assert confirm.status_code == 200
    assert "Yes, resign" in confirm.content.decode()
    game.refresh_from_db()
    assert game.is_active
    response = client.post(url, follow=True)
    assert messages_of(response) == ["You resigned. Your opponent wins this game."]
    game.refresh_from_db()
    assert (game.status, game.result, game.termination) == ("finished", "0-1", "resignation")
    html = response.content.decode()
    assert "Orange resigned: Blue wins (0-1)." in html
    assert 'id="move-form"' not in html


def test_a_spectator_cannot_resign(cat, game) -> None:
    response = logged_in(cat).post(reverse("games:game_resign", args=[game.pk]), follow=True)
    assert messages_of(response) == [f"You are not a player in game #{game.pk}."]
    game.refresh_from_db()
    assert game.is_active


def test_finished_game_shows_result_and_final_knots(ann, ben, game) -> None:
    import random

    from games.selectors import game_position

    rng = random.Random(3)
    players = {1: logged_in(ann), 2: logged_in(ben)}
    for _ in range(60):
        game.refresh_from_db()
        if not game.is_active:
            break
        legal = game_position(game=game).legal_choices()
        move(players[game.seat_to_move], game, rng.choice(legal))
    game.refresh_from_db()
    assert not game.is_active and game.termination == "normal"
    response = Client().get(game_url(game))
    html = response.content.decode()
    assert "Final knots" in html
    assert {"1-0": "Orange wins", "0-1": "Blue wins", "1/2-1/2": "Draw"}[game.result] in html
    position = response.context["position"]
    assert response.context["knots"] == position["knots"]
    for colour in ("orange", "blue"):
        assert position["scores"][colour] == sorted(position["scores"][colour], reverse=True)
    assert len(tile_groups(html)) == len(position["tiles"])


def test_record_download_points_at_the_text_record(ann, ben, game) -> None:
    response = Client().get(reverse("games:game_record", args=[game.pk]))
    assert response.status_code == 302
    assert response["Location"] == f"/api/v1/games/{game.pk}/record/?as=text"
    private = services.game_start(players=[ann, ben], public=False)
    assert Client().get(reverse("games:game_record", args=[private.pk])).status_code == 404
