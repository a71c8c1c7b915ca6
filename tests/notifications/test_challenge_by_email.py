"""Answering a challenge by email: "accept" or "decline" as the first line of a reply to the
challenge-received email; refusals are answered with the reason."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

import pytest
import time_machine

from games import services as game_services
from games.models import Challenge, Game
from notifications.inbound import inbound_email_receive
from notifications.models import InboundEmail, OutboxEmail
from notifications.reply_tokens import challenge_reply_token_make, reply_token_parse
from tests.accounts.factories import make_user

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
_ids = iter(range(1, 10_000))


@pytest.fixture(autouse=True)
def _moves_address(settings):
    settings.CELTIC_MOVES_ADDRESS = "moves@celtic.example"
    settings.CELTIC_REPLY_TOKEN_DAYS = 30


@pytest.fixture(autouse=True)
def _frozen_clock():
    with time_machine.travel(T0, tick=False):
        yield


@pytest.fixture
def challenge(alice, bob) -> Challenge:
    return game_services.challenge_create(challenger=alice, opponent=bob, seat_choice=1)


def received_email(challenge: Challenge) -> OutboxEmail:
    return OutboxEmail.objects.get(event="challenge_received", recipient=challenge.opponent)


def answer_to(
    row: OutboxEmail, body: str, *, sender: str | None = None, to: str | None = None
) -> InboundEmail:
    message = EmailMessage()
    message["From"] = sender or row.to_address
    message["To"] = to or row.reply_to
    message["Subject"] = f"Re: {row.subject}"
    message["Message-ID"] = f"<answer-{next(_ids)}@mail.example.org>"
    message.set_content(body)
    return inbound_email_receive(raw=message.as_bytes())


def replies() -> list[OutboxEmail]:
    return list(OutboxEmail.objects.filter(event="challenge_reply").order_by("pk"))


def test_the_challenge_email_carries_a_reply_token_for_the_challenged_player(challenge, bob):
    row = received_email(challenge)
    token = reply_token_parse(row.reply_to.split("+")[1].split("@")[0], now=T0)
    assert (token.challenge_id, token.user_id, token.game_id) == (challenge.pk, bob.pk, 0)
    assert row.subject.endswith(f"[celtic:{row.reply_to.split('+')[1].split('@')[0]}]")
    assert "write <code>accept</code> (or <code>decline</code>)" in row.body_html


def test_a_game_token_is_not_a_challenge_token(alice, bob):
    game = game_services.game_start(players=[alice, bob])
    from notifications.reply_tokens import reply_token_make

    token = reply_token_parse(reply_token_make(game_id=game.pk, ply=3, user_id=bob.pk))
    assert token.challenge_id is None


def test_accept_starts_the_game_and_the_first_mover_gets_the_board(challenge, alice, bob):
    with time_machine.travel(T0 + timedelta(hours=1), tick=False):
        record = answer_to(received_email(challenge), "accept\n\nSee you on the board!")
    challenge.refresh_from_db()
    game = Game.objects.get(challenge=challenge)
    assert (record.outcome, record.reason, record.game, record.user) == (
        "accepted",
        "",
        game,
        bob,
    )
    assert challenge.status == "accepted"
    [confirmation] = replies()
    assert confirmation.recipient == bob and confirmation.reply_to == ""
    assert "you play Blue.\nAlice A. moves first; we will email you" in confirmation.body_text
    [first_turn] = OutboxEmail.objects.filter(event="your_turn")
    assert first_turn.recipient == alice and first_turn.reply_to.startswith("moves+")
    assert "You make the first move of the game." in first_turn.body_text
    assert first_turn.board_svg.startswith('<svg class="board"')


def test_decline_closes_the_challenge_and_is_confirmed(challenge, bob):
    record = answer_to(received_email(challenge), "Decline, sorry: too busy this month")
    challenge.refresh_from_db()
    assert (record.outcome, record.notation, challenge.status) == (
        "declined",
        "decline",
        "declined",
    )
    assert not Game.objects.exists()
    [confirmation] = replies()
    assert confirmation.subject == "You declined Alice A.'s challenge"
    assert f"You declined Alice A.'s challenge #{challenge.pk}." in confirmation.body_text


def test_an_already_accepted_challenge_is_refused_without_a_new_token(challenge, bob):
    game_services.challenge_accept(challenge_id=challenge.pk, user=bob)
    record = answer_to(received_email(challenge), "accept")
    assert (record.outcome, record.reason) == ("refused", "challenge_not_open")
    assert Game.objects.count() == 1
    [answer] = replies()
    assert answer.subject == (
        "Your answer to Alice A.'s challenge was not taken: the challenge is no longer open"
    )
    assert f"Challenge #{challenge.pk} is accepted, not open." in answer.body_text
    assert answer.reply_to == ""


def test_a_challenge_not_addressed_to_the_tokens_player_is_refused(challenge, bob):
    carol = make_user("carol")
    token = challenge_reply_token_make(challenge_id=challenge.pk, user_id=carol.pk)
    record = answer_to(
        received_email(challenge),
        "accept",
        sender="carol@example.org",
        to=f"moves+{token}@celtic.example",
    )
    assert (record.outcome, record.reason, record.user) == (
        "refused",
        "not_addressed_to_you",
        carol,
    )
    challenge.refresh_from_db()
    assert challenge.status == "open" and not Game.objects.exists()
    [answer] = replies()
    assert answer.recipient == carol
    assert f"Challenge #{challenge.pk} is addressed to someone else." in answer.body_text


def test_an_answer_from_another_address_is_refused_and_told_to_the_account(challenge, bob):
    record = answer_to(received_email(challenge), "accept", sender="mallory@evil.example")
    assert (record.outcome, record.reason) == ("refused", "sender_mismatch")
    challenge.refresh_from_db()
    assert challenge.status == "open"
    [answer] = replies()
    assert answer.to_address == "bob@example.org"
    assert "It was sent from mallory@evil.example" in answer.body_text


def test_an_expired_token_is_refused_with_a_fresh_one(challenge, bob):
    with time_machine.travel(T0 + timedelta(days=31), tick=False):
        record = answer_to(received_email(challenge), "accept")
        [answer] = replies()
        fresh = reply_token_parse(answer.reply_to.split("+")[1].split("@")[0])
    assert (record.outcome, record.reason) == ("refused", "token_expired")
    challenge.refresh_from_db()
    assert challenge.status == "open"
    assert "The reply token expired on 2026-04-01 09:00 UTC." in answer.body_text
    assert "reply to this email with accept (or decline)" in answer.body_text
    assert fresh.challenge_id == challenge.pk


def test_a_first_line_that_is_neither_answer_is_refused(challenge):
    record = answer_to(received_email(challenge), "maybe next week?")
    assert (record.outcome, record.reason) == ("refused", "no_answer")
    [answer] = replies()
    assert "“maybe next week?”, is neither accept nor decline." in answer.body_text
    assert answer.reply_to.startswith("moves+0-")


def test_the_same_answer_delivered_twice_is_handled_once(challenge):
    row = received_email(challenge)
    message = EmailMessage()
    message["From"], message["To"] = row.to_address, row.reply_to
    message["Subject"], message["Message-ID"] = "Re: x", "<twice@mail.example.org>"
    message.set_content("accept")
    first = inbound_email_receive(raw=message.as_bytes())
    second = inbound_email_receive(raw=message.as_bytes())
    assert first.pk == second.pk and Game.objects.count() == 1 and len(replies()) == 1
