"""Signed, expiring tokens that let a reply to a "your turn" email play a move.

A token names a game, the ply the move is for, the player and an expiry time, and carries an
HMAC of those (keyed from ``SECRET_KEY``) so it cannot be made up or altered. It is written in
lowercase letters, digits and ``-`` only (base-36 numbers, hex signature), so it survives mail
systems that lowercase the local part of an address. It travels as the plus part of the reply
address (``moves+<token>@celtic.example``) and as a subject tag (``[celtic:<token>]``).

A token for answering a challenge (accept or decline by email) has the same form with game 0,
which no game has, and the challenge's id where a game token has its ply.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

SALT = "celtic.notifications.reply_token"
SIGNATURE_LENGTH = 20  # hex digits: 80 bits
TOKEN_PATTERN = r"[0-9a-z]+(?:-[0-9a-z]+){4}"
SUBJECT_TAG = re.compile(rf"\[celtic:({TOKEN_PATTERN})\]", re.IGNORECASE)
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
CHALLENGE_GAME_ID = 0  # no game has id 0: the token answers a challenge


class ReplyTokenError(ValueError):
    """A token that cannot be used; ``reason`` is token_malformed, token_forged, token_expired
    (or no_token, for a message with none). An expired token was signed by us, so its
    ``token`` is still known."""

    def __init__(self, reason: str, message: str, token: ReplyToken | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.token = token


@dataclass(frozen=True)
class ReplyToken:
    game_id: int
    ply: int
    user_id: int
    expires_at: datetime

    @property
    def challenge_id(self) -> int | None:
        """The challenge this token answers, or None for a move in a game."""
        return self.ply if self.game_id == CHALLENGE_GAME_ID else None


def _base36(number: int) -> str:
    digits = ""
    while True:
        number, digit = divmod(number, 36)
        digits = _DIGITS[digit] + digits
        if not number:
            return digits


def _signature(payload: str) -> str:
    return salted_hmac(SALT, payload, algorithm="sha256").hexdigest()[:SIGNATURE_LENGTH]


def reply_token_make(*, game_id: int, ply: int, user_id: int, now: datetime | None = None) -> str:
    """A token for ``user_id``'s move at ``ply`` in ``game_id``, valid for
    ``CELTIC_REPLY_TOKEN_DAYS`` days."""
    expires = (now or timezone.now()) + timedelta(days=settings.CELTIC_REPLY_TOKEN_DAYS)
    payload = "-".join(_base36(n) for n in (game_id, ply, user_id, int(expires.timestamp())))
    return f"{payload}-{_signature(payload)}"


def challenge_reply_token_make(
    *, challenge_id: int, user_id: int, now: datetime | None = None
) -> str:
    """A token with which ``user_id`` accepts or declines ``challenge_id`` by email."""
    return reply_token_make(game_id=CHALLENGE_GAME_ID, ply=challenge_id, user_id=user_id, now=now)


def reply_token_parse(text: str, *, now: datetime | None = None) -> ReplyToken:
    """The token ``text`` stands for; raises ReplyTokenError saying what is wrong with it."""
    text = text.strip().lower()
    if not re.fullmatch(TOKEN_PATTERN, text):
        raise ReplyTokenError("token_malformed", "The reply token is not in the expected form.")
    payload, _, signature = text.rpartition("-")
    if not constant_time_compare(signature, _signature(payload)):
        raise ReplyTokenError(
            "token_forged", "The reply token's signature is wrong: it was altered or made up."
        )
    game_id, ply, user_id, expires = (int(part, 36) for part in payload.split("-"))
    token = ReplyToken(game_id, ply, user_id, datetime.fromtimestamp(expires, tz=UTC))
    if token.expires_at <= (now or timezone.now()):
        raise ReplyTokenError(
            "token_expired",
            f"The reply token expired on {token.expires_at:%Y-%m-%d %H:%M} UTC.",
            token=token,
        )
    return token


def reply_address(token: str) -> str:
    """The address a reply carrying ``token`` goes to; empty when moves by email are off."""
    local, at, domain = settings.CELTIC_MOVES_ADDRESS.partition("@")
    if not at:
        return ""
    return f"{local}+{token}@{domain}"


def subject_tag(token: str) -> str:
    return f"[celtic:{token}]"


def tokens_in_address(address: str) -> list[str]:
    """The token-shaped plus parts of an address (``moves+<token>@…``)."""
    local = address.rpartition("@")[0]
    _, plus, tail = local.partition("+")
    return [tail.lower()] if plus and re.fullmatch(TOKEN_PATTERN, tail, re.IGNORECASE) else []
