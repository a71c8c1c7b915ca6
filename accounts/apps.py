from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_login_failed

        from accounts import schema  # noqa: F401  (registers the OpenAPI auth extension)
        from accounts.audit import ACTIONS
        from accounts.login_limits import login_failed_receiver
        from moderation.audit import audit_actions_register

        audit_actions_register(ACTIONS)
        user_login_failed.connect(login_failed_receiver, dispatch_uid="accounts-login-limits")
