"""Rows for the notifications app: mail records, which only superusers may clear."""

from __future__ import annotations

from tests.security.matrix import SUPERUSERS, delete_row

ADMIN_ROWS = [
    delete_row(
        "notifications.outboxemail", lambda world: world.targets["outbox_email"], SUPERUSERS
    ),
    delete_row(
        "notifications.inboundemail", lambda world: world.targets["inbound_email"], SUPERUSERS
    ),
]
