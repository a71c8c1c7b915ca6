"""Moves by email: read a reply to a "your turn" email, play its move, answer the player.

A reply moves only when it carries a valid reply token (see ``reply_tokens``) AND comes from
the address of the account the token was made for: a forged sender alone, or a token sent by
someone else, never moves. Every message is recorded as an ``InboundEmail`` (one per
Message-ID, so a message delivered twice is handled once). Players are answered only at their
account's address, and only when the token was ours: a message with no token or a forged one
is recorded and dropped, so nothing bounces back to a forged sender.

Any bytes in give a record: raw non-UTF-8 bytes are replaced, a message larger than
``CELTIC_INBOUND_MAX_BYTES`` is refused from its headers alone (its body is never parsed),
one nested deeper than ``CELTIC_INBOUND_MAX_MIME_DEPTH`` is refused, and one whose DMARC or
SPF check failed at the trusted mail server (``CELTIC_MAIL_TRUSTED_AUTHSERV_ID``) does not
move. See docs/SECURITY.md, "Moves by email: the trust model".
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass
from datetime import datetime
from email import policy
from email.errors import HeaderParseError
from email.header import decode_header, make_header
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser, BytesParser
from email.utils import getaddresses
from html import unescape
from typing import IO, Any

import authres
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, InterfaceError, OperationalError, transaction
from django.utils import timezone
from django.utils.html import strip_tags

from accounts.selectors import profile_get
from celticsite.errors import DomainError
from celtictext import and_join
from games.errors import HOW_TO_WRITE_A_MOVE
from games.models import Challenge, Game
from games.selectors import game_position
from games.services import challenge_accept, challenge_decline, move_submit
from notifications.email_events import Event
from notifications.events import (
    challenge_reply_context,
    is_turn_of,
    move_reply_context,
    opponents,
)
from notifications.models import InboundEmail, OutboxEmail
from notifications.reply_tokens import (
    SUBJECT_TAG,
    ReplyToken,
    ReplyTokenError,
    reply_token_parse,
    tokens_in_address,
)
from notifications.services import notify

logger = logging.getLogger(__name__)

Outcome = InboundEmail.Outcome

# Of a message over the size limit, only this much is read, for its headers.
HEADER_BYTES = 64 * 1024
# Authentication-Results methods whose "fail" refuses a move.
REFUSING_AUTH_METHODS = ("dmarc", "spf")
# A Content-Type header of a part that holds other parts, as the parser reads it.
_CONTAINER_HEADER = re.compile(rb"(?im)^content-type:\s*(?:multipart|message)/")
# How many such parts a message may have, per level of nesting allowed.
CONTAINERS_PER_LEVEL = 4
_CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

# Headers that may name the address the reply was sent to, most reliable first.
RECIPIENT_HEADERS = ("delivered-to", "x-original-to", "envelope-to", "to", "cc")
_REPLY_PREFIX = re.compile(r"^\s*(re|fwd?|aw|wg|sv|tr)\s*(\[\d+\])?\s*:\s*", re.IGNORECASE)
_QUOTE_HEADER = re.compile(r"^(-{2,}\s*original message\s*-{2,}|from:\s.*|sent:\s.*)$", re.I)

# What each refusal is called in the answer's subject.
REFUSAL_TITLES = {
    "invalid_notation": "the move could not be read",
    "illegal_move": "illegal move",
    "stale_ply": "the game has moved on",
    "not_your_turn": "not your turn",
    "game_not_active": "the game is over",
    "time_expired": "your time ran out",
    "not_a_player": "not your game",
    "game_not_found": "no such game",
    "token_expired": "the reply token expired",
    "sender_mismatch": "sent from another address",
    "no_move": "no move found",
    "too_large": "your email is too large",
    "too_deep": "your email is nested too deeply",
    "too_many_parts": "your email has too many parts",
    "dmarc_fail": "your email failed the sender check (DMARC)",
    "no_answer": "no answer found",
    "challenge_not_open": "the challenge is no longer open",
    "challenge_not_found": "no such challenge",
    "not_addressed_to_you": "not your challenge",
    "challenger_suspended": "the challenger's account is suspended",
    "spf_fail": "your email failed the sender check (SPF)",
}


@dataclass(frozen=True)
class Refusal:
    """Why a reply carrying our token did not move: a reason code, what the player is told,
    and for an illegal move the rule it breaks."""

    reason: str
    detail: str
    rule: str = ""


@dataclass(frozen=True)
class ParsedEmail:
    """What handling a reply needs from the raw message."""

    message_id: str
    from_address: str  # the one From address, lowercased; empty if none or several
    from_header: str
    subject: str
    tokens: list[str]  # token candidates: recipient plus parts first, then subject tags
    move_text: str  # the first usable body line, else the subject without prefixes and tag
    problem: Refusal | None = None  # empty, unparseable, too_large, too_deep, too_many_parts
    auth_failure: Refusal | None = None  # DMARC or SPF failed at the trusted mail server


# --- parsing ------------------------------------------------------------------------------------


def email_parse(raw: bytes, *, size: int | None = None) -> ParsedEmail:
    """Read the parts of ``raw`` (an RFC 822 message) that handling a reply needs.

    Never raises on what the bytes hold. ``size`` is the whole message's size when ``raw`` is
    only its beginning (a reader that stopped at the limit); a message over
    ``CELTIC_INBOUND_MAX_BYTES`` is read for its headers only, its body never parsed.
    """
    # NUL is no character of an email, and PostgreSQL text cannot hold it: drop it at once.
    raw = raw.replace(b"\x00", b"")
    message, problem = _message_read(raw, size=len(raw) if size is None else size)
    # Raw bytes are kept as escapes: Message-IDs that differ only in them stay distinct.
    raw_id = " ".join(_raw_header(message, "message-id")[:1])
    message_id = _clean_line(raw_id, errors="backslashreplace")[:255]
    if not message_id:
        message_id = "sha256:" + hashlib.sha256(raw).hexdigest()
    from_header = _clean_line(" ".join(_raw_header(message, "from")))
    senders = [addr for _, addr in getaddresses([from_header]) if "@" in addr]
    subject = _decoded_subject(message)
    tokens = [
        token
        for name in RECIPIENT_HEADERS
        for _, addr in getaddresses([_clean_line(v) for v in _raw_header(message, name)])
        for token in tokens_in_address(addr)
    ] + [match.lower() for match in SUBJECT_TAG.findall(subject)]
    body = _clean_text(_body_text(message)) if problem is None else ""
    return ParsedEmail(
        message_id=message_id,
        from_address=senders[0].lower() if len(senders) == 1 else "",
        from_header=from_header,
        subject=subject,
        tokens=list(dict.fromkeys(tokens)),
        # a message refused for its form plays nothing, so it names no move either
        move_text="" if problem else first_reply_line(body) or subject_move(subject),
        problem=problem,
        auth_failure=_authentication_failure(message, sender=senders[0] if senders else ""),
    )


def _message_read(raw: bytes, *, size: int) -> tuple[EmailMessage, Refusal | None]:
    """The message (or only its headers), and why its form is refused, if it is."""
    limit = settings.CELTIC_INBOUND_MAX_BYTES
    if not raw.strip():
        return EmailMessage(), Refusal("empty", "The message is empty: expected an RFC 822 email.")
    if size > limit:
        return _headers_parse(raw), Refusal(
            "too_large",
            f"Your email is {size} bytes, which is more than {limit} bytes, the most we read. "
            "Reply with only the move, without attachments or pictures.",
        )
    message, problem = _message_parse(raw)
    if problem is None and not message.keys():
        problem = Refusal("unparseable", "The input has no email headers.")
    return message, problem


def _headers_parse(raw: bytes) -> EmailMessage:
    """The headers of ``raw``, read from its first HEADER_BYTES only; the body is ignored."""
    return BytesHeaderParser(policy=policy.default).parsebytes(raw[:HEADER_BYTES])


def _message_parse(raw: bytes) -> tuple[EmailMessage, Refusal | None]:
    """The whole message, or its headers and why its body cannot be read (nested too deep).

    The parser's time grows with the nesting times the lines, so a message with more parts
    that hold other parts than CONTAINERS_PER_LEVEL times the depth limit is refused before
    parsing; no reply needs that many.
    """
    limit = settings.CELTIC_INBOUND_MAX_MIME_DEPTH
    most_containers = CONTAINERS_PER_LEVEL * limit
    if len(_CONTAINER_HEADER.findall(raw)) > most_containers:
        return _headers_parse(raw), Refusal(
            "too_many_parts",
            f"Your email has more than {most_containers} parts that hold other parts "
            "(multipart or forwarded messages). Reply with only the move.",
        )
    too_deep = Refusal(
        "too_deep",
        f"Your email has parts nested more than {limit} levels deep, the most we read. "
        "Reply with only the move.",
    )
    try:
        message = BytesParser(policy=policy.default).parsebytes(raw)
    except RecursionError:  # the parser recurses once per level of nesting
        return _headers_parse(raw), too_deep
    if mime_depth(message, limit=limit) > limit:
        return message, too_deep
    return message, None


def mime_depth(message: Message, *, limit: int) -> int:
    """How many multipart or message/* containers enclose the deepest part (0 for a single
    part); stops counting once past ``limit``. Iterative, so no depth can overflow it."""
    deepest, stack = 0, [(message, 0)]
    while stack and deepest <= limit:
        part, depth = stack.pop()
        if part.is_multipart():
            children = part.get_payload()
            stack.extend((child, depth + 1) for child in children if isinstance(child, Message))
            deepest = max(deepest, depth + 1)
    return deepest


def _raw_header(message: Message, name: str) -> list[str]:
    """The header's values as received: no parsing that could fail on a malformed header."""
    return [str(value) for key, value in message.raw_items() if key.lower() == name]


def _clean_text(text: str, *, errors: str = "replace") -> str:
    """``text`` as storable UTF-8: raw bytes that were not UTF-8 (kept by the parser as
    surrogate escapes) become U+FFFD (or ``\\xe9`` escapes with ``errors="backslashreplace"``),
    NUL is dropped."""
    try:
        encoded = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a lone surrogate that stands for no byte
        encoded = text.encode("utf-8", "replace")
    return encoded.decode("utf-8", errors).replace("\x00", "")


def _clean_line(text: str, *, errors: str = "replace") -> str:
    """A header value on one line: clean UTF-8, no control characters, single spaces."""
    return " ".join(_CONTROL_CHARACTERS.sub("", _clean_text(text, errors=errors)).split())


def _decoded_subject(message: Message) -> str:
    raw = " ".join(_raw_header(message, "subject"))
    try:
        subject = str(make_header(decode_header(raw)))
    except (ValueError, LookupError, UnicodeError, HeaderParseError):
        subject = raw
    return _clean_line(subject)  # an encoded word may hold a NUL or raw bytes


def _body_text(message: EmailMessage) -> str:
    """The text/plain body, else the HTML body as text (quoted blocks removed)."""
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    try:
        content = part.get_content()
    except Exception:  # the email package raises many kinds on a malformed part
        payload = part.get_payload(decode=True)
        content = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""
    if not isinstance(content, str):
        return ""
    return html_to_text(content) if part.get_content_subtype() == "html" else content


def _authentication_failure(message: Message, *, sender: str) -> Refusal | None:
    """A failed DMARC or SPF check in an Authentication-Results header added by the trusted
    mail server (``CELTIC_MAIL_TRUSTED_AUTHSERV_ID``); headers from any other host, and
    headers that do not parse, are ignored. Any failure counts, so a forged "pass" added by
    the sender cannot hide the server's "fail"."""
    trusted = settings.CELTIC_MAIL_TRUSTED_AUTHSERV_ID.lower()
    if not trusted:
        return None
    for value in _raw_header(message, "authentication-results"):
        try:
            header = authres.AuthenticationResultsHeader.parse_value(_clean_line(value))
        except authres.AuthResError:
            continue
        if str(header.authserv_id).lower() != trusted:
            continue
        for method in REFUSING_AUTH_METHODS:
            if any(
                (str(r.method).lower(), str(r.result).lower()) == (method, "fail")
                for r in header.results
            ):
                who = sender or "the address it names"
                return Refusal(
                    f"{method}_fail",
                    f"Your email failed the {method.upper()} check of "
                    f"{settings.CELTIC_MAIL_TRUSTED_AUTHSERV_ID}: it may not come from {who}. "
                    "Moves by email are taken only from mail that passes it; send your reply "
                    "straight from your account's mail provider, not through a forwarder.",
                )
    return None


def html_to_text(html: str) -> str:
    """Plain text of an HTML body, one line per block, without quoted (blockquote) text."""
    html = re.sub(r"(?is)<(head|style|script|blockquote)\b.*?</\1\s*>", "\n", html)
    html = re.sub(r"(?i)<br\s*/?>|</(p|div|li|tr|h\d)\s*>", "\n", html)
    return unescape(strip_tags(html))


def first_reply_line(text: str) -> str:
    """The first non-empty line the sender wrote: not quoted (``>``), before the signature
    (``-- ``) and before the quoted email's header ("On … wrote:", "-----Original Message")."""
    lines = [line.strip() for line in text.splitlines()]
    for index, line in enumerate(lines):
        if line == "--" or _QUOTE_HEADER.match(line):
            return ""
        if line.lower().startswith("on ") and any(
            following.lower().endswith("wrote:") for following in lines[index : index + 3]
        ):
            return ""
        if line and not line.startswith(">"):
            return line
    return ""


def subject_move(subject: str) -> str:
    """The subject without its reply token tag and Re:/Fwd:/AW: prefixes."""
    subject = SUBJECT_TAG.sub("", subject).strip()
    while (stripped := _REPLY_PREFIX.sub("", subject, count=1)) != subject:
        subject = stripped
    return subject.strip()


# --- handling -----------------------------------------------------------------------------------


def inbound_email_read(stream: IO[bytes], *, limit: int) -> tuple[bytes, int]:
    """Read a message from ``stream``: at most ``limit + 1`` bytes are kept, the rest is
    drained in chunks and only counted, so a huge input costs no memory. Returns the bytes
    kept and the message's whole size."""
    kept = bytearray()
    size = 0
    while chunk := stream.read(64 * 1024):
        size += len(chunk)
        if len(kept) <= limit:
            kept += chunk[: limit + 1 - len(kept)]
    return bytes(kept), size


def inbound_email_receive(
    *, raw: bytes, size: int | None = None, now: datetime | None = None
) -> InboundEmail:
    """Handle one received message: play its move or refuse it, record it, answer it.

    Whatever the bytes, the message is recorded. A message whose Message-ID was handled
    before returns that first record and does nothing else. ``size``: the whole message's
    size when ``raw`` is only its beginning (see ``inbound_email_read``). Raises only a
    passing database error (OperationalError, InterfaceError): the message should be
    delivered again later.
    """
    try:
        parsed = email_parse(raw, size=size)
        return _receive_once(parsed, now=now or timezone.now())
    except (OperationalError, InterfaceError):
        raise
    except Exception as error:
        # A bug or a message no one foresaw: record it rather than block the mailbox or the
        # mail server's queue with a message that fails again at every delivery.
        logger.exception("Inbound email could not be handled; recorded as failed")
        return _record_failure(raw, error)


def _receive_once(parsed: ParsedEmail, *, now: datetime) -> InboundEmail:
    """Handle ``parsed`` unless its Message-ID was handled before."""
    try:
        with transaction.atomic():
            earlier = InboundEmail.objects.filter(message_id=parsed.message_id).first()
            if earlier is not None:
                return earlier
            return _handle(parsed, now=now)
    except IntegrityError:
        # The same message was being handled at the same time; that delivery won.
        earlier = InboundEmail.objects.filter(message_id=parsed.message_id).first()
        if earlier is None:
            raise
        return earlier


def _record_failure(raw: bytes, error: Exception) -> InboundEmail:
    """The record of a message whose handling failed: keyed by the hash of its bytes, so a
    second delivery finds it, and holding nothing read from the message."""
    record, _ = InboundEmail.objects.get_or_create(
        message_id="sha256:" + hashlib.sha256(raw).hexdigest(),
        defaults={
            "outcome": Outcome.MALFORMED,
            "reason": "failed",
            "detail": _clean_text(f"Handling failed: {type(error).__name__}: {error}")[:2000],
        },
    )
    return record


def _handle(parsed: ParsedEmail, *, now: datetime) -> InboundEmail:
    record = InboundEmail(
        message_id=parsed.message_id,
        from_address=(parsed.from_address or parsed.from_header)[:254],
        subject=parsed.subject[:200],
        notation=parsed.move_text[:100],
    )
    problem = parsed.problem
    if problem is not None and problem.reason in ("empty", "unparseable"):
        return _drop(record, problem.reason, problem.detail)
    token, token_problem = _token_find(parsed.tokens, now=now)
    if token is None:
        if problem is not None:  # too large or too deep, and not ours: no one to answer
            return _drop(record, problem.reason, problem.detail)
        assert token_problem is not None
        return _drop(record, token_problem.reason, str(token_problem))
    user = get_user_model().objects.filter(pk=token.user_id, is_active=True).first()
    if user is None:
        return _drop(record, "unknown_user", "The token's user is gone or suspended.")
    if token.challenge_id is not None:
        return _challenge_answer(record, parsed, user=user, token=token, problem=token_problem)
    record.user, record.ply = user, token.ply
    record.game = Game.objects.filter(pk=token.game_id).first()
    refusal = _refusal_before_move(parsed, user=user, problem=token_problem)
    if refusal is None:
        refusal = _move_play(record, user=user, token=token, now=now)
    if refusal is not None:
        record.outcome, record.reason, record.detail = (
            Outcome.REFUSED,
            refusal.reason,
            refusal.detail,
        )
    else:
        record.outcome = Outcome.MOVED
    record.save()
    _answer(record, user=user, rule=refusal.rule if refusal else "")
    return record


def _drop(record: InboundEmail, reason: str, detail: str) -> InboundEmail:
    """Record a message that cannot be tied to a player; no one is answered."""
    record.outcome, record.reason, record.detail = Outcome.MALFORMED, reason, detail
    record.save()
    return record


def _token_find(
    candidates: list[str], *, now: datetime
) -> tuple[ReplyToken | None, ReplyTokenError | None]:
    """The first valid token; else the first signed-but-expired one (with its problem), else
    (None, the first candidate's problem). Our own expired token still names the player."""
    problems: list[ReplyTokenError] = []
    for candidate in candidates:
        try:
            return reply_token_parse(candidate, now=now), None
        except ReplyTokenError as problem:
            problems.append(problem)
    for problem in problems:
        if problem.token is not None:
            return problem.token, problem
    if problems:
        return None, problems[0]
    return None, ReplyTokenError(
        "no_token", "No reply token in the recipient addresses or in the subject."
    )


def _refusal_before_move(
    parsed: ParsedEmail, *, user: Any, problem: ReplyTokenError | None
) -> Refusal | None:
    """Why a message with our token must not move, or None."""
    if parsed.from_address != user.email.lower():
        sender = parsed.from_address or parsed.from_header or "no sender address"
        return Refusal(
            "sender_mismatch",
            f"It was sent from {sender}, not from your account's address ({user.email}). "
            "Moves by email are taken only from your account's address.",
        )
    if problem is not None:
        return Refusal(problem.reason, f"{problem} Reply to the latest email about this game.")
    if parsed.auth_failure is not None:
        return parsed.auth_failure
    if parsed.problem is not None:
        return parsed.problem
    if not parsed.move_text:
        return Refusal(
            "no_move", "We found no move in your email: write it as the first line of your reply."
        )
    return None


def _move_play(
    record: InboundEmail, *, user: Any, token: ReplyToken, now: datetime
) -> Refusal | None:
    """Play the move; a refusal rolls back only move_submit's own savepoint."""
    try:
        outcome = move_submit(
            game_id=token.game_id,
            user=user,
            expected_ply=token.ply,
            notation=record.notation,
            now=now,
        )
    except DomainError as error:
        if error.code == "stale_ply":
            current = error.extra.get("current_ply")
            detail = f"Your reply was for ply {token.ply}, but the game is now at ply {current}."
            return Refusal("stale_ply", detail)
        return Refusal(error.code, error.detail, str(error.extra.get("rule", "")))
    record.game = outcome.game
    record.notation = outcome.turns[0].notation
    return None


# --- answering ----------------------------------------------------------------------------------


def _answer(record: InboundEmail, *, user: Any, rule: str) -> OutboxEmail | None:
    """Tell the player (at their account's address) what became of their email."""
    game = record.game
    context: dict[str, Any] = {
        "inbound": _inbound_summary(record),
        "moved": record.outcome == Outcome.MOVED,
        "refusal_title": REFUSAL_TITLES.get(record.reason, record.reason.replace("_", " ")),
        "rule": rule,
        "rule_text": game.game_kind.rule_explanation(rule) if game and rule else "",
        "how_to_write_a_move": game.game_kind.notation_help if game else HOW_TO_WRITE_A_MOVE,
        "reply_token": "",
    }
    reply_to = ""
    if game is not None and game.seat_of(user) is not None:
        game.refresh_from_db()
        context.update(_position_context(game, user=user, record=record))
        if is_turn_of(game, user):
            reply_to = move_reply_context(context, game=game, user=user)
    return notify(
        user=user,
        event=Event.EMAIL_MOVE_REPLY,
        context=context,
        dedupe_key=f"{Event.EMAIL_MOVE_REPLY}:{record.pk}",
        reply_to=reply_to,
    )


def _inbound_summary(record: InboundEmail) -> dict[str, str]:
    """What the answer shows of the email received, as it is now."""
    return {"outcome": record.outcome, "notation": record.notation, "detail": record.detail}


def _position_context(game: Game, *, user: Any, record: InboundEmail) -> dict[str, Any]:
    """The game, the opponent, the drawn position, what the move played gave (the kind's
    words: the flips of a stack and where it may go, for Celtic Knot), and whose turn it is
    (or the result, in the kind's words when the board ended the game)."""
    names = {other.pk: profile_get(user=other).name for other in opponents(game, user)}
    opponent_name = and_join(list(names.values()))
    kind = game.game_kind
    state = game_position(game=game)
    seat = game.seat_of(user)
    choice_lines: list[str] = []
    if record.outcome == Outcome.MOVED and record.ply is not None and seat is not None:
        before = game_position(game=game, ply=record.ply)
        choice_lines = kind.choice_report(before, state, seat)
    if not game.is_active:
        board_over = state.is_over() and game.termination == Game.Termination.NORMAL
        words = kind.result_words(state) if board_over else ""
        turn = f"The game is over ({game.get_status_display().lower()}): "
        turn += f"{words or game.result or 'no result'}."
    elif is_turn_of(game, user):
        turn = "It is your move."
    else:
        turn = f"It is {names[game.user_to_move().pk]}'s move; we will email you when it is yours."
    return {
        "game": game,
        "opponent_name": opponent_name,
        "position": kind.text(state),
        "turn_line": turn,
        "choice_lines": choice_lines,
        "reply_instruction": kind.choice_prompt(state) if is_turn_of(game, user) else "",
    }


# --- answering a challenge ----------------------------------------------------------------------

# The first word of a reply that accepts or declines a challenge.
ACCEPT_WORDS = frozenset({"accept", "accepted", "yes"})
DECLINE_WORDS = frozenset({"decline", "declined", "no"})


def _challenge_answer(
    record: InboundEmail,
    parsed: ParsedEmail,
    *,
    user: Any,
    token: ReplyToken,
    problem: ReplyTokenError | None,
) -> InboundEmail:
    """Accept or decline the token's challenge as its first line says, record it, answer."""
    assert token.challenge_id is not None
    record.user = user
    refusal = _refusal_before_move(parsed, user=user, problem=problem)
    if refusal is not None and refusal.reason == "no_move":
        refusal = None  # the first line is read below
    answer = _challenge_answer_word(parsed.move_text)
    if refusal is None and answer is None:
        refusal = Refusal(
            "no_answer",
            f"The first line of your reply, “{parsed.move_text[:60]}”, is neither accept nor "
            "decline."
            if parsed.move_text
            else "Your reply has no first line to read.",
        )
    if refusal is None:
        record.notation = answer or ""
        refusal = _challenge_decide(record, user=user, challenge_id=token.challenge_id)
    if refusal is not None:
        record.outcome, record.reason, record.detail = (
            Outcome.REFUSED,
            refusal.reason,
            refusal.detail,
        )
    record.save()
    _challenge_reply_send(record, user=user, challenge_id=token.challenge_id)
    return record


def _challenge_answer_word(text: str) -> str | None:
    """The answer ``text`` starts with: "accept", "decline", or None for neither."""
    words = re.findall(r"[a-z]+", text.lower())
    first = words[0] if words else ""
    if first in ACCEPT_WORDS:
        return "accept"
    if first in DECLINE_WORDS:
        return "decline"
    return None


def _challenge_decide(record: InboundEmail, *, user: Any, challenge_id: int) -> Refusal | None:
    """Accept or decline through the game services; a refusal rolls back only their
    savepoint."""
    try:
        if record.notation == "accept":
            record.game = challenge_accept(challenge_id=challenge_id, user=user)
            record.outcome = Outcome.ACCEPTED
        else:
            challenge_decline(challenge_id=challenge_id, user=user)
            record.outcome = Outcome.DECLINED
    except DomainError as error:
        return Refusal(error.code, error.detail)
    return None


def _challenge_reply_send(record: InboundEmail, *, user: Any, challenge_id: int) -> None:
    """Tell the player what became of their answer; a refused answer to a challenge still
    open for them carries a fresh reply token."""
    challenge = Challenge.objects.filter(pk=challenge_id).select_related("challenger").first()
    context: dict[str, Any] = {
        "inbound": _inbound_summary(record),
        "challenge": challenge,
        "challenger_name": profile_get(user=challenge.challenger).name if challenge else "",
        "refusal_title": REFUSAL_TITLES.get(record.reason, record.reason.replace("_", " ")),
        "reply_token": "",
    }
    game = record.game
    if game is not None:
        seat = game.seat_of(user)
        colour = game.seat_name(seat) if seat else ""
        context.update(game=game, your_move=is_turn_of(game, user), colour=colour)
    reply_to = ""
    still_open = challenge is not None and challenge.status == Challenge.Status.OPEN
    if record.outcome == Outcome.REFUSED and still_open and challenge.opponent_id == user.pk:
        reply_to = challenge_reply_context(context, challenge=challenge)
    notify(
        user=user,
        event=Event.CHALLENGE_REPLY,
        context=context,
        dedupe_key=f"{Event.CHALLENGE_REPLY}:{record.pk}",
        reply_to=reply_to,
    )
