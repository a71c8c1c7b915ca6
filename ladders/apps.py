from django.apps import AppConfig


class LaddersConfig(AppConfig):
    name = "ladders"
    verbose_name = "Ladders"

    def ready(self) -> None:
        """Listen for games that end: a ladder challenge's game moves the ladder."""
        from games.signals import game_ended
        from ladders.handlers import on_game_ended

        game_ended.connect(on_game_ended, dispatch_uid="ladders.on_game_ended")
