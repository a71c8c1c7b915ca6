"""The audit log: an append-only record of what moderators (and the system) did, and why."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models

from moderation.audit import KEY_MAX_LENGTH, audit_action_label


class AppendOnlyError(RuntimeError):
    """Raised on any attempt to change or delete an audit entry once it is written."""


# The one change the log tolerates: forgetting a deleted user or content type. Django's
# ``on_delete=SET_NULL`` does this with ``QuerySet.update``; ``actor_repr`` and ``target_repr``
# keep the names.
_NULLABLE_ON_DELETE = frozenset({"actor", "target_content_type"})


class AuditEntryQuerySet(models.QuerySet["AuditEntry"]):
    def update(self, **kwargs: Any) -> int:
        if (
            kwargs
            and set(kwargs) <= _NULLABLE_ON_DELETE
            and all(v is None for v in kwargs.values())
        ):
            return super().update(**kwargs)
        raise AppendOnlyError("Audit entries cannot be changed.")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("Audit entries cannot be deleted.")


class AuditEntry(models.Model):
    """Who did what to which object, when and why. Written by ``moderation.services``."""

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="audit_entries",
        help_text="Empty for the system, or once the user is deleted.",
    )
    actor_repr = models.CharField(
        "actor", max_length=200, help_text="The actor's name, kept if the user is deleted."
    )
    action = models.CharField(
        max_length=KEY_MAX_LENGTH,
        db_index=True,
        help_text="An action of the registry in moderation.audit, filled by each app.",
    )
    target_content_type = models.ForeignKey(
        ContentType, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    target_object_id = models.CharField(max_length=64, blank=True)
    target = GenericForeignKey("target_content_type", "target_object_id")
    target_repr = models.CharField("target", max_length=200, blank=True)
    reason = models.TextField(blank=True)
    data = models.JSONField(default=dict, blank=True, encoder=DjangoJSONEncoder)

    objects = AuditEntryQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "audit entry"
        verbose_name_plural = "audit log"
        indexes = [models.Index(fields=["target_content_type", "target_object_id"])]

    def __str__(self) -> str:
        return (
            f"{self.created_at:%Y-%m-%d %H:%M} {self.actor_repr}: {audit_action_label(self.action)}"
        )

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:  # Django's documented ModelState (ref/models/instances)
            raise AppendOnlyError("Audit entries cannot be changed.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("Audit entries cannot be deleted.")
