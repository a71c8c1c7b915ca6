"""The hooks for a message in a game and for the start of a tournament round."""

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


def test_a_round_tells_each_paired_player_their_game_and_each_bye_their_bye(alice, bob, game):
    carol = make_user("carol")
    kwargs = {"tournament_name": "Samhain Open", "round_number": 2, "games": [game]}
    events.on_tournament_round_started(**kwargs, byes=[carol])
    events.on_tournament_round_started(**kwargs, byes=[carol])  # twice: nothing more
    rows = {r.recipient.username: r for r in OutboxEmail.objects.all()}
    assert sorted(rows) == ["alice", "bob", "carol"]
    assert {r.subject for r in rows.values()} == {"Samhain Open: round 2 has started"}
    assert f"You play Orange against bob in game #{game.pk}." in rows["alice"].body_text
    assert f"You play Blue against Alice A. in game #{game.pk}." in rows["bob"].body_text
    assert "You have a bye this round." in rows["carol"].body_text
    assert rows["alice"].game == game and rows["carol"].game is None


def test_round_emails_follow_the_challenge_switch(alice, bob):
    set_profile(bob, notify_challenge=False)
    game = game_services.game_start(orange=alice, blue=bob)
    events.on_tournament_round_started(tournament_name="League", round_number=1, games=[game])
    assert list(OutboxEmail.objects.values_list("recipient__username", flat=True)) == ["alice"]
