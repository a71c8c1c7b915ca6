from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Leagues"

    def ready(self) -> None:
        from leagues.audit import ACTIONS
        from moderation.audit import audit_actions_register

        audit_actions_register(ACTIONS)
