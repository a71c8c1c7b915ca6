"""A player's private notes (API and page) and the analysis board (the legal moves and
positions of the API with tried moves, and its page): nothing of either reaches the game or
anyone else."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import selectors, services
from games.models import Game, GameNote, Move
from tests.accounts.factories import make_moderator, make_superuser
from tests.games.conftest import API, token_client

pytestmark = pytest.mark.django_db


def note_url(game_id: int) -> str:
    return f"{API}/games/{game_id}/note/"


def first_moves(game: Game, count: int) -> list[str]:
    """``count`` moves, each the first legal one in turn from the game's position."""
    state = selectors.game_position(game=game)
    line = []
    for _ in range(count):
        move = sorted(state.legal_choices())[0]
        state.play(move)
        line.append(move)
    return line


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- notes --------------------------------------------------------------------------------


def test_a_player_writes_and_reads_their_own_notes(game, alice_api) -> None:
    assert alice_api.get(note_url(game.pk)).json() == {"body": "", "updated_at": None}

    saved = alice_api.put(note_url(game.pk), {"body": "  Keep e4 open. "}, format="json")

    assert saved.status_code == 200 and saved.json()["body"] == "Keep e4 open."
    assert alice_api.get(note_url(game.pk)).json()["body"] == "Keep e4 open."


def test_notes_are_never_readable_by_anyone_else(game, alice, alice_api, bob_api, carol_api):
    alice_api.put(note_url(game.pk), {"body": "secret plan"}, format="json")
    moderator = token_client(make_moderator())
    root = token_client(make_superuser())

    assert bob_api.get(note_url(game.pk)).json()["body"] == ""  # the opponent has their own
    for outsider in (carol_api, moderator, root):
        answer = outsider.get(note_url(game.pk))
        assert answer.status_code == 404, answer.json()
        assert "secret plan" not in answer.content.decode()
    assert moderator.put(note_url(game.pk), {"body": "x"}, format="json").status_code == 404
    assert GameNote.objects.get().owner == alice


def test_notes_stay_readable_to_their_owner_after_the_game(game, alice, alice_api) -> None:
    alice_api.put(note_url(game.pk), {"body": "Lost the corner"}, format="json")
    services.game_resign(game_id=game.pk, user=alice)

    assert alice_api.get(note_url(game.pk)).json()["body"] == "Lost the corner"
    page = logged_in(alice).get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Lost the corner" in page


def test_an_empty_body_deletes_the_notes_and_a_long_one_is_refused(game, alice_api) -> None:
    alice_api.put(note_url(game.pk), {"body": "first"}, format="json")
    assert alice_api.put(note_url(game.pk), {"body": " "}, format="json").json()["body"] == ""
    assert not GameNote.objects.exists()

    too_long = alice_api.put(note_url(game.pk), {"body": "x" * 10001}, format="json")

    assert too_long.status_code == 400
    assert too_long.json()["code"] == "note_too_long"
    assert "10001 characters long; at most 10000" in too_long.json()["detail"]


def test_notes_on_the_game_page_are_shown_only_to_their_owner(game, alice, bob) -> None:
    page = reverse("games:game", args=[game.pk])
    saved = logged_in(alice).post(reverse("games:game_note_save", args=[game.pk]), {"body": "A"})

    assert saved.status_code == 302 and saved["Location"].endswith("#notes")
    assert '<textarea id="note-body" name="body" rows="5" maxlength="10000">A</textarea>' in (
        logged_in(alice).get(page).content.decode()
    )
    assert '<textarea id="note-body" name="body" rows="5" maxlength="10000"></textarea>' in (
        logged_in(bob).get(page).content.decode()
    )
    moderator = logged_in(make_moderator())
    assert 'id="notes"' not in moderator.get(page).content.decode()
    note_post = reverse("games:game_note_save", args=[game.pk])
    assert moderator.post(note_post, {"body": "B"}).status_code == 404


# --- the analysis board: the API -------------------------------------------------------------


def test_legal_moves_and_positions_after_tried_moves(game, alice_api) -> None:
    line = first_moves(game, 2)
    expected = selectors.analysis_position(game=game, moves=line)

    legal = alice_api.get(f"{API}/games/{game.pk}/legal-moves/", {"after": ",".join(line)})
    position = alice_api.get(f"{API}/games/{game.pk}/positions/0/", {"after": ",".join(line)})

    assert legal.json() == {
        "ply": 2,
        "seat_to_move": 1,
        "to_move": "orange",
        "moves": sorted(expected.legal_choices()),
    }
    assert position.json()["ply"] == 2
    assert {t["cell"] for t in position.json()["tiles"]} >= {m.split()[0] for m in line}
    assert Move.objects.filter(game=game).count() == 0  # the game never sees a tried move


def test_an_illegal_tried_move_is_refused_with_its_place(game, alice_api) -> None:
    first = first_moves(game, 1)[0]

    answer = alice_api.get(f"{API}/games/{game.pk}/legal-moves/", {"after": f"{first},{first}"})

    assert answer.status_code == 400
    assert answer.json()["code"] == "illegal_move" and answer.json()["index"] == 2
    empty = alice_api.get(f"{API}/games/{game.pk}/legal-moves/", {"after": f"{first},,"})
    assert empty.status_code == 400 and "empty move" in empty.json()["detail"]


# --- the analysis board: the page ------------------------------------------------------------


def test_analysis_page_tries_takes_back_and_resets_without_touching_the_game(game, alice):
    client = logged_in(alice)
    url = reverse("games:game_analysis", args=[game.pk])
    one, two = first_moves(game, 2)

    tried = client.get(url, {"line": one, "notation": two})

    page = tried.content.decode()
    assert tried.status_code == 200
    assert f"<li>{one}</li><li>{two}</li>" in page
    take_back = tried.context["take_back_url"]
    assert client.get(take_back).context["line"] == [one]
    assert tried.context["reset_url"] == url
    assert client.get(url).context["line"] == []
    game.refresh_from_db()
    assert game.ply == 0 and not Move.objects.exists()


def test_analysis_page_refuses_an_illegal_try_and_keeps_the_line_before_it(game, alice):
    one = first_moves(game, 1)[0]

    answer = logged_in(alice).get(
        reverse("games:game_analysis", args=[game.pk]), {"line": one, "notation": one}
    )

    assert answer.status_code == 400
    assert answer.context["line"] == [one]
    assert "Tried move 2" in answer.content.decode()


def test_analysis_page_works_without_script_through_the_legal_move_links(game, alice) -> None:
    url = reverse("games:game_analysis", args=[game.pk])
    page = logged_in(alice).get(url)
    first_link = page.context["legal"][0]

    followed = logged_in(alice).get(first_link["url"])

    assert followed.context["line"] == [first_link["notation"]]
    assert f'href="{first_link["url"]}"'.replace("&", "&amp;") in page.content.decode()


def test_a_private_games_analysis_is_not_found_for_outsiders(alice, bob, carol) -> None:
    private = services.game_start(players=[alice, bob], public=False)
    url = reverse("games:game_analysis", args=[private.pk])

    assert logged_in(carol).get(url).status_code == 404
    assert logged_in(alice).get(url).status_code == 200
