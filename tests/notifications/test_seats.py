"""The games' emails read a game only through its seats (``game.seat_users()``,
``placings()``, ``seat_name()``...), so they hold for any number of seats: a stand-in game of
three seats shows what a game of such a kind would say, which two-seat Celtic! cannot."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from django.template.loader import render_to_string

from games import services as game_services
from games.models import Game
from notifications import events
from notifications.models import OutboxEmail
from tests.accounts.factories import make_user

pytestmark = pytest.mark.django_db

SEAT_NAMES = ("Red", "Green", "Blue")


@dataclass
class ThreeSeats:
    """What the emails read of a finished three-seat game (as ``games.models.Game`` says it)."""

    players: list[Any]
    places: list[int] = field(default_factory=list)
    status: str = Game.Status.FINISHED

    def seat_users(self) -> list[Any]:
        return list(self.players)

    def seat_name(self, seat: int) -> str:
        return SEAT_NAMES[seat - 1]

    def placings(self) -> list[tuple[Any, int]]:
        return list(zip(self.players, self.places, strict=True)) if self.places else []


@pytest.fixture
def trio():
    return [make_user(name) for name in ("ann", "ben", "cai")]


def test_first_place_alone_wins_and_every_other_place_loses(trio):
    ann, ben, cai = trio
    game = ThreeSeats(trio, places=[2, 1, 3])
    assert [events._outcome(game, user) for user in (ann, ben, cai)] == ["lost", "won", "lost"]


def test_a_shared_first_place_is_a_draw_for_those_who_share_it(trio):
    ann, ben, cai = trio
    game = ThreeSeats(trio, places=[1, 3, 1])
    assert [events._outcome(game, user) for user in (ann, ben, cai)] == ["drew", "lost", "drew"]


def test_a_game_without_placings_was_annulled(trio):
    game = ThreeSeats(trio, status=Game.Status.ANNULLED)
    assert events._outcome(game, trio[0]) == "annulled"


def test_the_finishing_order_is_by_place_then_seat_with_the_seat_names(trio):
    game = ThreeSeats(trio, places=[2, 1, 2])
    assert events._places(game) == [
        {"place": 1, "name": "ben", "seat_name": "Green", "rating_change": None},
        {"place": 2, "name": "ann", "seat_name": "Red", "rating_change": None},
        {"place": 2, "name": "cai", "seat_name": "Blue", "rating_change": None},
    ]


def test_the_opponents_are_every_other_seat(trio):
    ann, ben, cai = trio
    assert events.opponents(ThreeSeats(trio), ben) == [ann, cai]
    assert events.opponents(ThreeSeats(trio), make_user("spectator")) == trio


@pytest.mark.parametrize(
    ("places", "shown"),
    [
        ([], ""),
        ([{"place": 1, "name": "Ann", "seat_name": "Orange"}] * 2, ""),  # two seats: as before
        (
            [
                {"place": 1, "name": "Ben", "seat_name": "Green"},
                {"place": 2, "name": "Ann", "seat_name": "Red"},
                {"place": 3, "name": "Cai", "seat_name": "Blue"},
            ],
            "Finishing order: 1. Ben (Green); 2. Ann (Red); 3. Cai (Blue).",
        ),
    ],
)
def test_the_result_email_lists_the_finishing_order_beyond_two_seats(places, shown):
    context = {"outcome": "lost", "opponent_name": "Ben and Cai", "result": "2nd", "ply": 0}
    for template in ("game_finished.txt", "game_finished.html"):
        body = render_to_string(f"notifications/{template}", {**context, "places": places})
        assert ("Finishing order" in body) == bool(shown)
        assert shown in body


def test_a_message_goes_to_the_other_players_only():
    ann, ben = make_user("ann"), make_user("ben")
    game = game_services.game_start(players=[ann, ben])
    game_services.message_post(game_id=game.pk, author=ben, body="Good luck")
    [email] = OutboxEmail.objects.filter(event="game_message")
    assert email.recipient == ann and "Good luck" in email.body_text


def test_whose_turn_follows_the_seat_to_move():
    ann, ben = make_user("ann"), make_user("ben")
    game = game_services.game_start(players=[ann, ben])
    assert (events.is_turn_of(game, ann), events.is_turn_of(game, ben)) == (True, False)
    assert not events.is_turn_of(game, make_user("spectator"))
    game_services.game_resign(game_id=game.pk, user=ann)
    game.refresh_from_db()
    assert (events.is_turn_of(game, ann), events.is_turn_of(game, ben)) == (False, False)
