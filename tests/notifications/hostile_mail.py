"""A corpus of hostile inbound mail, built as raw bytes, with the outcome each must get.

Every case is what a mail server might pipe in or an IMAP mailbox might hold: raw non-UTF-8
bytes in headers and in the Message-ID, 8bit junk, deep MIME nesting, huge bodies, binary
garbage, empty input, missing headers, forged tokens, forged senders, and
Authentication-Results headers from trusted and untrusted hosts. ``test_hostile_mail.py``
feeds each one to ``receive_email`` (standard input bytes) and to the inbound service.

Builders take a ``Mailer`` (alice's valid token and a few helpers) and return bytes, so the
corpus holds real tokens without a database at import time.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

# The settings the corpus expects (set by the test module's fixture).
TRUSTED_AUTHSERV_ID = "mx.celtic.example"
MAX_BYTES = 100_000
MAX_DEPTH = 10
MAX_CONTAINERS = 4 * MAX_DEPTH  # parts holding other parts, counted before parsing


@dataclass(frozen=True)
class Mailer:
    """What the builders need: alice's valid reply token, and a forged variant of it."""

    token: str
    forged_token: str


@dataclass(frozen=True)
class HostileCase:
    """One hostile message and what must become of it.

    ``answered``: alice (the token's player, at her account address) gets an answer;
    nobody else is ever answered. ``moved``: the move d5 ESW was played.
    """

    name: str
    build: Callable[[Mailer], bytes]
    outcome: str
    reason: str
    answered: bool
    moved: bool = False


def reply(
    token: str | None,
    content_type: bytes = b"text/plain; charset=utf-8",
    body: bytes = b"d5 ESW\r\n",
    *,
    sender: bytes = b"Alice <alice@example.org>",
    subject: bytes = b"Re: Your move against bob",
    message_id: bytes | None = b"<hostile@mail.example.org>",
    headers: tuple[bytes, ...] = (),
) -> bytes:
    """A reply as raw bytes, header by header: nothing is re-encoded on the way."""
    lines = [
        b"From: " + sender,
        b"To: moves+" + token.encode() + b"@celtic.example" if token else b"To: moves@x.example",
        b"Subject: " + subject,
        *((b"Message-ID: " + message_id,) if message_id is not None else ()),
        *headers,
        b"MIME-Version: 1.0",
        b"Content-Type: " + content_type,
        b"Content-Transfer-Encoding: 8bit",
    ]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


def nested_multipart(depth: int) -> tuple[bytes, bytes]:
    """A Content-Type and body: ``depth`` multiparts inside each other, the move innermost."""
    body = b"Content-Type: text/plain\r\n\r\nd5 ESW\r\n"
    for level in range(depth - 1, 0, -1):
        boundary = b"b%d" % level
        body = (
            b"Content-Type: multipart/mixed; boundary=" + boundary + b"\r\n\r\n"
            b"--" + boundary + b"\r\n" + body + b"\r\n--" + boundary + b"--\r\n"
        )
    return b"multipart/mixed; boundary=b0", b"--b0\r\n" + body + b"\r\n--b0--\r\n"


def nested_rfc822(depth: int) -> tuple[bytes, bytes]:
    """``depth`` forwarded messages (message/rfc822) inside each other."""
    body = b"Content-Type: text/plain\r\n\r\nd5 ESW\r\n"
    for _ in range(depth - 1):
        body = b"Content-Type: message/rfc822\r\n\r\nSubject: fwd\r\n" + body
    return b"message/rfc822", b"Subject: fwd\r\n" + body


def many_containers(count: int) -> tuple[bytes, bytes]:
    """A flat multipart holding ``count - 1`` empty multiparts side by side, then the move."""
    empty = b"Content-Type: multipart/mixed; boundary=e\r\n\r\n--e--\r\n"
    parts = [empty] * (count - 1) + [b"Content-Type: text/plain\r\n\r\nd5 ESW\r\n"]
    body = b"".join(b"--top\r\n" + part + b"\r\n" for part in parts) + b"--top--\r\n"
    return b"multipart/mixed; boundary=top", body


def authentication_results(*values: bytes) -> tuple[bytes, ...]:
    return tuple(b"Authentication-Results: " + value for value in values)


def binary_garbage() -> bytes:
    """64 KiB of seeded random bytes, with no line that could read as a header."""
    rng = random.Random(20261122)
    return b"\x00\xfe" + bytes(rng.getrandbits(8) for _ in range(65_536))


def _deep(depth: int) -> Callable[[Mailer], bytes]:
    def build(m: Mailer) -> bytes:
        content_type, body = nested_multipart(depth)
        return reply(m.token, content_type=content_type, body=body)

    return build


def _rfc822(depth: int) -> Callable[[Mailer], bytes]:
    def build(m: Mailer) -> bytes:
        content_type, body = nested_rfc822(depth)
        return reply(m.token, content_type=content_type, body=body)

    return build


HUGE_BODY = b"d5 ESW\r\n" + b"x" * 76 + b"\r\n" + (b"y" * 76 + b"\r\n") * (MAX_BYTES // 78)

CORPUS: list[HostileCase] = [
    # --- raw bytes that are not UTF-8 ---------------------------------------------------------
    HostileCase(
        "latin1-subject",
        lambda m: reply(m.token, subject=b"Re: Ton coup \xe9t\xe9 \xff"),
        "moved",
        "",
        answered=True,
        moved=True,
    ),
    HostileCase(
        "latin1-message-id",
        lambda m: reply(m.token, message_id=b"<caf\xe9\xff\xfe@mail.example.org>"),
        "moved",
        "",
        answered=True,
        moved=True,
    ),
    HostileCase(
        "latin1-sender-name",
        lambda m: reply(m.token, sender=b"Al\xefce \xff\xfe <alice@example.org>"),
        "moved",
        "",
        answered=True,
        moved=True,
    ),
    HostileCase(
        "non-utf8-sender-address",
        lambda m: reply(m.token, sender=b"al\xffce@example.org"),
        "refused",
        "sender_mismatch",
        answered=True,
    ),
    HostileCase(
        "8bit-junk-in-a-utf8-body",
        lambda m: reply(m.token, body=b"d5 ESW\r\n\xff\xfe\xc3\x28 \x80\x81 junk\r\n"),
        "moved",
        "",
        answered=True,
        moved=True,
    ),
    HostileCase(
        "8bit-junk-first-line",
        lambda m: reply(m.token, body=b"\xff\xfe\xc3\x28\r\nd5 ESW\r\n"),
        "refused",
        "invalid_notation",
        answered=True,
    ),
    HostileCase(
        "unknown-body-charset",
        lambda m: reply(m.token, content_type=b"text/plain; charset=x-no-such-charset"),
        "moved",
        "",
        answered=True,
        moved=True,
    ),
    HostileCase(
        "broken-base64-encoded-word",
        lambda m: reply(m.token, subject=b"=?utf-8?b?!!!not-base64?= Re: move"),
        "moved",
        "",
        answered=True,
        moved=True,
    ),
    HostileCase(
        "unknown-charset-encoded-word",
        lambda m: reply(m.token, subject=b"=?x-unknown?q?caf=E9?="),
        "moved",
        "",
        answered=True,
        moved=True,
    ),
    HostileCase(
        "nul-and-control-characters",
        lambda m: reply(
            m.token,
            subject=b"Re:\x00 \x1b[31mred\x07",
            message_id=b"<nul\x00\x1b@mail.example.org>",
        ),
        "moved",
        "",
        answered=True,
        moved=True,
    ),
    HostileCase(
        "overlong-subject-and-message-id",
        lambda m: reply(m.token, subject=b"Re: " + b"a" * 50_000, message_id=b"<" + b"m" * 5000),
        "moved",
        "",
        answered=True,
        moved=True,
    ),
    # --- structure ----------------------------------------------------------------------------
    HostileCase("empty-input", lambda m: b"", "malformed", "empty", answered=False),
    HostileCase("blank-lines", lambda m: b"\r\n\r\n  \r\n", "malformed", "empty", answered=False),
    HostileCase(
        "binary-garbage", lambda m: binary_garbage(), "malformed", "unparseable", answered=False
    ),
    HostileCase(
        "no-headers-at-all", lambda m: b"d5 ESW\r\n", "malformed", "unparseable", answered=False
    ),
    HostileCase(
        "no-from-header",
        lambda m: reply(m.token).replace(b"From: Alice <alice@example.org>\r\n", b""),
        "refused",
        "sender_mismatch",
        answered=True,
    ),
    HostileCase(
        "no-message-id",
        lambda m: reply(m.token, message_id=None),
        "moved",
        "",
        answered=True,
        moved=True,
    ),
    HostileCase(
        "no-body-and-no-move-in-the-subject",
        lambda m: reply(m.token, subject=b"", body=b""),
        "refused",
        "no_move",
        answered=True,
    ),
    HostileCase(
        "multipart-without-a-boundary",
        lambda m: reply(m.token, subject=b"", content_type=b"multipart/mixed"),
        "refused",
        "no_move",
        answered=True,
    ),
    HostileCase(
        "nesting-at-the-limit",
        _deep(MAX_DEPTH),
        "moved",
        "",
        answered=True,
        moved=True,
    ),
    HostileCase(
        "nesting-past-the-limit", _deep(MAX_DEPTH + 1), "refused", "too_deep", answered=True
    ),
    # deep nesting is refused for its many containers before it is parsed
    HostileCase("nesting-1200-deep", _deep(1200), "refused", "too_many_parts", answered=True),
    HostileCase("forwarded-1500-deep", _rfc822(1500), "refused", "too_many_parts", answered=True),
    HostileCase(
        "containers-at-the-limit",
        lambda m: reply(m.token, *many_containers(MAX_CONTAINERS)),
        "moved",
        "",
        answered=True,
        moved=True,
    ),
    HostileCase(
        "containers-past-the-limit",
        lambda m: reply(m.token, *many_containers(MAX_CONTAINERS + 1)),
        "refused",
        "too_many_parts",
        answered=True,
    ),
    HostileCase(
        "huge-body",
        lambda m: reply(m.token, body=HUGE_BODY),
        "refused",
        "too_large",
        answered=True,
    ),
    HostileCase(
        "huge-body-without-a-token",
        lambda m: reply(None, body=HUGE_BODY),
        "malformed",
        "too_large",
        answered=False,
    ),
    HostileCase(
        "huge-binary-garbage",
        lambda m: binary_garbage() * 2,
        "malformed",
        "too_large",
        answered=False,
    ),
    # --- forgeries ----------------------------------------------------------------------------
    HostileCase(
        "forged-token-signature",
        lambda m: reply(m.forged_token),
        "malformed",
        "token_forged",
        answered=False,
    ),
    HostileCase(
        "token-of-the-wrong-shape",
        lambda m: reply(None, subject=b"d5 ESW [celtic:1-0-1-zz-0123456789abcdef0123]"),
        "malformed",
        "token_forged",
        answered=False,
    ),
    HostileCase(
        "forged-sender",
        lambda m: reply(m.token, sender=b"Mallory <mallory@evil.example>"),
        "refused",
        "sender_mismatch",
        answered=True,
    ),
    HostileCase(
        "two-senders",
        lambda m: reply(m.token, sender=b"alice@example.org, mallory@evil.example"),
        "refused",
        "sender_mismatch",
        answered=True,
    ),
    HostileCase(
        "forged-sender-without-a-token",
        lambda m: reply(None, sender=b"alice@example.org"),
        "malformed",
        "no_token",
        answered=False,
    ),
    # --- Authentication-Results ---------------------------------------------------------------
    HostileCase(
        "dmarc-fail-from-the-trusted-host",
        lambda m: reply(
            m.token,
            headers=authentication_results(
                b"mx.celtic.example; spf=pass smtp.mailfrom=example.org;"
                b" dmarc=fail (p=reject) header.from=example.org"
            ),
        ),
        "refused",
        "dmarc_fail",
        answered=True,
    ),
    HostileCase(
        "spf-fail-from-the-trusted-host",
        lambda m: reply(
            m.token,
            headers=authentication_results(
                b"MX.Celtic.Example;\r\n spf=fail (not permitted) smtp.mailfrom=example.org"
            ),
        ),
        "refused",
        "spf_fail",
        answered=True,
    ),
    HostileCase(
        "a-forged-pass-does-not-hide-the-trusted-fail",
        lambda m: reply(
            m.token,
            headers=authentication_results(
                b"mx.celtic.example; dmarc=pass header.from=example.org",
                b"mx.celtic.example; dmarc=fail header.from=example.org",
            ),
        ),
        "refused",
        "dmarc_fail",
        answered=True,
    ),
    HostileCase(
        "dmarc-fail-from-another-host-is-ignored",
        lambda m: reply(
            m.token,
            headers=authentication_results(
                b"mx.evil.example; dmarc=fail header.from=example.org; spf=fail"
            ),
        ),
        "moved",
        "",
        answered=True,
        moved=True,
    ),
    HostileCase(
        "softfail-and-none-are-not-failures",
        lambda m: reply(
            m.token,
            headers=authentication_results(
                b"mx.celtic.example; spf=softfail smtp.mailfrom=example.org; dmarc=none"
            ),
        ),
        "moved",
        "",
        answered=True,
        moved=True,
    ),
    HostileCase(
        "garbage-authentication-results",
        lambda m: reply(
            m.token,
            headers=authentication_results(
                b"\xff\xfe;;; ===", b"mx.celtic.example", b"mx.celtic.example; dmarc"
            ),
        ),
        "moved",
        "",
        answered=True,
        moved=True,
    ),
    HostileCase(
        "dmarc-fail-on-a-forged-token",
        lambda m: reply(
            m.forged_token,
            headers=authentication_results(
                b"mx.celtic.example; dmarc=fail header.from=example.org"
            ),
        ),
        "malformed",
        "token_forged",
        answered=False,
    ),
]
