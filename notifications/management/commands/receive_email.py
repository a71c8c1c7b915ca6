"""Read one email from standard input and handle it as a move by email.

For a mail server's pipe (see docs/MOVES-BY-EMAIL.md). Exit status, after sysexits.h:
0 when the message was recorded, whatever it held (moved, refused and answered, dropped,
a duplicate, or bytes that are no email at all), so the mail server neither retries it nor
bounces it to a sender who may be forged; 75 (EX_TEMPFAIL) when the database is unavailable,
so the mail server tries again later. Input beyond ``CELTIC_INBOUND_MAX_BYTES`` is read and
thrown away, not held in memory; the message is then refused for its size.
"""

from __future__ import annotations

import sys
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from notifications.inbound import inbound_email_read, inbound_email_receive

EX_TEMPFAIL = 75


class Command(BaseCommand):
    help = "Handle one raw RFC 822 email read from standard input as a move by email."
    stealth_options = ("stdin",)

    def handle(self, *args: Any, **options: Any) -> None:
        stdin = options.get("stdin") or sys.stdin.buffer
        raw, size = inbound_email_read(stdin, limit=settings.CELTIC_INBOUND_MAX_BYTES)
        try:
            record = inbound_email_receive(raw=raw, size=size)
        except DatabaseError as error:
            raise CommandError(
                f"Database unavailable, try again later: {error}", returncode=EX_TEMPFAIL
            ) from None
        summary = f"{record.outcome}"
        if record.reason:
            summary += f" ({record.reason})"
        if record.game_id:
            summary += f": game #{record.game_id} ply {record.ply} {record.notation!r}"
        summary += f" from {record.from_address or 'unknown sender'}, {record.message_id}"
        self.stdout.write(summary)
