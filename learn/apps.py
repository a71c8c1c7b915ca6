from django.apps import AppConfig


class LearnConfig(AppConfig):
    """The rules page and the puzzles page: learning the game from the engine itself."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "learn"
