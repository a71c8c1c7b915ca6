"""Demo tournaments for ``make run``: ``manage.py seed_demo_tournaments``.

A round robin in its second round and a finished knockout, made through the services as an
organiser and players would (games end by moves and resignations). Each is named after a
Celtic quarter day and dated to match (``demo_events``): the round robin is under way in
the season of the latest one, and the knockout was played from the one before. Runs
``seed_demo`` first for the demo players; safe to run again (it then changes nothing).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from accounts.services import user_create
from demo.management.commands.seed_demo import DEMO_PASSWORD
from games import selectors as game_selectors
from games import services as game_services
from games.models import Game
from notifications.services import outbox_muted
from tournaments import services
from tournaments.models import Entry, Tournament

#: The Celtic quarter days (month, day) the demo events are named after.
QUARTER_DAYS = ((2, 1, "Imbolc"), (5, 1, "Beltane"), (8, 1, "Lughnasa"), (11, 1, "Samhain"))
#: Time between two moves of the knockout, played at its own (past) dates.
MOVE_INTERVAL = timedelta(hours=7)
MORE_PLAYERS = [
    ("dara", "Dara Mac Giolla", "IE", "Europe/Dublin"),
    ("eoin", "Eoin Walsh", "IE", "Europe/Dublin"),
    ("fiona", "Fiona MacLeod", "GB", "Europe/London"),
    ("gwen", "Gwen Morgan", "GB", "Europe/London"),
]


@dataclass(frozen=True)
class DemoEvents:
    """The demo events' names, and the day the knockout started."""

    round_robin: str
    knockout: str
    knockout_starts: datetime


def demo_events(today: date) -> DemoEvents:
    """The round robin is named after the latest quarter day on or before ``today`` (it
    runs now); the knockout after the one before, from which day it was played."""
    days = [
        (date(year, month, day), name)
        for year in (today.year - 1, today.year)
        for month, day, name in QUARTER_DAYS
    ]
    past = [(day, name) for day, name in days if day <= today]
    (ko_day, ko_name), (rr_day, rr_name) = past[-2], past[-1]
    return DemoEvents(
        round_robin=f"{rr_name} Round Robin {rr_day.year}",
        knockout=f"{ko_name} Knockout {ko_day.year}",
        knockout_starts=datetime(ko_day.year, ko_day.month, ko_day.day, 18, tzinfo=UTC),
    )


class Command(BaseCommand):
    help = "Create a running round robin and a finished knockout (after seed_demo's players)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--seed", type=int, default=2026, help="seed for the demo moves")

    def handle(self, *args: Any, seed: int, **options: Any) -> None:
        call_command("seed_demo", stdout=self.stdout, banner=False)
        if get_user_model().objects.filter(username=MORE_PLAYERS[0][0]).exists():
            self.stdout.write(self.style.SUCCESS("Demo tournaments already present."))
            return
        # The demo's moves were made by this script, not by players waiting for news: queue
        # no email for them rather than send a burst when the server starts. Its rounds are
        # paired here, as it plays them, not by a worker after the commit.
        with outbox_muted(), transaction.atomic(), services.rounds_paired_in_process():
            self._seed(random.Random(seed), demo_events(timezone.localdate()))
        self.stdout.write(
            self.style.SUCCESS(f"Demo tournaments created: {settings.SITE_URL}/tournaments/")
        )

    def _seed(self, rng: random.Random, events: DemoEvents) -> None:
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
        knockout_players = [users.get(username=n) for n in ("bob", "dara", "eoin", "gwen")]
        self._knockout(carol, knockout_players, rng, events)
        self._round_robin(
            carol,
            [users.get(username=n) for n in ("alice", "bob", "dara", "eoin", "fiona", "gwen")],
            rng,
            name=events.round_robin,
        )

    def _event(
        self, organiser: Any, players: list[Any], *, now: datetime | None = None, **settings: Any
    ) -> Tournament:
        """Create, open, fill and start an event (at ``now``, a past date, or today)."""
        tournament = services.tournament_create(organiser=organiser, **settings)
        services.tournament_registration_open(tournament_id=tournament.pk, actor=organiser)
        registered = None if now is None else now - timedelta(days=3)
        for player in players:
            services.tournament_register(tournament_id=tournament.pk, user=player, now=registered)
        services.tournament_start(tournament_id=tournament.pk, actor=organiser, now=now)
        if registered is not None:  # their rows are stamped when written: date them back
            Tournament.objects.filter(pk=tournament.pk).update(
                created_at=registered - timedelta(days=14)
            )
            Entry.objects.filter(tournament=tournament).update(registered_at=registered)
        return Tournament.objects.get(pk=tournament.pk)

    def _round_robin(
        self, organiser: Any, players: list[Any], rng: random.Random, *, name: str
    ) -> None:
        """Six players, round 1 over, round 2 under way (one game over, two running)."""
        tournament = self._event(
            organiser,
            players,
            name=name,
            description="Six players, each meets every other once. Rounds start as soon as "
            "the previous one is complete.",
            tiebreaks=["de", "sb", "win"],
        )
        for link in tournament.games.filter(round__number=1).select_related("game"):
            self._play(link.game, rng=rng, finish=True)
        second = list(tournament.games.filter(round__number=2).select_related("game"))
        for index, link in enumerate(second):
            self._play(link.game, rng=rng, finish=index == 0)

    def _knockout(
        self, organiser: Any, players: list[Any], rng: random.Random, events: DemoEvents
    ) -> None:
        """Four players from the quarter day before the round robin's, each round's games
        played a move every few hours from the round's start; tied matches get one more
        pair, then the higher seed goes through."""
        tournament = self._event(
            organiser,
            players,
            now=events.knockout_starts,
            name=events.knockout,
            description="Each match is a pair of games, one with each colour.",
            format=Tournament.Format.KNOCKOUT,
            knockout_extra_pairs=1,
        )
        for _ in range(20):  # a few pairs per match at most
            tournament.refresh_from_db()
            active = Game.objects.filter(
                tournament_link__tournament=tournament, status=Game.Status.ACTIVE
            ).select_related("tournament_link__round")
            if tournament.status == Tournament.Status.FINISHED or not active.exists():
                break
            for game in active:
                # Every game of a round is played from the round's start (or the pair's).
                start = max(game.turn_started_at, game.tournament_link.round.started_at)
                self._play(game, rng=rng, finish=True, start=start)

    def _play(
        self, game: Game, *, rng: random.Random, finish: bool, start: datetime | None = None
    ) -> None:
        """A few random legal moves through the real service; if ``finish``, someone then
        resigns. The event hears of the end at once (as the task would after the commit).
        From ``start``, a past date, moves are made ``MOVE_INTERVAL`` apart and dated so."""
        clock = _Clock(start)
        for _ in range(rng.randrange(4, 14)):
            game.refresh_from_db()
            if not game.is_active:
                break
            move = rng.choice(game_selectors.game_position(game=game).legal_choices())
            game_services.move_submit(
                game_id=game.pk,
                user=game.user_to_move(),
                expected_ply=game.ply,
                notation=str(move),
                now=clock.tick(),
            )
        game.refresh_from_db()
        if finish and game.is_active:
            loser = rng.choice(game.seat_users())
            game_services.game_resign(game_id=game.pk, user=loser, now=clock.tick())
        services.tournament_game_ended(game_id=game.pk, now=clock.now)
        clock.date_back(game)


class _Clock:
    """The time a past game's moves are made at: ``start``, then ``MOVE_INTERVAL`` more for
    each; without a start, today (``now`` None: the services take the present)."""

    def __init__(self, start: datetime | None) -> None:
        self.start = start
        self.now: datetime | None = None

    def tick(self) -> datetime | None:
        if self.start is not None:
            self.now = (self.now or self.start) + MOVE_INTERVAL
        return self.now

    def date_back(self, game: Game) -> None:
        """Date the game (stamped when written) from its start. Its moves keep the time they
        were written: they are never changed, and no page shows it."""
        if self.start is not None:
            Game.objects.filter(pk=game.pk).update(created_at=self.start)
