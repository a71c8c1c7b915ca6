"""The audit actions: a registry of ``key -> label`` that each app fills in its own
``AppConfig.ready()`` with the actions it records (``games/audit.py``, ``accounts/audit.py``,
...). The audit log's ``action`` column is a plain text field holding a key, so a new action
needs no migration; ``audit_record`` refuses a key nobody registered, and the admin's labels
and filter read the registry.

Moderation declares only the generic actions, below.
"""

from __future__ import annotations

from collections.abc import Mapping

# The length of ``AuditEntry.action``: a longer key could not be stored.
KEY_MAX_LENGTH = 32

OTHER = "other"

ACTIONS = {OTHER: "Other"}

_labels: dict[str, str] = {}


class UnknownAuditAction(ValueError):
    """An action no app registered (a typo, or an app that forgot its ``ready()``)."""


def audit_actions_register(actions: Mapping[str, str]) -> None:
    """Add ``actions`` (key -> label) to the registry; from an ``AppConfig.ready()``.

    Registering a key again with the same label does nothing (``ready()`` may run twice in
    tests); with another label it is a mistake, refused with ``ValueError``."""
    for key, label in actions.items():
        if not key or len(key) > KEY_MAX_LENGTH:
            raise ValueError(
                f"Audit action key {key!r} must be 1 to {KEY_MAX_LENGTH} characters long."
            )
        known = _labels.get(key)
        if known is not None and known != label:
            raise ValueError(f"Audit action {key!r} is already registered as {known!r}.")
        _labels[key] = label


def audit_action_check(key: str) -> str:
    """``key`` when it is a registered action, else ``UnknownAuditAction`` naming it."""
    if key not in _labels:
        raise UnknownAuditAction(
            f"Unknown audit action {key!r}; register it in its app's AppConfig.ready() "
            "with moderation.audit.audit_actions_register."
        )
    return key


def audit_action_label(key: str) -> str:
    """The label of ``key``; the key itself for an action no longer registered (an old
    entry keeps its key when the action that wrote it is gone)."""
    return _labels.get(key, key)


def audit_action_choices() -> list[tuple[str, str]]:
    """Every registered ``(key, label)``, in label order (for the admin's filter)."""
    return sorted(_labels.items(), key=lambda item: item[1].casefold())
