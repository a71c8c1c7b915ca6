"""Concurrency and integrity: racing submissions, and database rules that make an impossible
state unstorable whatever the application does."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, OperationalError, connection, transaction
from django.utils import timezone

from games import engine, errors, services
from games.models import Challenge, Game, GameSeat, Move
from games.services import moves as move_services
from tests.games.conftest import submit, token_client

on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="SQLite has no row locks: select_for_update is a no-op there, and the loser of a "
    "race between two deferred transactions fails with 'database is locked' instead of "
    "waiting for the lock and then finding the ply moved on. PostgreSQL runs this in CI.",
)


def race(*calls: Callable[[], Any]) -> list[Any]:
    """Run ``calls`` in threads released together; answer each result or raised exception."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = call()
        except Exception as exc:  # the test inspects it
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.fixture
def slow_engine(monkeypatch):
    """Hold the game lock a little longer, so that a racing request surely arrives meanwhile."""
    replay = engine.replay

    def slow_replay(rows, game):
        time.sleep(0.3)
        return replay(rows, game)

    monkeypatch.setattr(move_services, "replay", slow_replay)


def submitter(game: Game, user, notation: str, ply: int = 0) -> Callable[[], Any]:
    return lambda: services.move_submit(
        game_id=game.pk, user=user, expected_ply=ply, notation=notation
    )


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_two_racing_submissions_one_wins_the_other_gets_stale_ply(game, alice, slow_engine):
    results = race(submitter(game, alice, "d5 ESW"), submitter(game, alice, "e6 NS n"))
    winners = [r for r in results if isinstance(r, services.MoveOutcome)]
    losers = [r for r in results if isinstance(r, errors.StalePly)]
    assert len(winners) == 1 and len(losers) == 1, results
    assert losers[0].status == 409 and losers[0].extra == {"current_ply": 1}
    stored = list(Move.objects.filter(game=game).values_list("ply", "notation"))
    assert stored == [(0, winners[0].turns[0].notation)]
    assert Game.objects.get(pk=game.pk).ply == 1


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_racing_repeats_with_one_idempotency_key_both_get_the_first_answer(
    game, alice, slow_engine
):
    client_one, client_two = token_client(alice, "one"), token_client(alice, "two")
    responses = race(
        lambda: submit(client_one, game.pk, 0, "d5 ESW", HTTP_IDEMPOTENCY_KEY="race"),
        lambda: submit(client_two, game.pk, 0, "d5 ESW", HTTP_IDEMPOTENCY_KEY="race"),
    )
    assert [r.status_code for r in responses] == [201, 201], responses
    assert responses[0].json() == responses[1].json()
    assert sorted(r.get("Idempotent-Replay", "") for r in responses) == ["", "true"]
    assert Move.objects.filter(game=game).count() == 1


@pytest.mark.django_db(transaction=True)
def test_racing_submissions_never_store_two_moves(game, alice, bob, slow_engine):
    """On any database: at most one of two racing moves is stored; the other fails cleanly."""
    results = race(submitter(game, alice, "d5 ESW"), submitter(game, alice, "e6 NS n"))
    winners = [r for r in results if isinstance(r, services.MoveOutcome)]
    assert len(winners) == 1, results
    loser = next(r for r in results if r not in winners)
    assert isinstance(loser, errors.StalePly | OperationalError), loser
    assert Move.objects.filter(game=game).count() == 1
    assert Game.objects.get(pk=game.pk).ply == 1


# --- the database refuses impossible states ----------------------------------------------------


def add_row(game: Game, ply: int, notation: str = "d5 ESW", **fields: Any) -> Move:
    return Move.objects.create(
        game=game,
        ply=ply,
        seat=fields.pop("seat", 1),
        kind=fields.pop("kind", "move"),
        notation=notation,
        **fields,
    )


def test_two_moves_at_one_ply_are_unstorable(game):
    add_row(game, 0)
    with pytest.raises(IntegrityError), transaction.atomic():
        add_row(game, 0, "e6 NS n")
    assert Move.objects.filter(game=game).count() == 1


def test_a_gap_in_the_plies_is_unstorable(game):
    with pytest.raises(IntegrityError), transaction.atomic():
        add_row(game, 1)
    add_row(game, 0)
    with pytest.raises(IntegrityError), transaction.atomic():
        add_row(game, 2, seat=2)
    assert Move.objects.filter(game=game).count() == 1


def test_a_move_after_the_end_is_unstorable(game, alice):
    services.game_resign(game_id=game.pk, user=alice)
    with pytest.raises(IntegrityError), transaction.atomic():
        add_row(game, 0)
    assert not Move.objects.filter(game=game).exists()


def test_a_move_in_an_annulled_game_is_unstorable(game):
    Game.objects.filter(pk=game.pk).update(
        status="annulled", seat_to_move=None, finished_at=timezone.now(), termination="annulled"
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        add_row(game, 0)


def test_recorded_moves_never_change(game):
    row = add_row(game, 0)
    row.notation = "e6 NS n"
    with pytest.raises(IntegrityError), transaction.atomic():
        row.save()
    with pytest.raises(IntegrityError), transaction.atomic():
        Move.objects.filter(pk=row.pk).update(seat=2)
    assert Move.objects.get(pk=row.pk).notation == "d5 ESW"


def test_a_pass_has_no_notation_and_a_move_has_one(game):
    with pytest.raises(IntegrityError), transaction.atomic():
        add_row(game, 0, kind="pass")
    with pytest.raises(IntegrityError), transaction.atomic():
        add_row(game, 0, "", kind="move")


def test_game_row_constraints(game, alice):
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=game.pk).update(status="finished", seat_to_move=None)  # no result
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=game.pk).update(result="1-0")  # a result while active
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=game.pk).update(seat_to_move=None)  # active, nobody to move
    with pytest.raises(IntegrityError), transaction.atomic():
        GameSeat.objects.filter(game=game, seat=2).update(user=alice)  # against oneself
    with pytest.raises(IntegrityError), transaction.atomic():
        Challenge.objects.create(challenger=alice, opponent=alice)
    game.refresh_from_db()
    assert (game.status, game.result, game.seat_to_move) == ("active", "", 1)
