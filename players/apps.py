from django.apps import AppConfig


class PlayersConfig(AppConfig):
    """One page per player, the player search, and the ``player_link`` template filters.

    A page layer above games, rankings and tournaments: it reads from all three, and none of
    them imports it (templates load its tags by name).
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "players"
