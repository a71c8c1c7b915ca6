"""Each way a game ends, as the result email and ``games.selectors.termination_text`` say it;
and the board picture those emails and the your-turn emails carry."""

from __future__ import annotations

import struct
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.contrib.auth.models import Permission
from django.core import mail

from games import services as game_services
from games.models import Game
from games.png import board_png
from games.selectors import game_position, termination_text
from games.timeouts import game_timeouts_decide
from notifications.models import OutboxEmail
from notifications.position import position_svg
from notifications.services import BOARD_CID, outbox_email_send
from tests.accounts.factories import make_user

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
def moderator():
    user = make_user("mod")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.user_permissions.add(
        *Permission.objects.filter(codename__in=["annul_game", "adjudicate_game"])
    )
    return type(user).objects.get(pk=user.pk)  # no stale permission cache


def result_email(user) -> OutboxEmail:
    return OutboxEmail.objects.filter(recipient=user, event="game_finished").order_by("-pk")[0]


def play(game: Game, *moves: str) -> Game:
    for move in moves:
        game.refresh_from_db()
        game_services.move_submit(
            game_id=game.pk, user=game.user_to_move(), expected_ply=game.ply, notation=move
        )
    game.refresh_from_db()
    return game


def test_an_active_game_says_who_is_to_move(game):
    assert termination_text(game=game) == "In progress: Orange to move."


def test_resignation(game, alice, bob):
    game_services.game_resign(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert termination_text(game=game) == "Blue resigned: Orange wins (1-0)."
    body = result_email(alice).body_text
    assert "is over: you won (1-0).\nBlue resigned: Orange wins (1-0).\n" in body
    assert "Your rating: 1500 → " in body and "(+" in body


def test_time_forfeit(alice, bob):
    with time_machine.travel(T0, tick=False):
        game = play(game_services.game_start(players=[alice, bob]), "d5 ESW")
    game_timeouts_decide(now=T0 + timedelta(days=4))
    game.refresh_from_db()
    assert termination_text(game=game) == "Blue ran out of time: Orange wins (1-0)."
    assert "Blue ran out of time: Orange wins (1-0)." in result_email(bob).body_text


def test_an_unstarted_game_annulled_by_the_clock(alice, bob):
    with time_machine.travel(T0, tick=False):
        game = game_services.game_start(players=[alice, bob])
    game_timeouts_decide(now=T0 + timedelta(days=4))
    game.refresh_from_db()
    expected = "Annulled: no move was made before the deadline."
    assert termination_text(game=game) == expected
    assert f"was annulled. It counts for nothing.\n{expected}" in result_email(alice).body_text


def test_a_moderators_annulment_says_so_and_why_even_before_any_move(game, alice, moderator):
    game_services.game_annul(game_id=game.pk, actor=moderator, reason="Duplicate accounts.")
    game.refresh_from_db()
    assert termination_text(game=game) == "Annulled by a moderator: Duplicate accounts."
    body = result_email(alice).body_text
    assert "Annulled by a moderator: Duplicate accounts." in body
    assert "no move was made" not in body
    assert result_email(alice).subject == f"Game #{game.pk} against bob: annulled"


def test_an_adjudication_says_a_moderator_decided_and_why(game, alice, bob, moderator):
    play(game, "d5 ESW")
    game_services.game_adjudicate(
        game_id=game.pk, actor=moderator, result="0-1", reason="Orange stopped answering."
    )
    game.refresh_from_db()
    expected = "Adjudicated by a moderator: Blue wins (0-1). Reason: Orange stopped answering."
    assert termination_text(game=game) == expected
    assert expected in result_email(bob).body_text
    assert "you won (0-1)" in result_email(bob).body_text


def test_a_later_decision_on_a_finished_game_is_emailed_again(game, alice, bob, moderator):
    game_services.game_resign(game_id=game.pk, user=bob)
    game_services.game_adjudicate(
        game_id=game.pk, actor=moderator, result="1/2-1/2", reason="The resignation was a misclick."
    )
    subjects = list(
        OutboxEmail.objects.filter(recipient=alice, event="game_finished")
        .order_by("pk")
        .values_list("subject", flat=True)
    )
    assert subjects == [
        f"Game #{game.pk} against bob: you won",
        f"Game #{game.pk} against bob: you drew",
    ]
    assert "Reason: The resignation was a misclick." in result_email(alice).body_text


def test_an_unrated_game_shows_no_rating_line(alice, bob):
    game = game_services.game_start(players=[alice, bob], rated=False)
    game_services.game_resign(game_id=game.pk, user=alice)
    assert "Your rating" not in result_email(bob).body_text


# --- the board picture --------------------------------------------------------------------------


def test_the_turn_email_is_sent_with_the_board_as_an_inline_png(game, alice, bob):
    game = play(game, "d5 ESW")
    row = OutboxEmail.objects.get(event="your_turn", recipient=bob)
    assert f'<img src="cid:{BOARD_CID}"' in row.body_html
    assert outbox_email_send(outbox_id=row.pk).status == "sent"
    [message] = mail.outbox
    parsed = message.message()
    assert parsed.get_content_type() == "multipart/related"
    first, image = parsed.get_payload()
    assert first.get_content_type() == "multipart/alternative"
    assert image.get_content_type() == "image/png"
    assert image["Content-ID"] == "<board@celtic>"
    data = image.get_payload(decode=True)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (480, 480)  # the 5x5 window is square
    assert data == board_png(position_svg(game, state=game_position(game=game)))
    assert data != board_png(position_svg(game, state=game_position(game=game, ply=0)))


def test_an_email_without_a_board_stays_plain_alternatives(game, alice, bob):
    game_services.game_resign(game_id=game.pk, user=bob)
    row = result_email(alice)
    assert row.board_svg == ""
    outbox_email_send(outbox_id=row.pk)
    [message] = mail.outbox
    assert message.message().get_content_type() == "multipart/alternative"
