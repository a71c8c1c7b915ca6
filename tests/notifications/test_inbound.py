"""Moves by email: replies to "your turn" emails play moves, or are refused and answered."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

import pytest
import time_machine
from django.core import mail

from games import services as game_services
from games.models import Game, Move
from notifications.events import on_turn
from notifications.inbound import first_reply_line, inbound_email_receive
from notifications.models import InboundEmail, OutboxEmail
from notifications.reply_tokens import reply_token_make
from notifications.services import digests_send
from tests.accounts.factories import make_user
from tests.notifications.conftest import set_profile

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
_ids = iter(range(1, 10_000))


@pytest.fixture(autouse=True)
def _moves_address(settings):
    settings.CELTIC_MOVES_ADDRESS = "moves@celtic.example"
    settings.CELTIC_REPLY_TOKEN_DAYS = 30


def token_for(game: Game, user, ply: int | None = None, now: datetime | None = None) -> str:
    ply = game.ply if ply is None else ply
    return reply_token_make(game_id=game.pk, ply=ply, user_id=user.pk, now=now)


def email(
    *,
    token: str | None = None,
    sender: str = "Alice <alice@example.org>",
    subject: str = "Re: Your move against bob",
    body: str | None = "d5 ESW\n",
    html: str | None = None,
    message_id: str | None = None,
    to: str | None = None,
) -> bytes:
    """A reply as a mail server would deliver it; the token goes in the plus address."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to or (f"moves+{token}@celtic.example" if token else "moves@celtic.example")
    message["Subject"] = subject
    message["Message-ID"] = message_id or f"<reply-{next(_ids)}@mail.example.org>"
    if body is not None:
        message.set_content(body)
        if html is not None:
            message.add_alternative(html, subtype="html")
    elif html is not None:
        message.set_content(html, subtype="html")
    return message.as_bytes()


def answers() -> list[OutboxEmail]:
    return list(OutboxEmail.objects.filter(event="email_move_reply").order_by("pk"))


def receive(raw: bytes) -> InboundEmail:
    return inbound_email_receive(raw=raw)


def played(game: Game) -> list[tuple[int, str]]:
    return list(Move.objects.filter(game=game).order_by("ply").values_list("ply", "notation"))


# --- moves that are played ----------------------------------------------------------------------


def test_a_good_move_in_the_body_is_played_and_confirmed_with_the_position(alice, bob, game):
    record = receive(email(token=token_for(game, alice), body="d5 esw\n\nThanks!\n"))
    assert (record.outcome, record.reason, record.notation) == ("moved", "", "d5 ESW")
    assert (record.user, record.game, record.ply) == (alice, game, 0)
    assert played(game) == [(0, "d5 ESW")]
    [answer] = answers()
    assert answer.recipient == alice and answer.to_address == "alice@example.org"
    assert answer.subject == f"Played d5 ESW in game #{game.pk} against bob"
    assert f"Your move d5 ESW in game #{game.pk} against bob was played." in answer.body_text
    assert "Ply 1: Orange played d5 ESW." in answer.body_text
    assert "Blue to move (" in answer.body_text
    assert "It is bob's move; we will email you when it is yours." in answer.body_text
    assert answer.reply_to == ""  # not alice's turn: nothing to reply with
    assert "Ply 1: Orange played d5 ESW." in answer.body_html
    # bob hears it is his turn, with a reply address of his own
    bob_turn = OutboxEmail.objects.get(event="your_turn", recipient=bob)
    assert bob_turn.reply_to.startswith("moves+") and bob_turn.reply_to.endswith("@celtic.example")


def test_a_move_in_the_subject_only_is_played(alice, game):
    token = token_for(game, alice)
    record = receive(email(subject=f"RE: Fwd: aw: d5 ESW [celtic:{token}]", body="\n\n", to="x@y"))
    assert (record.outcome, record.notation) == ("moved", "d5 ESW")
    assert played(game) == [(0, "d5 ESW")]


def test_quoted_text_and_signature_are_ignored(alice, game):
    body = "\n> It is your move as Orange\n>\nd5 ESW\n-- \nAlice\nf5 NE\n"
    record = receive(email(token=token_for(game, alice), body=body))
    assert (record.outcome, record.notation) == ("moved", "d5 ESW")


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("> quoted\n\n  d5 ESW  \n", "d5 ESW"),
        ("-- \nsignature d5 ESW\n", ""),
        ("On Mon, 2 Mar 2026, Celtic! <moves@celtic.example>\nwrote:\n> d5 ESW\n", ""),
        ("On Mon, 2 Mar 2026 Celtic! wrote:\nd5 ESW\n", ""),
        ("-----Original Message-----\nd5 ESW\n", ""),
        ("\n\n", ""),
    ],
)
def test_first_reply_line(text, line):
    assert first_reply_line(text) == line


def test_an_html_only_reply_is_read_without_its_quote(alice, game):
    html = (
        "<html><head><style>p {color: red}</style></head><body><div>d5&nbsp;ESW</div>"
        "<blockquote><p>f5 NE</p></blockquote></body></html>"
    )
    record = receive(email(token=token_for(game, alice), body=None, html=html))
    assert (record.outcome, record.notation) == ("moved", "d5 ESW")


def test_the_your_turn_email_carries_the_reply_address_and_subject_tag(
    alice, game, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        on_turn(game)
    [sent] = mail.outbox
    [reply_to] = sent.reply_to
    local, _, domain = reply_to.partition("@")
    token = local.removeprefix("moves+")
    assert domain == "celtic.example" and local.startswith("moves+")
    assert token == token.lower()
    assert sent.subject == f"Your move against bob (game #{game.pk}) [celtic:{token}]"
    assert "write your move as the first line of the reply,\ne.g. f5 NE" in sent.body
    # replying to it, as a mail program would, plays the move
    reply = email(token=token, subject="Re: " + sent.subject, body="d5 ESW\n\n> " + sent.body)
    assert receive(reply).outcome == "moved"


def test_moves_by_email_can_be_turned_off(settings, alice, game):
    settings.CELTIC_MOVES_ADDRESS = ""
    on_turn(game)
    row = OutboxEmail.objects.get(event="your_turn")
    assert row.reply_to == ""
    assert row.subject == f"Your move against bob (game #{game.pk})"
    assert "replying to this email" not in row.body_text


# --- refusals: the player is told why -----------------------------------------------------------


def test_an_illegal_move_is_refused_naming_the_rule(alice, game):
    record = receive(email(token=token_for(game, alice), body="f5 N\n"))
    assert (record.outcome, record.reason) == ("refused", "illegal_move")
    assert played(game) == []
    [answer] = answers()
    token = answer.reply_to.removeprefix("moves+").partition("@")[0]
    assert answer.subject == (
        f"Your move by email was not played in game #{game.pk}: illegal move [celtic:{token}]"
    )
    assert record.detail in answer.body_text
    assert "Rule 3: touching sides must match, open to open and closed to closed." in (
        answer.body_text
    )
    assert "Write a move as its cell" in answer.body_text
    assert "It is your move." in answer.body_text
    # the fresh token in the answer works
    assert receive(email(token=token, body="d5 ESW")).outcome == "moved"


def test_invalid_notation_is_refused_with_the_parser_message(alice, game):
    record = receive(email(token=token_for(game, alice), body="Sure, let me think\n"))
    assert (record.outcome, record.reason, record.notation) == (
        "refused",
        "invalid_notation",
        "Sure, let me think",
    )
    [answer] = answers()
    assert "the move could not be read" in answer.subject
    assert f"{record.detail}\n" in answer.body_text and record.detail
    assert "Write a move as its cell, its open sides in N E S W order" in answer.body_text


def test_a_stale_token_is_refused_when_the_game_moved_on(alice, bob, game):
    old = token_for(game, alice)
    assert receive(email(token=old, body="d5 ESW")).outcome == "moved"
    record = receive(email(token=old, body="c5 ESW"))
    assert (record.outcome, record.reason) == ("refused", "stale_ply")
    assert record.detail == "Your reply was for ply 0, but the game is now at ply 1."
    assert played(game) == [(0, "d5 ESW")]
    answer = answers()[-1]
    assert "the game has moved on" in answer.subject
    assert "It is bob's move" in answer.body_text
    assert answer.reply_to == ""  # not alice's turn: no fresh token


def test_a_stale_token_gets_a_fresh_one_when_it_is_the_players_turn_again(alice, bob, game):
    old = token_for(game, alice)
    game_services.move_submit(game_id=game.pk, user=alice, expected_ply=0, notation="d5 ESW")
    game_services.move_submit(game_id=game.pk, user=bob, expected_ply=1, notation="c5 ESW")
    record = receive(email(token=old, body="b5 EW"))
    assert record.detail == "Your reply was for ply 0, but the game is now at ply 2."
    answer = answers()[-1]
    assert answer.reply_to.startswith("moves+") and "It is your move." in answer.body_text


def test_a_token_for_the_other_players_turn_is_refused(alice, bob, game):
    # bob's token for ply 0 is valid and signed, but Orange moves at ply 0
    record = receive(email(token=token_for(game, bob), sender="bob@example.org"))
    assert (record.outcome, record.reason) == ("refused", "not_your_turn")
    assert record.detail == "It is Orange's turn, not yours."
    assert answers()[0].recipient == bob
    assert played(game) == []


def test_a_finished_game_takes_no_more_moves(alice, bob, game):
    token = token_for(game, alice)
    game_services.game_resign(game_id=game.pk, user=alice)
    record = receive(email(token=token))
    assert (record.outcome, record.reason) == ("refused", "game_not_active")
    [answer] = answers()
    assert "the game is over" in answer.subject
    assert "The game is over (finished): 0-1." in answer.body_text
    assert answer.reply_to == ""


def test_a_move_after_the_deadline_is_refused(alice, game):
    token = token_for(game, alice)
    with time_machine.travel(game.deadline + timedelta(minutes=1), tick=False):
        record = receive(email(token=token))
    assert (record.reason, played(game)) == ("time_expired", [])
    assert "your time ran out" in answers()[0].subject


def test_an_expired_token_is_refused_with_a_fresh_one(alice, game):
    with time_machine.travel(T0, tick=False):
        token = token_for(game, alice)
    with time_machine.travel(T0 + timedelta(days=30, seconds=1), tick=False):
        record = receive(email(token=token))
    assert (record.outcome, record.reason) == ("refused", "token_expired")
    assert record.detail == (
        "The reply token expired on 2026-04-01 09:00 UTC. "
        "Reply to the latest email about this game."
    )
    assert played(game) == []
    [answer] = answers()
    assert answer.recipient == alice and answer.reply_to.startswith("moves+")


def test_a_valid_token_from_another_sender_never_moves(alice, game):
    record = receive(email(token=token_for(game, alice), sender="mallory@evil.example"))
    assert (record.outcome, record.reason) == ("refused", "sender_mismatch")
    assert played(game) == []
    [answer] = answers()
    assert answer.to_address == "alice@example.org"  # never the forged sender
    assert "It was sent from mallory@evil.example, not from your account's address" in (
        answer.body_text
    )


def test_an_answer_is_sent_whatever_the_email_preferences(alice, game):
    set_profile(alice, notify_turn=False, email_digest=True)
    receive(email(token=token_for(game, alice), body="f5 N"))
    [answer] = answers()
    assert answer.digest is False


# --- dropped: nothing moves, no one is answered -------------------------------------------------


def tampered(token: str) -> str:
    last = "0" if token[-1] != "0" else "1"
    return token[:-1] + last


@pytest.mark.parametrize(
    "make_token",
    [
        lambda game, user: tampered(token_for(game, user)),
        # a signature copied from another game's token
        lambda game, user: f"{game.pk + 1:x}-" + token_for(game, user).partition("-")[2],
    ],
    ids=["tampered-signature", "other-game-id"],
)
def test_a_forged_token_never_moves_and_is_not_answered(alice, game, make_token):
    record = receive(email(token=make_token(game, alice)))
    assert (record.outcome, record.reason) == ("malformed", "token_forged")
    assert (record.user, record.game) == (None, None)
    assert played(game) == [] and answers() == []


def test_a_forged_sender_without_a_token_never_moves(alice, game):
    record = receive(email(token=None, sender="alice@example.org"))
    assert (record.outcome, record.reason) == ("malformed", "no_token")
    assert played(game) == [] and answers() == []


def test_a_token_of_the_wrong_shape_is_malformed(alice, game):
    record = receive(email(to="moves+hello-world@celtic.example", subject="[celtic:x-y]"))
    assert (record.outcome, record.reason) == ("malformed", "no_token")
    record = receive(email(subject="d5 ESW [celtic:1-0-1-zz-0123456789abcdef0123]", body=""))
    assert (record.outcome, record.reason) == ("malformed", "token_forged")


def test_a_suspended_players_token_is_dropped(alice, game):
    token = token_for(game, alice)
    alice.is_active = False
    alice.save()
    record = receive(email(token=token))
    assert (record.outcome, record.reason) == ("malformed", "unknown_user")
    assert played(game) == [] and answers() == []


def test_garbage_bytes_are_recorded_as_unparseable():
    raw = b"\x00\xff\xfe garbage without headers\nmore"
    record = receive(raw)
    assert (record.outcome, record.reason) == ("malformed", "unparseable")
    assert record.message_id.startswith("sha256:")
    assert receive(raw).pk == record.pk


def test_empty_input_is_recorded_and_dropped():
    record = receive(b" \n")
    assert (record.outcome, record.reason) == ("malformed", "empty")
    assert record.detail == "The message is empty: expected an RFC 822 email."
    assert receive(b"").pk != record.pk  # other bytes, another record
    assert answers() == []


def test_a_handling_failure_is_recorded_and_logged_not_raised(alice, game, monkeypatch, caplog):
    def broken(parsed, *, now):
        raise ValueError("a bug no one foresaw")

    monkeypatch.setattr("notifications.inbound._handle", broken)
    raw = email(token=token_for(game, alice))
    record = receive(raw)
    assert (record.outcome, record.reason) == ("malformed", "failed")
    assert record.detail == "Handling failed: ValueError: a bug no one foresaw"
    assert record.message_id.startswith("sha256:")
    assert "Inbound email could not be handled" in caplog.text
    assert receive(raw).pk == record.pk  # delivered again: found, not recorded twice
    assert played(game) == [] and answers() == []


def test_a_reply_with_no_move_anywhere_is_refused(alice, game):
    token = token_for(game, alice)
    record = receive(email(subject=f"Re: [celtic:{token}]", body="> d5 ESW\n", to="m@x"))
    assert (record.outcome, record.reason) == ("refused", "no_move")
    assert "no move found" in answers()[0].subject


def test_the_same_message_twice_is_handled_once(alice, game):
    raw = email(token=token_for(game, alice), message_id="<same@mail.example.org>")
    first = receive(raw)
    second = receive(raw)
    assert first.pk == second.pk
    assert InboundEmail.objects.count() == 1
    assert played(game) == [(0, "d5 ESW")]
    assert len(answers()) == 1


def test_another_player_is_unaffected_by_a_token_for_someone_else(alice, bob, game):
    carol = make_user("carol")
    other = game_services.game_start(players=[carol, bob])
    record = receive(email(token=token_for(game, alice), sender="carol@example.org"))
    assert record.reason == "sender_mismatch"
    assert played(other) == [] and played(game) == []


def test_a_digest_lists_turns_without_their_reply_tags(alice, game):
    set_profile(alice, email_digest=True)
    on_turn(game)
    [held] = OutboxEmail.objects.filter(event="your_turn")
    assert held.digest and "[celtic:" in held.subject
    digests_send()
    digest = OutboxEmail.objects.get(event="daily_digest")
    assert f"- Your move against bob (game #{game.pk})\n" in digest.body_text
    assert "[celtic:" not in digest.body_text and digest.reply_to == ""


def test_nul_characters_in_an_encoded_subject_are_dropped_before_storing():
    raw = (
        b"From: nobody@example.com\r\nTo: moves@celtic.localhost\r\n"
        b"Subject: =?utf-8?q?f5=00_NE?=\r\nMessage-ID: <nul-subject@example.com>\r\n\r\n"
    )
    record = inbound_email_receive(raw=raw)
    record.refresh_from_db()  # PostgreSQL refuses NUL in text: the row must have been stored
    assert record.subject == "f5 NE"
    assert record.outcome == "malformed"
