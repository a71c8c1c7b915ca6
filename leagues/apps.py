from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Leagues"

    def ready(self) -> None:
        """Register the leagues' emails and audit actions."""
        from leagues.audit import ACTIONS
        from leagues.emails import emails_register
        from moderation.audit import audit_actions_register

        emails_register()
        audit_actions_register(ACTIONS)
