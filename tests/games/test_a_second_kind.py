"""A second kind plays through the platform with nothing in the platform naming it.

The kind (``tests/kinds/counting.py``, played here by three) is registered here, as any new
package under ``games/kinds/`` would be, and then played through the services, the clocks and
timeouts, the REST API and the ranking.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import errors, services
from games.clock import ClockKind, TimeControl
from games.kinds import register, unregister
from games.models import Challenge, Game, Move
from games.timeouts import game_timeouts_decide
from rankings.models import PlayerRating, RatedResult
from tests.accounts.factories import make_moderator
from tests.kinds.counting import COUNTING

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


@pytest.fixture(autouse=True)
def counting_kind():
    register(COUNTING)
    yield COUNTING
    unregister(COUNTING.id)


@pytest.fixture
def trio(django_user_model):
    return [
        django_user_model.objects.create_user(name, password="x") for name in ("ann", "ben", "cy")
    ]


def _seek_filled(trio, **extra) -> Game:
    ann, ben, cy = trio
    seek = services.challenge_create(
        challenger=ann, kind="counting", seat_count=3, seat_choice=1, rated=True, **extra
    )
    waiting = services.challenge_accept(challenge_id=seek.pk, user=ben, rng=random.Random(1))
    assert isinstance(waiting, Challenge) and waiting.status == Challenge.Status.OPEN
    game = services.challenge_accept(challenge_id=seek.pk, user=cy, rng=random.Random(1))
    assert isinstance(game, Game)
    return game


def test_an_open_seek_for_three_fills_seat_by_seat_and_starts_when_full(trio):
    game = _seek_filled(trio)
    assert (game.kind, game.seat_count, game.seat_to_move) == ("counting", 3, 1)
    assert game.user_at(1) == trio[0]  # the challenger chose seat 1
    assert set(game.seat_users()) == set(trio)
    assert [game.seat_name(seat) for seat in (1, 2, 3)] == ["North", "East", "South"]


def test_a_seat_cannot_be_taken_twice_and_the_creator_may_cancel_before_it_fills(trio):
    ann, ben, _ = trio
    seek = services.challenge_create(challenger=ann, kind="counting", seat_count=3)
    services.challenge_accept(challenge_id=seek.pk, user=ben)
    with pytest.raises(errors.Conflict, match="already hold a seat"):
        services.challenge_accept(challenge_id=seek.pk, user=ben)
    services.challenge_cancel(challenge_id=seek.pk, user=ann)
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("kind", "seats", "message"),
    [
        ("chess", 2, "Unknown game kind 'chess': expected one of"),
        ("counting", 5, "Counting is played by 2 to 4 players, not 5."),
        ("celtic", 3, "Celtic! is played by 2 players, not 3."),
    ],
)
def test_a_seek_for_a_wrong_kind_or_seat_count_is_refused(trio, kind, seats, message):
    with pytest.raises(errors.DomainError, match=message):
        services.challenge_create(challenger=trio[0], kind=kind, seat_count=seats)


def test_moves_go_round_the_seats_and_the_end_gives_a_finishing_order(trio):
    game = _seek_filled(trio)
    players = game.seat_users()
    for ply, number in enumerate(["2", "2", "2", "2", "1"]):  # the count reaches 9
        mover = game.user_to_move()
        assert mover == players[ply % 3]
        outcome = services.move_submit(
            game_id=game.pk, user=mover, expected_ply=ply, notation=number
        )
        game = outcome.game
    assert game.is_active and game.seat_to_move == 3
    services.move_submit(game_id=game.pk, user=players[2], expected_ply=5, notation="2")
    game.refresh_from_db()
    assert (game.status, game.result, game.seat_to_move) == ("finished", "3 1 2", None)
    assert [(user, place) for user, place in game.placings()] == [
        (players[0], 2),
        (players[1], 3),
        (players[2], 1),
    ]
    assert [(m.seat, m.notation) for m in Move.objects.filter(game=game)] == [
        (1, "2"), (2, "2"), (3, "2"), (1, "2"), (2, "1"), (3, "2"),
    ]  # fmt: skip


def test_awaiting_any_finds_the_games_where_one_of_the_players_is_to_move(trio):
    trio_game = _seek_filled(trio)
    first = trio_game.user_to_move()
    trio_game = services.move_submit(
        game_id=trio_game.pk, user=first, expected_ply=0, notation="1"
    ).game
    second = trio_game.user_to_move()
    (third,) = set(trio) - {first, second}
    duel = services.game_start(players=[third, first])  # third, in seat 1, to move

    def awaiting(users) -> set[int]:
        games = Game.objects.awaiting_any([user.pk for user in users])
        return set(games.values_list("pk", flat=True))

    assert awaiting([second]) == {trio_game.pk}
    assert awaiting([first]) == set()  # seated in both, to move in neither
    assert awaiting([]) == set()
    assert awaiting(trio) == {trio_game.pk, duel.pk}
    for user in trio:  # the same games as ``awaiting`` for each player
        assert awaiting([user]) == set(Game.objects.awaiting(user).values_list("pk", flat=True))
    services.game_resign(game_id=duel.pk, user=third)
    assert awaiting(trio) == {trio_game.pk}  # only games in progress


def test_a_refused_choice_says_how_to_write_one_and_changes_nothing(trio):
    game = _seek_filled(trio)
    with pytest.raises(errors.InvalidNotation, match="write 1 or 2") as caught:
        services.move_submit(
            game_id=game.pk, user=game.user_to_move(), expected_ply=0, notation="3"
        )
    assert caught.value.extra["expected"] == COUNTING.notation_help
    with pytest.raises(errors.NotYourTurn, match="It is North's turn"):
        services.move_submit(game_id=game.pk, user=game.user_at(2), expected_ply=0, notation="1")
    assert Move.objects.count() == 0


def test_a_timeout_removes_one_seat_and_the_others_play_on_with_their_clocks(trio):
    tc = TimeControl(kind=ClockKind.PER_MOVE, days_per_move=2)
    start = timezone.now()
    game = _seek_filled(trio, time_control=tc)
    first = game.user_at(1)
    services.move_submit(game_id=game.pk, user=first, expected_ply=0, notation="1", now=start)
    game.refresh_from_db()
    assert game.seat_to_move == 2
    assert game_timeouts_decide(now=game.deadline + timedelta(seconds=1)) == [game.pk]
    game.refresh_from_db()
    assert (game.status, game.seat_to_move, game.ply) == ("active", 3, 2)
    assert game.seat_row(2).left_at_ply == 2
    assert game.deadline is not None and game.deadline > start + 2 * DAY
    services.game_resign(game_id=game.pk, user=game.user_at(3))
    game.refresh_from_db()
    assert (game.status, game.termination, game.result) == ("finished", "resignation", "1 3 2")


def test_a_moderator_adjudicates_with_a_finishing_order(trio, django_user_model):
    game = _seek_filled(trio)
    moderator = make_moderator()
    with pytest.raises(errors.DomainError, match="is not a finishing order"):
        services.game_adjudicate(game_id=game.pk, actor=moderator, result="1-0", reason="x")
    services.game_adjudicate(game_id=game.pk, actor=moderator, result="2 1 3", reason="abandoned")
    game.refresh_from_db()
    assert [place for _, place in game.placings()] == [2, 1, 3]


def test_conditional_moves_need_a_game_for_two(trio):
    game = _seek_filled(trio)
    with pytest.raises(errors.DomainError, match="has 3 players: conditional moves answer"):
        services.conditional_line_create(
            game_id=game.pk, user=game.user_at(3), expected_ply=0, moves=["1", "2"]
        )


def test_a_rated_game_of_three_is_ranked_in_its_kinds_own_list(trio):
    """The ranking rates the finishing order with its multiplayer model, in a list of the
    kind's own; Celtic!'s list does not change."""
    game = _seek_filled(trio)
    for ply, number in enumerate(["2", "2", "2", "2", "1", "2"]):
        services.move_submit(
            game_id=game.pk, user=game.user_to_move(), expected_ply=ply, notation=number
        )
        game.refresh_from_db()
    result = RatedResult.objects.get(game=game)
    assert result.kind == "counting"
    ratings = {r.player.user_id: r for r in PlayerRating.objects.select_related("player")}
    assert {r.kind for r in ratings.values()} == {"counting"}
    winner = next(user for user, place in game.placings() if place == 1)
    assert max(ratings.values(), key=lambda r: r.shown).player.user_id == winner.pk
