"""A demo league for ``make run``: ``manage.py seed_demo_leagues``.

"Celtic Club League" in its second season: season 1 played out weeks ago (two divisions of
four, one up and one down), season 2 running with the promoted and relegated players in
their new divisions, a rookie division for three newcomers, and some games already over.
Made through the services at past dates, as the beat would have run them. Runs
``seed_demo_tournaments`` first (for its players); safe to run again (it then does nothing).
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
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
from games import services as game_services
from games.clock import ClockKind, TimeControl
from games.models import Game
from games.selectors import game_position
from leagues import services
from leagues.models import Division, League, Season
from notifications.models import OutboxEmail
from tournaments import services as tournament_services

LEAGUE = "Celtic Club League"
SEASON_ONE = ["alice", "bob", "dara", "eoin", "fiona", "gwen", "hana", "ivor"]
NEWCOMERS = ["jade", "kian", "lena"]
MORE_PLAYERS = {  # made here if seed_demo_tournaments has not made them
    "dara": ("Dara Mac Giolla", "IE", "Europe/Dublin"),
    "eoin": ("Eoin Walsh", "IE", "Europe/Dublin"),
    "fiona": ("Fiona MacLeod", "GB", "Europe/London"),
    "gwen": ("Gwen Morgan", "GB", "Europe/London"),
    "hana": ("Hana Novak", "CZ", "Europe/Prague"),
    "ivor": ("Ivor Jones", "GB", "Europe/London"),
    "jade": ("Jade Martin", "FR", "Europe/Paris"),
    "kian": ("Kian Byrne", "IE", "Europe/Dublin"),
    "lena": ("Lena Vogel", "DE", "Europe/Berlin"),
}


class Command(BaseCommand):
    help = "Create a league in its second season (after seed_demo_tournaments' players)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--seed", type=int, default=2026, help="seed for the demo results")

    def handle(self, *args: Any, seed: int, **options: Any) -> None:
        call_command("seed_demo_tournaments", stdout=self.stdout)
        if League.objects.filter(name=LEAGUE).exists():
            self.stdout.write(self.style.SUCCESS("Demo league already present."))
            return
        # The divisions' rounds are paired here, as the script plays them, not by a worker.
        with transaction.atomic(), tournament_services.rounds_paired_in_process():
            first_email = OutboxEmail.objects.order_by("-pk").values_list("pk", flat=True).first()
            seed_league(now=timezone.now(), rng=random.Random(seed))
            # Made by this script at past dates: drop the emails rather than send a burst.
            OutboxEmail.objects.filter(pk__gt=first_email or 0).delete()
        self.stdout.write(self.style.SUCCESS(f"Demo league created: {settings.SITE_URL}/leagues/"))


DAYS_AGO = 7 + 28 + 7 + 2
"""When the first season's registration opened: its week of registration, its 28 days, the
second season's week of registration, and two days of the second season."""


def seed_league(*, now: datetime, rng: random.Random) -> League:
    """Season 1 from 37 to 9 days ago, season 2 started 2 days ago (its registration week
    followed season 1), both as if each step had happened on its day."""
    users = get_user_model().objects
    for name, (display, country, tz) in MORE_PLAYERS.items():
        if not users.filter(username=name).exists():
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
        Permission.objects.get(codename="organise_league", content_type__app_label="leagues"),
        Permission.objects.get(
            codename="organise_tournament", content_type__app_label="tournaments"
        ),
    )
    carol = users.get(pk=carol.pk)
    league = services.league_create(
        organiser=carol,
        name=LEAGUE,
        description="A friendly club league: four players a division, the winner goes up, "
        "the last goes down. Newcomers start in the rookie division.",
        first_registration_opens_at=now - timedelta(days=DAYS_AGO),
        time_control=TimeControl(kind=ClockKind.PER_MOVE, days_per_move=5),
        division_size=4,
        division_min_size=3,
        promotion_count=1,
        relegation_count=1,
        rookie_division=True,
        registration_days=7,
        season_days=28,
        tiebreaks=["de", "sb"],
        now=now - timedelta(days=DAYS_AGO),
    )
    first = league.seasons.get(number=1)
    for name in SEASON_ONE:  # ivor plays one season only
        services.season_register(
            season_id=first.pk, user=users.get(username=name), this_season_only=name == "ivor"
        )
    services.season_advance(season_id=first.pk, now=first.starts_at)
    for division in first.divisions.all():
        _play_all(division, rng=rng, now=first.starts_at + timedelta(days=3), share=1.0)
    services.season_advance(season_id=first.pk, now=first.ends_at)
    second = Season.objects.get(league=league, number=2)
    for name in NEWCOMERS:
        services.season_register(season_id=second.pk, user=users.get(username=name))
    services.season_advance(season_id=second.pk, now=second.starts_at)
    for division in Season.objects.get(pk=second.pk).divisions.all():
        _play_all(division, rng=rng, now=second.starts_at + timedelta(days=1), share=0.5)
    return league


def _play_all(division: Division, *, rng: random.Random, now: datetime, share: float) -> None:
    """End ``share`` of the division's games: a first move, then a random player resigns.
    The division hears at once, as the task would after the commit."""
    games = list(
        Game.objects.filter(tournament_link__tournament=division.tournament).order_by("pk")
    )
    for game in games[: round(len(games) * share)]:
        if game.ply == 0:
            move = sorted(str(m) for m in game_position(game=game).legal_choices())[0]
            game = game_services.move_submit(
                game_id=game.pk, user=game.user_to_move(), expected_ply=0, notation=move, now=now
            ).game
        loser = rng.choice(game.seat_users())
        game_services.game_resign(game_id=game.pk, user=loser, now=now)
        tournament_services.tournament_game_ended(game_id=game.pk, now=now)
