"""The emails for a message in a game and for the end of a game."""

from __future__ import annotations

import pytest

from games import services as game_services
from games.models import GameMessage
from notifications import events
from notifications.models import OutboxEmail
from tests.accounts.factories import make_user
from tests.notifications.conftest import set_profile

pytestmark = pytest.mark.django_db


def test_a_message_notifies_the_opponent_only(alice, bob, game):
    message = GameMessage.objects.create(game=game, author=bob, body="Good luck!\nHave fun.")
    events.on_game_message(message)
    events.on_game_message(message)  # twice: one email
    [row] = OutboxEmail.objects.all()
    assert (row.recipient, row.event, row.game) == (alice, "game_message", game)
    assert row.subject == f"bob wrote to you in game #{game.pk}"
    assert "Good luck!\nHave fun." in row.body_text
    assert "Good luck!<br>Have fun." in row.body_html


def test_a_hidden_message_or_a_non_players_message_notifies_no_one(alice, bob, game):
    carol = make_user("carol")
    GameMessage.objects.create(game=game, author=carol, body="Spectator here")
    hidden = GameMessage.objects.create(
        game=game, author=bob, body="rude", hidden_at=game.created_at
    )
    for message in GameMessage.objects.all():
        events.on_game_message(message)
    assert hidden.is_hidden
    assert OutboxEmail.objects.count() == 0


def test_messages_follow_the_notify_message_switch(alice, bob, game):
    set_profile(alice, notify_message=False)
    events.on_game_message(GameMessage.objects.create(game=game, author=bob, body="Hi"))
    assert OutboxEmail.objects.count() == 0


def play_to_the_end(game, seed: int):
    import random

    from games.selectors import game_position

    rng = random.Random(seed)
    while game.is_active:
        move = str(rng.choice(game_position(game=game).legal_choices()))
        user = game.user_to_move()
        game = game_services.move_submit(
            game_id=game.pk, user=user, expected_ply=game.ply, notation=move
        ).game
    return game


def test_the_result_email_lists_the_final_knots_and_scores(alice, bob, game):
    from games.selectors import game_position

    game = play_to_the_end(game, seed=3)
    result = game_position(game=game).engine.result()
    assert game.termination == "normal" and result.knots, "pick a seed whose game closes a knot"
    body = OutboxEmail.objects.get(recipient=alice, event="game_finished").body_text
    assert f"Closed knots on the final board: {len(result.knots)}." in body
    for knot in result.knots:
        line = f"- a knot of {len(knot.cells)} tiles: Orange {knot.orange}, Blue {knot.blue}"
        assert line in body
    orange = ", ".join(map(str, result.score.orange))
    blue = ", ".join(map(str, result.score.blue))
    assert f"Knot scores, best first: Orange {orange}; Blue {blue}." in body
    html = OutboxEmail.objects.get(recipient=bob, event="game_finished").body_html
    assert f"Orange <strong>{orange}</strong>; Blue <strong>{blue}</strong>" in html


def test_a_resignation_before_any_move_mentions_no_knots(alice, bob, game):
    events.on_game_finished(game_services.game_resign(game_id=game.pk, user=alice))
    body = OutboxEmail.objects.get(recipient=alice).body_text
    assert "you lost (0-1).\nOrange resigned: Blue wins (0-1)." in body
    assert "knot" not in body.lower()
