"""Fetch moves by email from an IMAP mailbox (the alternative to a mail server's pipe).

Each unseen message is handled by ``inbound.inbound_email_receive`` and then flagged
``\\Seen`` (and ``\\Deleted`` with ``CELTIC_IMAP_DELETE``). Handling is idempotent by
Message-ID, so two polls that overlap, or a poll that dies before flagging, handle nothing
twice. One message that fails never holds up the ones behind it: it is recorded (or, if the
server will not even hand it over, logged) and flagged, and the poll moves on. Every call
to the server times out after ``CELTIC_IMAP_TIMEOUT`` seconds.
"""

from __future__ import annotations

import imaplib
import logging
import re
from collections.abc import Callable

from django.conf import settings
from django.db import InterfaceError, OperationalError

from notifications.inbound import inbound_email_receive

logger = logging.getLogger(__name__)

_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")


def imap_connect() -> imaplib.IMAP4:
    """A logged-in connection to the configured mailbox, its folder selected."""
    host, port = settings.CELTIC_IMAP_HOST, settings.CELTIC_IMAP_PORT
    timeout = settings.CELTIC_IMAP_TIMEOUT
    client = (
        imaplib.IMAP4_SSL(host, port, timeout=timeout)
        if settings.CELTIC_IMAP_SSL
        else imaplib.IMAP4(host, port, timeout=timeout)
    )
    client.login(settings.CELTIC_IMAP_USER, settings.CELTIC_IMAP_PASSWORD)
    _check(client.select(settings.CELTIC_IMAP_FOLDER), "SELECT")
    return client


def _check(response: tuple[str, list[object]], command: str) -> list[object]:
    status, data = response
    if status != "OK":
        raise imaplib.IMAP4.error(f"IMAP {command} failed: {status} {data!r}")
    return data


def inbound_mailbox_poll(*, connect: Callable[[], imaplib.IMAP4] | None = None) -> list[int]:
    """Handle every unseen message in the mailbox; returns the InboundEmail ids.

    A message that fails for a passing reason (the database) stays unseen for the next poll;
    any other failure of one message is logged, the message flagged, and the poll goes on.
    A lost connection (or a timeout) ends the poll; the next one picks up where it stopped.
    """
    if not settings.CELTIC_IMAP_HOST and connect is None:
        return []
    client = (connect or imap_connect)()
    handled: list[int] = []
    try:
        [uids] = _check(client.uid("SEARCH", None, "UNSEEN"), "SEARCH")
        for uid in (uids or b"").split():
            try:
                record_id = _message_handle(client, uid)
            except (imaplib.IMAP4.abort, OSError):
                raise  # the connection is gone
            except imaplib.IMAP4.error:
                logger.exception("IMAP message %s could not be fetched; flagged seen", uid)
                _flag_handled(client, uid)
                continue
            if record_id is not None:
                handled.append(record_id)
        if settings.CELTIC_IMAP_DELETE:
            client.expunge()
    finally:
        client.logout()
    return handled


def _message_handle(client: imaplib.IMAP4, uid: bytes) -> int | None:
    """Fetch, handle and flag one message; its InboundEmail id, or None when it is left
    unseen for the next poll.

    A message over ``CELTIC_INBOUND_MAX_BYTES`` (by the size the server reports) is fetched
    for its headers only and refused for its size.
    """
    size = _message_size(client, uid)
    too_large = size is not None and size > settings.CELTIC_INBOUND_MAX_BYTES
    part = "BODY.PEEK[HEADER]" if too_large else "BODY.PEEK[]"
    data = _check(client.uid("FETCH", uid, f"({part})"), "FETCH")
    raw = next((item[1] for item in data if isinstance(item, tuple)), b"")
    try:
        record = inbound_email_receive(raw=raw, size=size if too_large else None)
    except (OperationalError, InterfaceError):
        logger.exception("IMAP message %s left unseen: the database failed", uid)
        return None
    _flag_handled(client, uid)
    return record.pk


def _message_size(client: imaplib.IMAP4, uid: bytes) -> int | None:
    """The size the server reports for the message, or None if it reports none."""
    data = _check(client.uid("FETCH", uid, "(RFC822.SIZE)"), "FETCH")
    for item in data:
        line = item[0] if isinstance(item, tuple) else item
        if isinstance(line, bytes) and (match := _SIZE.search(line)):
            return int(match.group(1))
    return None


def _flag_handled(client: imaplib.IMAP4, uid: bytes) -> None:
    """Flag the message done. If the server refuses, it is seen again at the next poll and
    found by its Message-ID, so nothing is done twice."""
    flags = r"(\Seen \Deleted)" if settings.CELTIC_IMAP_DELETE else r"(\Seen)"
    try:
        _check(client.uid("STORE", uid, "+FLAGS", flags), "STORE")
    except imaplib.IMAP4.abort:
        raise
    except imaplib.IMAP4.error:
        logger.warning("IMAP message %s could not be flagged", uid, exc_info=True)
