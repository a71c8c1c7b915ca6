from django.apps import AppConfig


class LaddersConfig(AppConfig):
    name = "ladders"
    verbose_name = "Ladders"

    def ready(self) -> None:
        """Listen for games that end (a ladder challenge's game moves the ladder), and
        register the audit actions."""
        from games.signals import game_ended
        from ladders.audit import ACTIONS
        from ladders.handlers import on_game_ended
        from moderation.audit import audit_actions_register

        audit_actions_register(ACTIONS)

        game_ended.connect(on_game_ended, dispatch_uid="ladders.on_game_ended")
