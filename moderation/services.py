"""Writes to the audit log. Other apps call :func:`audit_record` inside their own transaction."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.db import models

from moderation.audit import audit_action_check
from moderation.models import AuditEntry
from moderation.roles import MODERATOR_PERMISSIONS, MODERATORS_GROUP

SYSTEM_ACTOR = "system"


def audit_record(
    *,
    actor: AbstractBaseUser | AnonymousUser | None,
    action: str,
    target: models.Model | None,
    reason: str = "",
    data: dict[str, Any] | None = None,
) -> AuditEntry:
    """Append one entry: ``actor`` (``None`` for the system) did ``action`` to ``target``.

    ``action`` is a key its app registered (``moderation.audit``); any other is refused with
    ``UnknownAuditAction``. Call it in the same ``transaction.atomic()`` block as the change
    it describes, so the change and its record commit or roll back together.
    """
    audit_action_check(action)
    is_user = actor is not None and actor.is_authenticated
    entry = AuditEntry(
        actor=actor if is_user else None,
        actor_repr=_actor_repr(actor if is_user else None),
        action=action,
        reason=reason.strip(),
        data=data or {},
    )
    if target is not None:
        entry.target_content_type = ContentType.objects.get_for_model(target)
        entry.target_object_id = str(target.pk)
        entry.target_repr = _clip(f"{target._meta.verbose_name} {target}", 200)
    entry.save()
    return entry


def _actor_repr(actor: AbstractBaseUser | None) -> str:
    if actor is None:
        return SYSTEM_ACTOR
    return _clip(f"{actor.get_username()} (#{actor.pk})", 200)


def _clip(text: str, length: int) -> str:
    return text if len(text) <= length else text[: length - 1] + "…"


def moderators_group_sync() -> Group:
    """Create the ``Moderators`` group if needed and give it exactly ``MODERATOR_PERMISSIONS``.

    Safe to run any number of times. Raises ``LookupError`` naming the permissions that do
    not exist (a typo, or ``migrate`` not run yet).
    """
    wanted = {tuple(name.split(".", 1)) for name in MODERATOR_PERMISSIONS}
    found = {
        (perm.content_type.app_label, perm.codename): perm
        for perm in Permission.objects.select_related("content_type").filter(
            codename__in={codename for _, codename in wanted}
        )
        if (perm.content_type.app_label, perm.codename) in wanted
    }
    missing = sorted(".".join(key) for key in wanted - set(found))
    if missing:
        raise LookupError(f"Unknown permissions for the moderators group: {', '.join(missing)}.")
    group, _ = Group.objects.get_or_create(name=MODERATORS_GROUP)
    group.permissions.set(found.values())
    return group
