"""Rows for the moderation app: the audit log is append-only, for everyone."""

from __future__ import annotations

from tests.security.matrix import NOBODY, delete_row

ADMIN_ROWS = [
    delete_row("moderation.auditentry", lambda world: world.targets["audit_entry"], NOBODY),
]
