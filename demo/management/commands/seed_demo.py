"""Demo data so a newcomer can log in and move at once: ``manage.py seed_demo``."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.services import user_create
from demo.banner import DEMO_PASSWORD, login_banner
from games import selectors, services
from games.clock import ClockKind, TimeControl
from games.models import Game
from moderation.services import moderators_group_sync
from notifications.services import outbox_muted

PLAYERS = [
    ("alice", "Alice Ó Briain", "IE", "Europe/Dublin"),
    ("bob", "Bob Campbell", "GB", "Europe/London"),
    ("carol", "Carol Kerjean", "FR", "Europe/Paris"),
    ("niamh", "Niamh Ó Cathail", "IE", "Europe/Dublin"),
]


class Command(BaseCommand):
    help = (
        "Create demo players, Celtic! games in progress and finished, a Celtic Knot game for "
        "four in progress, and open challenges."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--seed", type=int, default=2009, help="seed for the demo moves")
        parser.add_argument(
            "--no-banner",
            dest="banner",
            action="store_false",
            help="leave out how to log in (`make run` prints it once the server answers: "
            "manage.py demo_banner)",
        )

    def handle(self, *args: Any, seed: int, banner: bool = True, **options: Any) -> None:
        # The demo's moves and challenges are made by this script before anyone could read
        # about them: queue no email for them, rather than send a burst at start-up.
        with outbox_muted(), transaction.atomic():
            created = self._seed(seed)
        state = "Demo data created." if created else "Demo data already present."
        self.stdout.write(self.style.SUCCESS(state))
        if banner:
            self.stdout.write(login_banner())

    def _seed(self, seed: int) -> bool:
        """Create the demo data unless it is there; returns whether it was created."""
        if get_user_model().objects.filter(username="alice").exists():
            return False
        users = {
            name: user_create(
                username=name,
                email=f"{name}@example.com",
                password=DEMO_PASSWORD,
                display_name=display,
                country=country,
                time_zone=tz,
            )
            for name, display, country, tz in PLAYERS
        }
        self._make_moderator()
        rng = random.Random(seed)

        in_progress = services.game_start(players=[users["alice"], users["bob"]])
        self._play(in_progress, plies=6, rng=rng)
        services.message_post(
            game_id=in_progress.pk, author=users["bob"], body="Good luck! Mind the window."
        )

        finished = services.game_start(
            players=[users["carol"], users["alice"]],
            time_control=TimeControl(kind=ClockKind.NONE),
        )
        self._play(finished, plies=100, rng=rng)

        services.challenge_create(challenger=users["carol"], message="Anyone for a game?")
        services.challenge_create(
            challenger=users["bob"],
            opponent=users["alice"],
            seat_choice=2,
            time_control=TimeControl(kind=ClockKind.FISCHER),
            message="A rematch with a Fischer clock?",
        )
        self._knot(users, rng=rng)
        return True

    def _knot(self, users: dict[str, Any], *, rng: random.Random) -> None:
        """A Celtic Knot game for four where it is alice's turn to choose a square, and an
        open seek for three."""
        race = services.game_start(
            players=[users["bob"], users["carol"], users["alice"], users["niamh"]], kind="knot"
        )
        self._play(race, plies=24, rng=rng)
        for _ in range(1000):  # on to the start of one of alice's turns (seat 3)
            race.refresh_from_db()
            last = race.moves.order_by("-ply").first()
            if not race.is_active or (race.seat_to_move == 3 and last and last.seat != 3):
                break
            self._play(race, plies=1, rng=rng)
        services.challenge_create(
            challenger=users["niamh"],
            kind="knot",
            seat_count=3,
            message="A race for three: Celtic Knot, anyone?",
        )

    def _make_moderator(self) -> None:
        """A staff member of the Moderators group (kept up to date by the sync), not a
        superuser: what a real moderator account looks like."""
        moderator = user_create(
            username="moderator", email="moderator@example.com", password=DEMO_PASSWORD
        )
        moderator.is_staff = True
        moderator.save(update_fields=["is_staff"])
        moderator.groups.add(moderators_group_sync())

    def _play(self, game: Game, *, plies: int, rng: random.Random) -> None:
        """Play random legal moves through the real service, as the players would."""
        for _ in range(plies):
            game.refresh_from_db()
            if not game.is_active:
                return
            move = rng.choice(selectors.game_position(game=game).legal_choices())
            services.move_submit(
                game_id=game.pk,
                user=game.user_to_move(),
                expected_ply=game.ply,
                notation=str(move),
            )
