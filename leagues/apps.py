from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Leagues"

    def ready(self) -> None:
        """Register the leagues' emails."""
        from leagues.emails import emails_register

        emails_register()
