"""Read one email from standard input and handle it as a move by email.

For a mail server's pipe (see docs/MOVES-BY-EMAIL.md). Exit status, after sysexits.h:
0 when the message was handled (moved, refused and answered, dropped, or a duplicate), so
the mail server does not bounce it; 65 (EX_DATAERR) when the input is empty or not an email;
75 (EX_TEMPFAIL) when the database is unavailable, so the mail server tries again later.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from notifications.inbound import UnreadableEmail, inbound_email_receive

EX_DATAERR = 65
EX_TEMPFAIL = 75


class Command(BaseCommand):
    help = "Handle one raw RFC 822 email read from standard input as a move by email."
    stealth_options = ("stdin",)

    def handle(self, *args: Any, **options: Any) -> None:
        stdin = options.get("stdin") or sys.stdin.buffer
        raw = stdin.read()
        try:
            record = inbound_email_receive(raw=raw)
        except UnreadableEmail as error:
            raise CommandError(str(error), returncode=EX_DATAERR) from None
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
        if record.reason == "unparseable":
            raise CommandError(summary, returncode=EX_DATAERR)
        self.stdout.write(summary)
