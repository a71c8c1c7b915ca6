from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        """Register the tournaments' emails and audit actions, listen (after the commit) for
        games that end or change their result and for a worker's start, and install the
        pairing systems and formats. Registers the Celery tasks, which the services queue by
        name (in-process when ``task_always_eager``)."""
        from celery.signals import worker_ready

        import tournaments.tasks  # noqa: F401  (the tasks register themselves)
        from games import events
        from moderation.audit import audit_actions_register
        from tournaments.audit import ACTIONS
        from tournaments.emails import emails_register
        from tournaments.handlers import on_game_ended, on_worker_ready
        from tournaments.models import Tournament
        from tournaments.pairing.dutch import pair_dutch
        from tournaments.pairing.round_robin import pair_round_robin
        from tournaments.plugins import pairing_system_register, tournament_format_register
        from tournaments.services.formats.knockout import Knockout
        from tournaments.services.formats.round_robin import RoundRobin
        from tournaments.services.formats.swiss import Swiss

        emails_register()
        for event in (events.game_finished, events.game_result_changed):
            events.subscribe(
                event, on_game_ended, after_commit=True, dispatch_uid=f"tournaments.{event.name}"
            )
        worker_ready.connect(on_worker_ready, dispatch_uid="tournaments.pairings_resume")
        pairing_system_register(format=Tournament.Format.ROUND_ROBIN, system=pair_round_robin)
        pairing_system_register(format=Tournament.Format.SWISS, system=pair_dutch)
        for handler in (RoundRobin(), Knockout(), Swiss()):
            tournament_format_register(format=handler.code, handler=handler)
        audit_actions_register(ACTIONS)
