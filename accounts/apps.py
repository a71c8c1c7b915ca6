from typing import Any

from django.apps import AppConfig
from django.core.management import call_command
from django.db.models.signals import post_migrate


def _create_cache_table(*, using: str = "default", **_: Any) -> None:
    """``migrate`` also makes the database cache's table (a no-op with Redis or when present),
    so the throttles and login limits work from the first request."""
    call_command("createcachetable", database=using, verbosity=0)


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from accounts import schema  # noqa: F401  (registers the OpenAPI auth extension)

        post_migrate.connect(_create_cache_table, sender=self)
        from django.contrib.auth.signals import user_login_failed

        from accounts.login_limits import login_failed_receiver

        user_login_failed.connect(login_failed_receiver, dispatch_uid="accounts-login-limits")
