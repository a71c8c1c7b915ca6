from __future__ import annotations

from typing import Any

from django.apps import AppConfig, apps
from django.db.models.signals import post_migrate


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = "Moderation"

    def ready(self) -> None:
        post_migrate.connect(_sync_moderators_group, dispatch_uid="moderators_group_sync")


def _sync_moderators_group(sender: AppConfig, using: str = "default", **kwargs: Any) -> None:
    """After ``migrate``, once every app's permissions exist (the last app's signal), bring
    the moderators group up to date."""
    if sender is not list(apps.get_app_configs())[-1] or using != "default":
        return
    from moderation.services import moderators_group_sync

    moderators_group_sync()
