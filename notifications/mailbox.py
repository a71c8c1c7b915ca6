"""Fetch moves by email from an IMAP mailbox (the alternative to a mail server's pipe).

Each unseen message is handled by ``inbound.inbound_email_receive`` and then flagged
``\\Seen`` (and ``\\Deleted`` with ``CELTIC_IMAP_DELETE``). Handling is idempotent by
Message-ID, so two polls that overlap, or a poll that dies before flagging, handle nothing
twice.
"""

from __future__ import annotations

import imaplib
import logging
from collections.abc import Callable

from django.conf import settings
from django.db import DatabaseError

from notifications.inbound import UnreadableEmail, inbound_email_receive

logger = logging.getLogger(__name__)


def imap_connect() -> imaplib.IMAP4:
    """A logged-in connection to the configured mailbox, its folder selected."""
    host, port = settings.CELTIC_IMAP_HOST, settings.CELTIC_IMAP_PORT
    client = (
        imaplib.IMAP4_SSL(host, port) if settings.CELTIC_IMAP_SSL else imaplib.IMAP4(host, port)
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
    one that is not an email at all is flagged seen and skipped.
    """
    if not settings.CELTIC_IMAP_HOST and connect is None:
        return []
    client = (connect or imap_connect)()
    handled: list[int] = []
    try:
        [uids] = _check(client.uid("SEARCH", None, "UNSEEN"), "SEARCH")
        for uid in (uids or b"").split():
            record_id = _message_handle(client, uid)
            if record_id is not None:
                handled.append(record_id)
        if settings.CELTIC_IMAP_DELETE:
            client.expunge()
    finally:
        client.logout()
    return handled


def _message_handle(client: imaplib.IMAP4, uid: bytes) -> int | None:
    """Fetch, handle and flag one message; its InboundEmail id, or None."""
    data = _check(client.uid("FETCH", uid, "(BODY.PEEK[])"), "FETCH")
    raw = next((part[1] for part in data if isinstance(part, tuple)), b"")
    try:
        record = inbound_email_receive(raw=raw)
    except UnreadableEmail:
        logger.warning("IMAP message %s is not an email; flagged seen", uid)
        record = None
    except DatabaseError:
        logger.exception("IMAP message %s left unseen: the database failed", uid)
        return None
    flags = r"(\Seen \Deleted)" if settings.CELTIC_IMAP_DELETE else r"(\Seen)"
    _check(client.uid("STORE", uid, "+FLAGS", flags), "STORE")
    return record.pk if record is not None else None
