from __future__ import annotations

from typing import Any

from django.apps import AppConfig, apps
from django.db.models.signals import post_migrate


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = "Moderation"

    def ready(self) -> None:
        from moderation.audit import ACTIONS, audit_actions_register

        audit_actions_register(ACTIONS)

        post_migrate.connect(_sync_moderators_group, dispatch_uid="moderators_group_sync")


def _sync_moderators_group(sender: AppConfig, using: str = "default", **kwargs: Any) -> None:
    """After ``migrate``, bring the moderators group up to date.

    ``post_migrate`` is sent once per app with models, in ``INSTALLED_APPS`` order, and each
    app's permissions are made by its own signal: wait for the last app's, when all exist.
    """
    with_models = [config for config in apps.get_app_configs() if config.models_module]
    if sender is not with_models[-1] or using != "default":
        return
    from moderation.services import moderators_group_sync

    moderators_group_sync()
