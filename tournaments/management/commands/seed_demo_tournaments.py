"""Demo tournaments for ``make run``: ``manage.py seed_demo_tournaments``.

A round robin in its second round and a finished knockout, made through the services as an
organiser and players would (games end by moves and resignations). Runs ``seed_demo`` first
for the demo players; safe to run again (it then changes nothing).
"""

from __future__ import annotations

import random
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Permission
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.services import user_create
from demo.management.commands.seed_demo import DEMO_PASSWORD
from games import selectors as game_selectors
from games import services as game_services
from games.models import Game
from notifications.services import outbox_muted
from tournaments import services
from tournaments.models import Tournament

ROUND_ROBIN = "Imbolc Round Robin 2026"
KNOCKOUT = "Samhain Knockout 2025"
MORE_PLAYERS = [
    ("dara", "Dara Mac Giolla", "IE", "Europe/Dublin"),
    ("eoin", "Eoin Walsh", "IE", "Europe/Dublin"),
    ("fiona", "Fiona MacLeod", "GB", "Europe/London"),
    ("gwen", "Gwen Morgan", "GB", "Europe/London"),
]


class Command(BaseCommand):
    help = "Create a running round robin and a finished knockout (after seed_demo's players)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--seed", type=int, default=2026, help="seed for the demo moves")

    def handle(self, *args: Any, seed: int, **options: Any) -> None:
        call_command("seed_demo", stdout=self.stdout)
        if Tournament.objects.filter(name=ROUND_ROBIN).exists():
            self.stdout.write(self.style.SUCCESS("Demo tournaments already present."))
            return
        # The demo's moves were made by this script, not by players waiting for news: queue
        # no email for them rather than send a burst when the server starts. Its rounds are
        # paired here, as it plays them, not by a worker after the commit.
        with outbox_muted(), transaction.atomic(), services.rounds_paired_in_process():
            self._seed(random.Random(seed))
        self.stdout.write(
            self.style.SUCCESS(f"Demo tournaments created: {settings.SITE_URL}/tournaments/")
        )

    def _seed(self, rng: random.Random) -> None:
        users = get_user_model().objects
        for name, display, country, tz in MORE_PLAYERS:
            user_create(
                username=name,
                email=f"{name}@example.com",
                password=DEMO_PASSWORD,
                display_name=display,
                country=country,
                time_zone=tz,
            )
        carol = users.get(username="carol")
        carol.user_permissions.add(
            Permission.objects.get(
                codename="organise_tournament", content_type__app_label="tournaments"
            )
        )
        carol = users.get(pk=carol.pk)  # fresh: no stale permission cache
        self._knockout(carol, [users.get(username=n) for n in ("bob", "dara", "eoin", "gwen")], rng)
        self._round_robin(
            carol,
            [users.get(username=n) for n in ("alice", "bob", "dara", "eoin", "fiona", "gwen")],
            rng,
        )

    def _event(self, organiser: Any, players: list[Any], **settings: Any) -> Tournament:
        tournament = services.tournament_create(organiser=organiser, **settings)
        services.tournament_registration_open(tournament_id=tournament.pk, actor=organiser)
        for player in players:
            services.tournament_register(tournament_id=tournament.pk, user=player)
        services.tournament_start(tournament_id=tournament.pk, actor=organiser)
        return Tournament.objects.get(pk=tournament.pk)

    def _round_robin(self, organiser: Any, players: list[Any], rng: random.Random) -> None:
        """Six players, round 1 over, round 2 under way (one game over, two running)."""
        tournament = self._event(
            organiser,
            players,
            name=ROUND_ROBIN,
            description="Six players, each meets every other once. Rounds start as soon as "
            "the previous one is complete.",
            tiebreaks=["de", "sb", "win"],
        )
        for link in tournament.games.filter(round__number=1).select_related("game"):
            self._play(link.game, rng=rng, finish=True)
        second = list(tournament.games.filter(round__number=2).select_related("game"))
        for index, link in enumerate(second):
            self._play(link.game, rng=rng, finish=index == 0)

    def _knockout(self, organiser: Any, players: list[Any], rng: random.Random) -> None:
        """Four players; tied matches get one more pair, then the higher seed goes through."""
        tournament = self._event(
            organiser,
            players,
            name=KNOCKOUT,
            description="Each match is a pair of games, one with each colour.",
            format=Tournament.Format.KNOCKOUT,
            knockout_extra_pairs=1,
        )
        for _ in range(20):  # a few pairs per match at most
            tournament.refresh_from_db()
            active = Game.objects.filter(
                tournament_link__tournament=tournament, status=Game.Status.ACTIVE
            )
            if tournament.status == Tournament.Status.FINISHED or not active.exists():
                break
            for game in active:
                self._play(game, rng=rng, finish=True)

    def _play(self, game: Game, *, rng: random.Random, finish: bool) -> None:
        """A few random legal moves through the real service; if ``finish``, someone then
        resigns. The event hears of the end at once (as the task would after the commit)."""
        for _ in range(rng.randrange(4, 14)):
            game.refresh_from_db()
            if not game.is_active:
                break
            move = rng.choice(game_selectors.game_position(game=game).legal_moves())
            game_services.move_submit(
                game_id=game.pk,
                user=self._mover(game),
                expected_ply=game.ply,
                notation=str(move),
            )
        game.refresh_from_db()
        if finish and game.is_active:
            loser = rng.choice([game.orange, game.blue])
            game_services.game_resign(game_id=game.pk, user=loser)
        services.tournament_game_ended(game_id=game.pk)

    @staticmethod
    def _mover(game: Game) -> AbstractBaseUser:
        return game.orange if game.to_move == "orange" else game.blue
