from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        """Listen for games that end, install the pairing systems, register the audit
        actions."""
        from games.signals import game_ended
        from moderation.audit import audit_actions_register
        from tournaments.audit import ACTIONS
        from tournaments.handlers import on_game_ended
        from tournaments.models import Tournament
        from tournaments.pairing.dutch import pair_dutch
        from tournaments.pairing.round_robin import pair_round_robin
        from tournaments.plugins import pairing_system_register

        game_ended.connect(on_game_ended, dispatch_uid="tournaments.on_game_ended")
        pairing_system_register(format=Tournament.Format.ROUND_ROBIN, system=pair_round_robin)
        pairing_system_register(format=Tournament.Format.SWISS, system=pair_dutch)
        audit_actions_register(ACTIONS)
