from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        """Listen for games that end, and install the pairing systems and the formats."""
        from games.signals import game_ended
        from tournaments.handlers import on_game_ended
        from tournaments.models import Tournament
        from tournaments.pairing.dutch import pair_dutch
        from tournaments.pairing.round_robin import pair_round_robin
        from tournaments.plugins import pairing_system_register, tournament_format_register
        from tournaments.services.formats.knockout import Knockout
        from tournaments.services.formats.round_robin import RoundRobin
        from tournaments.services.formats.swiss import Swiss

        game_ended.connect(on_game_ended, dispatch_uid="tournaments.on_game_ended")
        pairing_system_register(format=Tournament.Format.ROUND_ROBIN, system=pair_round_robin)
        pairing_system_register(format=Tournament.Format.SWISS, system=pair_dutch)
        for handler in (RoundRobin(), Knockout(), Swiss()):
            tournament_format_register(format=handler.code, handler=handler)
