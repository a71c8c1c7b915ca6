"""Migration games/0010 (game kinds and seats) carries every game across without loss.

The database is taken back to games/0009, filled through the old models with a few thousand
games (random Celtic! records, finished, resigned, drawn, running, annulled, with clocks) and
challenges, then migrated forward; every game's players, clocks, turn, result and record are
compared row by row, and so are the counts.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.engine import game_state
from games.kinds.celtic import GameState, random_playout
from games.models import Challenge, Game, GameSeat, Move

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0009_takebacks")]
GAMES = 2500
T0 = datetime(2026, 1, 1, tzinfo=UTC)
COLOUR = {"orange": 1, "blue": 2}


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def _old_games(apps, rng: random.Random) -> dict[int, dict]:
    """Games written through the old models; answers what each one must keep."""
    User = apps.get_model("auth", "User")
    OldGame = apps.get_model("games", "Game")
    OldMove = apps.get_model("games", "Move")
    OldChallenge = apps.get_model("games", "Challenge")
    users = [User.objects.create(username=f"p{i}", password="x") for i in range(40)]
    expected: dict[int, dict] = {}
    moves = []
    for number in range(GAMES):
        orange, blue = rng.sample(users, 2)
        state = random_playout(GameState.new(), rng) if number % 3 else GameState.new()
        turns = (
            state.history[: rng.randrange(len(state.history) + 1)] if number % 5 else state.history
        )
        status, result, to_move = _ending(number, turns, state, rng)
        game = OldGame.objects.create(
            orange=orange, blue=blue, status="active", result="", to_move="orange",
            turn_started_at=T0, orange_time_left=timedelta(days=rng.randrange(1, 9)),
            blue_time_left=None if number % 7 == 0 else timedelta(hours=rng.randrange(1, 99)),
            ply=len(turns),
        )  # fmt: skip
        for ply, turn in enumerate(turns):
            kind = type(turn).__name__.lower()
            side = turn.player.value if kind in ("pass", "forfeit") else ("orange", "blue")[ply % 2]
            notation = "" if kind == "pass" else str(getattr(turn, "move", turn))
            moves.append(OldMove(game=game, ply=ply, side=side, kind=kind, notation=notation))
        OldMove.objects.bulk_create(moves)
        moves = []
        finished_at = None if status == "active" else T0 + timedelta(days=3)
        OldGame.objects.filter(pk=game.pk).update(
            status=status, result=result, to_move=to_move, finished_at=finished_at
        )
        expected[game.pk] = {
            "seats": [
                (1, orange.pk, game.orange_time_left, _place(result, "orange")),
                (2, blue.pk, game.blue_time_left, _place(result, "blue")),
            ],
            "seat_to_move": COLOUR.get(to_move),
            "status": status,
            "result": result,
            "moves": [
                (m.ply, COLOUR[m.side], m.kind, m.notation)
                for m in OldMove.objects.filter(game=game).order_by("ply")
            ],
        }
    for colour in ("orange", "blue", "random"):
        OldChallenge.objects.create(challenger=users[0], colour=colour)
    return expected


def _ending(number, turns, state, rng):
    """An ending for game ``number``: played out, resigned, drawn, annulled or running."""
    if number % 11 == 0:
        return "annulled", "", ""
    if len(turns) == len(state.history) and state.is_over():
        return "finished", state.result().text, ""
    if number % 4 == 0:
        return "finished", rng.choice(["1-0", "0-1", "1/2-1/2"]), ""
    return "active", "", ("orange", "blue")[len(turns) % 2]


def _place(result: str, colour: str) -> int | None:
    places = {"1-0": (1, 2), "0-1": (2, 1), "1/2-1/2": (1, 1)}.get(result)
    return None if places is None else places[colour == "blue"]


def test_every_game_keeps_its_players_clocks_result_and_record():
    _migrate(BEFORE)
    try:
        expected = _old_games(_migrate(BEFORE), random.Random(24))
    finally:
        _migrate(_latest())

    assert Game.objects.count() == GAMES
    assert GameSeat.objects.count() == 2 * GAMES
    assert Move.objects.count() == sum(len(game["moves"]) for game in expected.values())
    for game in Game.objects.prefetch_related("seats", "moves"):
        want = expected[game.pk]
        seats = [(s.seat, s.user_id, s.time_left, s.place) for s in game.seats.all()]
        moves = [(m.ply, m.seat, m.kind, m.notation) for m in game.moves.all()]
        assert (game.kind, game.seat_count) == ("celtic", 2)
        assert seats == want["seats"], game.pk
        assert game.seat_to_move == want["seat_to_move"], game.pk
        assert (game.status, game.result) == (want["status"], want["result"]), game.pk
        assert moves == want["moves"], game.pk
        replayed = [(s.seat, s.kind.value, s.notation) for s in game_state(game).steps]
        assert replayed[: game.ply] == [move[1:] for move in moves], game.pk  # through its kind
    assert sorted(Challenge.objects.values_list("seat_choice", flat=True), key=str) == [1, 2, None]
