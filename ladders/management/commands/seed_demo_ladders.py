"""A demo ladder for ``make run``: ``manage.py seed_demo_ladders``.

"Celtic Club Ladder": seven players who joined three weeks ago, four challenges decided since
(two climbs, a defence, a win on time with its drop) and gwen's challenge to bob being
played. Made through
the services at past dates, as the hook would have run them. Runs ``seed_demo_tournaments``
first (for its players); safe to run again (it then does nothing).
"""

from __future__ import annotations

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
from games.kinds.base import Departure
from games.models import Game
from games.selectors import game_position
from ladders import services
from ladders.models import Ladder, LadderChallenge
from notifications.models import OutboxEmail

LADDER = "Celtic Club Ladder"
"""The finishing order of a challenge game the challenger (seat 1) wins."""
PLAYERS = ["alice", "bob", "dara", "eoin", "fiona", "gwen", "hana"]
MORE_PLAYERS = {  # made here if seed_demo_tournaments has not made them
    "dara": ("Dara Mac Giolla", "IE", "Europe/Dublin"),
    "eoin": ("Eoin Walsh", "IE", "Europe/Dublin"),
    "fiona": ("Fiona MacLeod", "GB", "Europe/London"),
    "gwen": ("Gwen Morgan", "GB", "Europe/London"),
    "hana": ("Hana Novak", "CZ", "Europe/Prague"),
}
# (challenger, defender, days ago made, days ago decided, who wins or "timeout")
CHALLENGES = [
    ("fiona", "dara", 18, 15, "challenger"),
    ("hana", "gwen", 14, 11, "defender"),
    ("dara", "bob", 10, 5, "timeout"),
    ("eoin", "fiona", 4, 2, "challenger"),
]


class Command(BaseCommand):
    help = "Create a challenge ladder with players and history (after seed_demo_tournaments)."

    def handle(self, *args: Any, **options: Any) -> None:
        call_command("seed_demo_tournaments", stdout=self.stdout)
        if Ladder.objects.filter(name=LADDER).exists():
            self.stdout.write(self.style.SUCCESS("Demo ladder already present."))
            return
        with transaction.atomic():
            first_email = OutboxEmail.objects.order_by("-pk").values_list("pk", flat=True).first()
            seed_ladder(now=timezone.now())
            # Made by this script at past dates: drop the emails rather than send a burst.
            OutboxEmail.objects.filter(pk__gt=first_email or 0).delete()
        self.stdout.write(self.style.SUCCESS(f"Demo ladder created: {settings.SITE_URL}/ladders/"))


@transaction.atomic  # the game_finished receivers run after this, and finds each result recorded
def seed_ladder(*, now: datetime) -> Ladder:
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
        Permission.objects.get(codename="organise_ladder", content_type__app_label="ladders")
    )
    ladder = services.ladder_create(
        organiser=users.get(pk=carol.pk),
        name=LADDER,
        description="Challenge up to three places above you; win and take their place.",
        time_control=TimeControl(kind=ClockKind.PER_MOVE, days_per_move=3),
        challenge_range=3,
        timeout_drop_places=1,
        inactivity_days=45,
    )
    player = {name: users.get(username=name) for name in PLAYERS}
    for name in PLAYERS:
        services.ladder_join(ladder_id=ladder.pk, user=player[name], now=now - timedelta(days=21))
    for challenger, defender, made, decided, outcome in CHALLENGES:
        challenge = services.ladder_challenge(
            ladder_id=ladder.pk,
            challenger=player[challenger],
            defender_id=player[defender].pk,
            now=now - timedelta(days=made),
        )
        _decide(challenge, outcome=outcome, now=now - timedelta(days=decided))
    services.ladder_challenge(
        ladder_id=ladder.pk,
        challenger=player["gwen"],
        defender_id=player["bob"].pk,
        now=now - timedelta(days=1),
    )
    return ladder


def _decide(challenge: LadderChallenge, *, outcome: str, now: datetime) -> None:
    """The challenger (seat 1) moves first; then the loser resigns, or the defender runs
    out of time. The ladder records it as the hook would after the commit."""
    game = challenge.game
    move = sorted(str(m) for m in game_position(game=game).legal_choices())[0]
    game = game_services.move_submit(
        game_id=game.pk,
        user=game.user_at(1),
        expected_ply=0,
        notation=move,
        now=game.turn_started_at,
    ).game
    if outcome == "timeout":
        locked = Game.objects.select_for_update().get(pk=game.pk)
        game_services.game_seat_leave(  # the defender, in seat 2, to move
            game=locked,
            seat=2,
            how=Departure.TIMEOUT,
            termination=Game.Termination.TIMEOUT,
            now=now,
        )
    else:
        loser = challenge.defender if outcome == "challenger" else challenge.challenger
        game_services.game_resign(game_id=game.pk, user=loser, now=now)
    services.ladder_game_ended(game_id=game.pk, now=now)
