from django.apps import AppConfig


class RankingsConfig(AppConfig):
    name = "rankings"
    verbose_name = "World ranking"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Listen to games' results (before notifications, which reports the rating change)."""
        from rankings.receivers import games_events_subscribe

        games_events_subscribe()
