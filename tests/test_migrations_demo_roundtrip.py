"""The game-kinds migrations keep the demo data (``make run``'s four seed commands).

The demo is written by today's services, so it is seeded at the newest migrations and taken
back to before the kinds (games/0010 and 0011, tournaments/0006, leagues/0004, ladders/0002)
and forward again: every row of every table of the project's apps must come back unchanged
(the re-created seats compared without their ids), and every game must still replay through
its kind. The old columns hold only Celtic! games for two: the demo's Celtic Knot game for
four and its Knot seek are named by the reverse's refusal, then removed before the roundtrip.
"""

from __future__ import annotations

from importlib import import_module
from io import StringIO
from typing import Any

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection
from django.db.migrations.exceptions import IrreversibleError
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.recorder import MigrationRecorder
from django.db.migrations.state import StateApps

from games.engine import game_state
from games.models import Challenge, Game, GameSeat, Move
from games.services import game_start
from ladders.models import Ladder
from leagues.models import League
from rankings.models import RatedResult
from tests.accounts.factories import make_user
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_KINDS = [
    ("games", "0009_takebacks"),
    ("tournaments", "0005_round_pairing"),
    ("leagues", "0003_membership_invitations"),
    ("ladders", "0001_initial"),
]
SEED_COMMANDS = [
    ["seed_demo", "--no-banner"],
    ["seed_demo_tournaments"],
    ["seed_demo_leagues"],
    ["seed_demo_ladders"],
]
PROJECT_APPS = {
    "accounts", "moderation", "games", "rankings", "tournaments", "leagues", "ladders",
    "notifications",
}  # fmt: skip
#: Rows the migration builds anew: compared without their ids, in this order.
REBUILT = {GameSeat: ("game_id", "seat")}


def _migrate(targets: list[tuple[str, str]]) -> StateApps:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def _seed_demo() -> None:
    for command in SEED_COMMANDS:
        call_command(*command, stdout=StringIO())


def _snapshot() -> dict[str, list[dict[str, Any]]]:
    """Every row of every table of the project's apps, and the users, in key order."""
    models = [
        (app, model) for app in PROJECT_APPS for model in apps.get_app_config(app).get_models()
    ]
    models.append(("auth", apps.get_model("auth", "User")))
    snapshot = {}
    for app, model in models:
        if model in REBUILT:
            rows = model.objects.order_by(*REBUILT[model]).values()
            rows = [{k: v for k, v in row.items() if k != "id"} for row in rows]
        else:
            rows = model.objects.order_by("pk").values()
        snapshot[f"{app}.{model.__name__}"] = list(rows)
    return snapshot


def _in_colours(snapshot: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """What the columns before games/0010 must hold for ``snapshot``: seat 1 is Orange."""
    colour = {1: "orange", 2: "blue", None: ""}
    players = {(s["game_id"], s["seat"]): s for s in snapshot["games.GameSeat"]}
    return {
        "games": [
            (
                g["id"],
                players[g["id"], 1]["user_id"],
                players[g["id"], 2]["user_id"],
                players[g["id"], 1]["time_left"],
                players[g["id"], 2]["time_left"],
                colour[g["seat_to_move"]],
            )
            for g in snapshot["games.Game"]
        ],
        "moves": [(m["id"], colour[m["seat"]]) for m in snapshot["games.Move"]],
        "challenges": [
            (c["id"], colour[c["seat_choice"]] or "random") for c in snapshot["games.Challenge"]
        ],
    }


def _colours(old: StateApps) -> dict[str, Any]:
    """What the columns before games/0010 hold."""
    columns = ("pk", "orange", "blue", "orange_time_left", "blue_time_left", "to_move")
    by_pk = {
        name: old.get_model("games", name).objects.order_by("pk")
        for name in ("Game", "Move", "Challenge")
    }
    return {
        "games": list(by_pk["Game"].values_list(*columns)),
        "moves": list(by_pk["Move"].values_list("pk", "side")),
        "challenges": list(by_pk["Challenge"].values_list("pk", "colour")),
    }


def _refused_going_back() -> str:
    """The message of the check games/0010's reverse runs first, on today's models."""
    guard = import_module("games.migrations.0010_game_seats").refuse_what_colours_cannot_hold
    with pytest.raises(IrreversibleError) as refused:
        guard(apps, None)
    return str(refused.value)


def test_the_demo_survives_going_back_before_the_kinds_and_forward_again():
    _seed_demo()
    knot_game, knot_seek = Game.objects.get(kind="knot"), Challenge.objects.get(kind="knot")
    only_game, only_seek = f"1 (#{knot_game.pk})", f"1 (#{knot_seek.pk})"
    assert _refused_going_back() == (
        "games/0010_game_seats cannot be reversed: the columns before it hold only Celtic! "
        "games for two (seat 1 as Orange, seat 2 as Blue). Found games of another kind or "
        f"seat count: {only_game}; games without exactly seats 1 and 2: {only_game}; games "
        f"with a chance seed: {only_game}; challenges of another kind or seat count: "
        f"{only_seek}. Remove those rows first, or stay at games/0010 or later."
    )
    knot_game.delete()
    knot_seek.delete()
    before = _snapshot()
    assert Game.objects.filter(status="finished").exists()
    assert Game.objects.filter(status="active").exists()
    assert Move.objects.exists() and RatedResult.objects.exists()
    assert Tournament.objects.exists() and League.objects.exists() and Ladder.objects.exists()

    try:
        old = _migrate(BEFORE_KINDS)
        assert _colours(old) == _in_colours(before)
        with pytest.raises(LookupError):
            old.get_model("games", "GameSeat")
    finally:
        _migrate(_latest())

    after = _snapshot()
    assert {label: len(rows) for label, rows in after.items()} == {
        label: len(rows) for label, rows in before.items()
    }
    for label, rows in before.items():
        assert after[label] == rows, label
    for game in Game.objects.prefetch_related("moves"):
        steps = [(s.seat, s.kind.value, s.notation) for s in game_state(game).steps]
        assert steps[: game.ply] == [(m.seat, m.kind, m.notation) for m in game.moves.all()]


def test_going_back_is_refused_and_changes_nothing_while_a_game_needs_its_seats():
    players = [make_user(name) for name in ("ann", "bob", "cy")]
    race = game_start(players=players, kind="knot")

    try:
        with pytest.raises(
            IrreversibleError, match=rf"games of another kind or seat count: 1 \(#{race.pk}\)"
        ):
            _migrate(BEFORE_KINDS)
        applied = MigrationRecorder(connection).applied_migrations()
        assert ("games", "0010_game_seats") in applied
    finally:
        _migrate(_latest())

    race.refresh_from_db()
    assert (race.kind, race.seat_count) == ("knot", 3)
    assert list(race.seats.values_list("seat", "user_id")) == [
        (seat, player.pk) for seat, player in enumerate(players, 1)
    ]
