"""A whole game played by email replies only: the challenge accepted by a reply, every move
sent as a reply to the last "your turn" email, the result email with the rating change.

Everything goes through ``inbound_email_receive`` (as the mail server's pipe or the IMAP poll
would) and every outbox row it produces is sent by the worker's ``outbox_email_send``, so the
emails checked are the ones a player would get.
"""

from __future__ import annotations

import random
import struct
from datetime import UTC, datetime
from email.message import EmailMessage

import pytest
import time_machine
from django.core import mail

from games import services as game_services
from games.clock import ClockKind, TimeControl
from games.kinds.celtic.render import describe_result
from games.models import Game
from games.png import board_png
from games.selectors import game_position
from notifications.events import on_turn, on_turns
from notifications.inbound import inbound_email_receive
from notifications.models import InboundEmail, OutboxEmail
from notifications.position import position_svg
from notifications.reply_tokens import tokens_in_address
from notifications.services import BOARD_CID, outbox_email_send
from rankings.models import RatingSnapshot
from tests.accounts.factories import make_user

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
_ids = iter(range(1, 100_000))


@pytest.fixture(autouse=True)
def _moves_address(settings):
    settings.CELTIC_MOVES_ADDRESS = "moves@celtic.example"
    settings.DEFAULT_FROM_EMAIL = "Celtic! <noreply@celtic.example>"


def reply(row: OutboxEmail, *, body: str, sender: str | None = None) -> InboundEmail:
    """Answer ``row`` as a mail client does: to its Reply-To, "Re:" and the same subject."""
    message = EmailMessage()
    message["From"] = sender or row.to_address
    message["To"] = row.reply_to
    message["Subject"] = f"Re: {row.subject}"
    message["Message-ID"] = f"<reply-{next(_ids)}@mail.example.org>"
    message.set_content(f"{body}\n\nOn Mon, the site wrote:\n> {row.subject}\n")
    return inbound_email_receive(raw=message.as_bytes())


def send_all() -> None:
    """What the mail worker does: send every pending row (each exactly once)."""
    for pk in OutboxEmail.objects.filter(status="pending", digest=False).values_list(
        "pk", flat=True
    ):
        assert outbox_email_send(outbox_id=pk).status == "sent"


def token_of(row: OutboxEmail) -> str:
    [token] = tokens_in_address(row.reply_to)
    return token


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk, after checking the signature."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def inline_board(message) -> bytes:
    """The PNG a sent message carries with the Content-ID its HTML refers to."""
    parsed = message.message()
    assert parsed.get_content_type() == "multipart/related"
    images = [part for part in parsed.walk() if part.get_content_type() == "image/png"]
    [image] = images
    assert image["Content-ID"] == f"<{BOARD_CID}>"
    assert image["Content-Disposition"].startswith("inline")
    [html] = [body for body, kind in message.alternatives if kind == "text/html"]
    assert f'src="cid:{BOARD_CID}"' in html
    return image.get_payload(decode=True)


def test_a_whole_game_by_email_replies_only(alice, bob):
    rng = random.Random(7)
    with time_machine.travel(T0, tick=False):
        challenge = game_services.challenge_create(
            challenger=alice, opponent=bob, seat_choice=2, rated=True
        )
        [received] = OutboxEmail.objects.filter(event="challenge_received")
        assert received.recipient == bob and received.reply_to.startswith("moves+0-")
        assert received.subject.endswith(f"[celtic:{token_of(received)}]")
        assert "write accept (or decline) as the first line" in received.body_text
        send_all()

        accepted = reply(received, body="Accept")
        assert (accepted.outcome, accepted.notation) == ("accepted", "accept")
        game = Game.objects.get(challenge=challenge)
        assert accepted.game == game
        assert (game.seat_users(), game.seat_to_move) == ([bob, alice], 1)
        [confirmation] = OutboxEmail.objects.filter(event="challenge_reply")
        assert confirmation.recipient == bob
        assert confirmation.subject == (
            f"You accepted Alice A.'s challenge: game #{game.pk} has started"
        )
        assert "you play Orange.\nYou move first" in confirmation.body_text

        plies_by_email = 0
        last_played = ""
        while True:
            game.refresh_from_db()
            if not game.is_active:
                break
            mover = game.user_to_move()
            [turn] = OutboxEmail.objects.filter(
                dedupe_key=f"your_turn:{game.pk}:{game.ply}:{mover.pk}"
            )
            send_all()
            sent = next(m for m in reversed(mail.outbox) if m.subject == turn.subject)
            position = game_position(game=game)
            state = position.engine
            # the position: the terminal board in text, the page's drawing as PNG in HTML
            assert f"Ply {game.ply}:" in turn.body_text
            png = inline_board(sent)
            assert png == board_png(position_svg(game, state=position))
            assert png_size(png)[0] == 480
            # what the opponent just played, and the tiles and time left
            if game.ply == 0:
                assert "You make the first move of the game." in turn.body_text
            else:
                assert f"{last_played}.\n" in turn.body_text
                assert turn.subject.startswith(
                    f"Your move against {'Alice A.' if mover == bob else 'bob'} (game #{game.pk}): "
                )
            mine = state.supply(state.to_move)
            assert f"({game.seat_name(game.seat_to_move)}): {sum(mine.values())}" in turn.body_text
            assert "Time left on your clock: 3 d 0 h, move before" in turn.body_text
            assert turn.subject.endswith(f"[celtic:{token_of(turn)}]")

            move = str(rng.choice(state.legal_moves()))
            record = reply(turn, body=move.lower())
            assert (record.outcome, record.user, record.ply) == ("moved", mover, game.ply)
            plies_by_email += 1
            last_played = f"{game.seat_name(game.seat_to_move)} played {record.notation}"
            assert record.notation == move

        send_all()

    assert game.status == Game.Status.FINISHED and game.termination == "normal"
    assert plies_by_email >= 10
    assert InboundEmail.objects.exclude(outcome__in=["moved", "accepted"]).count() == 0
    # the answer to the last move says the result in full: the knots and both score lists
    last_answer = OutboxEmail.objects.filter(event="email_move_reply").latest("pk")
    result = describe_result(game_position(game=game).engine.result())
    assert f"The game is over (finished): {result}." in last_answer.body_text
    results = {row.recipient: row for row in OutboxEmail.objects.filter(event="game_finished")}
    assert set(results) == {alice, bob}
    for user in (alice, bob):
        snapshot = RatingSnapshot.objects.get(result__game_id=game.pk, player__user=user)
        before, after = round(snapshot.elo_before), round(snapshot.elo_after)
        assert before == 1500 and after != 1500
        delta = f"{after - before:+d}"
        body = results[user].body_text
        assert f"Your rating: 1500 → {after} ({delta})." in body
        assert "Finished, no moves left: " in body
        assert results[user].status == "sent"
    [winner] = [user for user, place in game.placings() if place == 1]
    assert "you won" in results[winner].subject


def test_a_game_without_a_time_limit_says_so(alice, bob):
    game_services.game_start(players=[alice, bob], time_control=TimeControl(kind=ClockKind.NONE))
    game = Game.objects.get()
    on_turn(game)
    row = OutboxEmail.objects.get(event="your_turn")
    assert "No time limit." in row.body_text and "Time left" not in row.body_text


def test_a_tournament_rounds_first_movers_get_the_board_and_a_reply_address(alice, bob):
    carol, dan = make_user("carol"), make_user("dan")
    games = game_services.games_start_many(pairs=[(alice, bob), (carol, dan)])
    on_turns(games)
    rows = OutboxEmail.objects.filter(event="your_turn").order_by("recipient__username")
    assert [row.recipient for row in rows] == [alice, carol]
    for row in rows:
        assert row.reply_to.startswith("moves+") and row.board_svg.startswith("<svg")
        assert "You make the first move of the game." in row.body_text
        assert "Time left on your clock: 3 d 0 h" in row.body_text
