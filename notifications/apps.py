from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        """Register notifications' own emails, listen to games' events (after rankings, which
        comes first in INSTALLED_APPS: the game-finished email shows the rating change) and
        to the accounts' signals. Registers the Celery tasks, which the services queue by name
        (in-process when ``task_always_eager``)."""
        import notifications.tasks  # noqa: F401  (the tasks register themselves)
        from accounts import signals
        from notifications import account_emails
        from notifications.email_events import notifications_emails_register
        from notifications.receivers import games_events_subscribe

        notifications_emails_register()
        games_events_subscribe()

        signals.password_reset_requested.connect(
            account_emails.on_password_reset_requested, dispatch_uid="notifications-reset"
        )
        signals.signup_pending.connect(
            account_emails.on_signup_pending, dispatch_uid="notifications-signup-pending"
        )
        signals.signup_address_taken.connect(
            account_emails.on_signup_address_taken, dispatch_uid="notifications-signup-taken"
        )
