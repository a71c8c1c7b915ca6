"""The game page's play aids: move confirmation (a profile option), the replay slider, record
downloads that the engine reads back, live status for polling pages, the tab title, and the
owner's conditional moves section."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Profile
from games import services
from games.kinds.celtic import GameRecord
from games.models import ConditionalLine, Game
from tests.games.conftest import API


@pytest.fixture
def game(alice, bob) -> Game:
    """alice (Orange) and bob (Blue) after "d5 ESW", "c5 ESW": alice to move at ply 2."""
    game = services.game_start(players=[alice, bob])
    services.move_submit(game_id=game.pk, user=alice, expected_ply=0, notation="d5 ESW")
    services.move_submit(game_id=game.pk, user=bob, expected_ply=1, notation="c5 ESW")
    game.refresh_from_db()
    return game


def page_for(user, game: Game, query: str = "") -> tuple[int, str]:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("games:game", args=[game.pk]) + query)
    return response.status_code, response.content.decode()


# --- confirmation ----------------------------------------------------------------------------


def test_confirmation_is_on_by_default_and_the_profile_turns_it_off(game, alice):
    assert Profile.objects.get(user=alice).confirm_moves is True
    _, html = page_for(alice, game)
    assert 'data-confirm="1"' in html
    assert 'id="confirm-bar"' in html

    Profile.objects.filter(user=alice).update(confirm_moves=False)
    _, html = page_for(alice, game)
    assert 'data-confirm="0"' in html


def test_the_profile_page_saves_the_confirmation_option(alice):
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("accounts:profile")).content.decode()
    assert 'name="confirm_moves"' in page

    response = client.post(
        reverse("accounts:profile"),
        {"email": "alice@example.org", "time_zone": "UTC", "notify_turn": "on"},
    )

    assert response.status_code == 302
    assert Profile.objects.get(user=alice).confirm_moves is False  # unticked


def test_the_api_changes_the_confirmation_option(alice_api, alice):
    response = alice_api.patch(f"{API}/accounts/me/", {"confirm_moves": False}, format="json")

    assert response.status_code == 200, response.json()
    assert response.json()["confirm_moves"] is False
    assert Profile.objects.get(user=alice).confirm_moves is False


# --- replay, title, downloads ------------------------------------------------------------------


def test_the_replay_slider_spans_the_plies_and_shows_the_chosen_one(game, alice):
    _, html = page_for(alice, game, "?ply=1")

    assert 'type="range" id="replay-ply" name="ply" min="0" max="2" value="1"' in html
    assert "the position after 1 of 2 turns" in html


def test_the_tab_title_says_when_it_is_your_turn(game, alice, bob):
    assert "<title>● Your turn — Game #" in page_for(alice, game)[1]
    assert "<title>Game #" in page_for(bob, game)[1]


@pytest.mark.parametrize("kind", ["text", "json"])
def test_both_downloads_round_trip_through_the_engine(game, alice, kind):
    client = Client()
    client.force_login(alice)

    response = client.get(reverse("games:game_record", args=[game.pk]), {"as": kind}, follow=True)

    assert response.status_code == 200
    suffix = "txt" if kind == "text" else "json"
    assert response["Content-Disposition"] == (
        f'attachment; filename="celtic-game-{game.pk}.{suffix}"'
    )
    body = response.content.decode()
    record = GameRecord.from_text(body) if kind == "text" else GameRecord.from_json(body)
    assert [str(turn) for turn in record.replay().history] == ["d5 ESW", "c5 ESW"]
    assert record.headers["Orange"] == "alice"


def test_the_page_links_both_downloads(game, alice):
    html = page_for(alice, game)[1]
    url = reverse("games:game_record", args=[game.pk])
    assert f'href="{url}?as=text" download' in html
    assert f'href="{url}?as=json" download' in html


# --- live status ------------------------------------------------------------------------------


def test_live_status_of_a_game(game, alice_api, bob_api, anon):
    assert alice_api.get(f"{API}/games/{game.pk}/live/").json() == {
        "id": game.pk,
        "ply": 2,
        "status": "active",
        "seat_to_move": 1,
        "to_move": "orange",
        "result": None,
        "your_turn": True,
    }
    assert bob_api.get(f"{API}/games/{game.pk}/live/").json()["your_turn"] is False
    assert anon.get(f"{API}/games/{game.pk}/live/").json()["your_turn"] is False


def test_live_status_of_my_games_follows_the_moves(game, alice, bob, bob_api, anon):
    other = services.game_start(players=[bob, alice])

    assert bob_api.get(f"{API}/games/live/").json() == {
        "your_turn": 1,
        "games": [
            {
                "id": game.pk,
                "ply": 2,
                "status": "active",
                "seat_to_move": 1,
                "to_move": "orange",
                "result": None,
                "your_turn": False,
            },
            {
                "id": other.pk,
                "ply": 0,
                "status": "active",
                "seat_to_move": 1,
                "to_move": "orange",
                "result": None,
                "your_turn": True,
            },
        ],
    }
    services.move_submit(game_id=game.pk, user=alice, expected_ply=2, notation="b5 E")
    body = bob_api.get(f"{API}/games/live/").json()
    assert (body["your_turn"], body["games"][0]["ply"]) == (2, 3)
    assert anon.get(f"{API}/games/live/").status_code == 401


def test_the_pages_carry_what_the_poller_compares(game, alice, bob):
    html = page_for(alice, game)[1]
    assert f'data-live-url="/api/v1/games/{game.pk}/live/" data-ply="2"' in html
    client = Client()
    client.force_login(bob)
    home = client.get(reverse("games:home")).content.decode()
    assert f'data-signature="{game.pk}:2"' in home


# --- conditional moves on the page ------------------------------------------------------------


def test_the_owner_sees_and_queues_conditional_moves_the_opponent_does_not(game, alice, bob):
    client = Client()
    client.force_login(bob)

    response = client.post(
        reverse("games:game_conditional_add", args=[game.pk]),
        {"ply": "2", "moves": "b5 E, c4 N"},
        follow=True,
    )

    html = response.content.decode()
    assert "Queued: if they play b5 E, you play c4 N." in html
    assert '<span class="theirs">if b5 E</span> <span class="reply">→ you c4 N</span>' in html
    assert 'id="conditional"' not in page_for(alice, game)[1]  # alice is to move: not hers


def test_a_refused_conditional_line_shows_why(game, bob):
    client = Client()
    client.force_login(bob)

    response = client.post(
        reverse("games:game_conditional_add", args=[game.pk]),
        {"ply": "2", "moves": "b5 E, b5 E"},
        follow=True,
    )

    assert "Move 2 (your reply) is illegal after b5 E: b5 E: b5 already holds a tile" in (
        response.content.decode()
    )
    assert not ConditionalLine.objects.exists()


def test_withdrawing_a_line_from_the_page(game, alice, bob):
    line = services.conditional_line_create(
        game_id=game.pk, user=bob, expected_ply=2, moves=["b5 E", "c4 N"]
    )
    thief = Client()
    thief.force_login(alice)
    url = reverse("games:game_conditional_delete", args=[game.pk, line.pk])
    assert thief.post(url).status_code == 404

    owner = Client()
    owner.force_login(bob)
    assert owner.post(url).status_code == 302
    assert not ConditionalLine.objects.exists()


def test_the_mover_is_told_their_opponents_queued_reply_was_played(game, alice, bob):
    services.conditional_line_create(
        game_id=game.pk, user=bob, expected_ply=2, moves=["b5 E", "c4 N"]
    )
    client = Client()
    client.force_login(alice)

    response = client.post(
        reverse("games:game_move", args=[game.pk]),
        {"ply": "2", "notation": "b5 E"},
        follow=True,
    )

    html = response.content.decode()
    assert "You played b5 E." in html
    assert "Your opponent had queued a reply: c4 N was played at once." in html
    assert json.loads(Client().get(f"{API}/games/{game.pk}/live/").content)["ply"] == 4
