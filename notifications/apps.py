from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from accounts import signals
        from notifications import account_emails

        signals.password_reset_requested.connect(
            account_emails.on_password_reset_requested, dispatch_uid="notifications-reset"
        )
        signals.signup_pending.connect(
            account_emails.on_signup_pending, dispatch_uid="notifications-signup-pending"
        )
        signals.signup_address_taken.connect(
            account_emails.on_signup_address_taken, dispatch_uid="notifications-signup-taken"
        )
