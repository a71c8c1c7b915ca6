"""Reads from the audit log."""

from __future__ import annotations

from django.contrib.contenttypes.models import ContentType
from django.db import models

from moderation.models import AuditEntry


def audit_entry_list(
    *, target: models.Model | None = None, action: str | None = None
) -> models.QuerySet[AuditEntry]:
    """Entries, newest first; narrowed to one target object and/or one action when given."""
    entries = AuditEntry.objects.select_related("actor")
    if target is not None:
        entries = entries.filter(
            target_content_type=ContentType.objects.get_for_model(target),
            target_object_id=str(target.pk),
        )
    if action is not None:
        entries = entries.filter(action=action)
    return entries
