from django.apps import AppConfig


class LaddersConfig(AppConfig):
    name = "ladders"
    verbose_name = "Ladders"

    def ready(self) -> None:
        """Register the ladders' emails; listen, after the commit, for games that end or
        change their result: a ladder challenge's game moves the ladder."""
        from games import events
        from ladders.audit import ACTIONS
        from ladders.emails import emails_register
        from ladders.handlers import on_game_ended
        from moderation.audit import audit_actions_register

        audit_actions_register(ACTIONS)

        emails_register()
        for event in (events.game_finished, events.game_result_changed):
            events.subscribe(
                event, on_game_ended, after_commit=True, dispatch_uid=f"ladders.{event.name}"
            )
