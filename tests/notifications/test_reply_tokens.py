"""Reply tokens: signed, expiring, and made of characters that survive any mail system."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from notifications.reply_tokens import (
    ReplyToken,
    ReplyTokenError,
    reply_address,
    reply_token_make,
    reply_token_parse,
    tokens_in_address,
)

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _settings(settings):
    settings.CELTIC_REPLY_TOKEN_DAYS = 30
    settings.CELTIC_MOVES_ADDRESS = "moves@celtic.example"


def test_a_token_round_trips_in_lowercase_letters_digits_and_dashes():
    token = reply_token_make(game_id=123456, ply=77, user_id=40, now=T0)
    assert re.fullmatch(r"[0-9a-z-]+", token)
    assert len(token.rpartition("-")[2]) == 20  # 80 bits of signature
    assert reply_token_parse(token, now=T0) == ReplyToken(
        game_id=123456, ply=77, user_id=40, expires_at=T0 + timedelta(days=30)
    )
    # a mail system that changes the case of the address does no harm
    assert reply_token_parse(token.upper(), now=T0).game_id == 123456


def test_a_token_expires_after_the_configured_days(settings):
    settings.CELTIC_REPLY_TOKEN_DAYS = 2
    token = reply_token_make(game_id=1, ply=0, user_id=1, now=T0)
    assert reply_token_parse(token, now=T0 + timedelta(days=2, seconds=-1)).ply == 0
    with pytest.raises(ReplyTokenError, match="expired on 2026-03-04 09:00 UTC") as caught:
        reply_token_parse(token, now=T0 + timedelta(days=2))
    assert caught.value.reason == "token_expired"
    assert caught.value.token == ReplyToken(1, 0, 1, T0 + timedelta(days=2))


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda t: t.replace("1-2-3-", "1-3-3-", 1), "token_forged"),  # another ply
        (lambda t: t.replace("1-2-3-", "1-2-4-", 1), "token_forged"),  # another user
        (lambda t: t[:-1] + ("1" if t[-1] == "0" else "0"), "token_forged"),
        (lambda t: t.rpartition("-")[0], "token_malformed"),
        (lambda t: t + "-x", "token_malformed"),
        (lambda t: "", "token_malformed"),
        (lambda t: t.replace("-", "."), "token_malformed"),
    ],
)
def test_an_altered_token_is_refused_with_the_reason(change, reason):
    token = reply_token_make(game_id=1, ply=2, user_id=3, now=T0)
    with pytest.raises(ReplyTokenError) as caught:
        reply_token_parse(change(token), now=T0)
    assert caught.value.reason == reason
    assert caught.value.token is None


def test_a_token_signed_with_another_secret_key_is_forged(settings):
    token = reply_token_make(game_id=1, ply=2, user_id=3, now=T0)
    settings.SECRET_KEY = "another-secret-key-" + "y" * 40
    with pytest.raises(ReplyTokenError, match="signature is wrong"):
        reply_token_parse(token, now=T0)


def test_the_reply_address_carries_the_token_as_its_plus_part(settings):
    assert reply_address("1-2-3-4-ab") == "moves+1-2-3-4-ab@celtic.example"
    assert tokens_in_address("MOVES+1-2-3-4-AB@Celtic.Example") == ["1-2-3-4-ab"]
    assert tokens_in_address("moves@celtic.example") == []
    assert tokens_in_address("alice+celtic@example.org") == []
    settings.CELTIC_MOVES_ADDRESS = ""
    assert reply_address("1-2-3-4-ab") == ""
