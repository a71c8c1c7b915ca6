"""The kinds contract (``games.kinds.base``), the registry, and Celtic! seen through them."""

from __future__ import annotations

import hashlib
import random

import pytest

from games.kinds import all_kinds, get_kind, register, unregister
from games.kinds.base import Departure, KindError, SeededChance, Step, StepKind
from games.kinds.celtic import GameState, random_playout
from games.kinds.celtic.kind import CelticKind

CELTIC = get_kind("celtic")


def test_celtic_is_registered_with_its_seats() -> None:
    assert isinstance(CELTIC, CelticKind)
    assert [kind.id for kind in all_kinds()] == ["celtic", "knot"]
    assert (CELTIC.name, CELTIC.seats.min, CELTIC.seats.max, CELTIC.has_chance) == (
        "Celtic!",
        2,
        2,
        False,
    )
    assert CELTIC.seat_names(2) == ["Orange", "Blue"]


def test_an_unknown_kind_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(
        KindError, match=r"Unknown game kind 'chess': expected one of celtic, knot\."
    ):
        get_kind("chess")


def test_a_kind_id_cannot_be_registered_twice() -> None:
    with pytest.raises(KindError, match="already registered"):
        register(CelticKind())
    unregister("no-such-kind")  # harmless


def test_a_wrong_seat_count_is_refused() -> None:
    with pytest.raises(KindError, match=r"Celtic! is played by 2 players, not 3\."):
        CELTIC.new_state(3)


def test_steps_replay_to_the_same_position_and_result() -> None:
    engine = random_playout(GameState.new(), random.Random(11))
    state = CELTIC.new_state(2)
    for turn in engine.history:
        if state.is_over():
            break
        if turn.__class__.__name__ == "Pass":
            continue  # recorded by the engine itself after the move that forces it
        assert state.to_act in (1, 2)
        assert str(turn) in state.legal_choices()
        state.play(str(turn))
    assert state.is_over() and state.to_act is None
    again = CELTIC.replay(2, state.steps)
    assert again.steps == state.steps
    order = state.finishing_order()
    assert order is not None
    assert CELTIC.result_text(order) == engine.result().text
    assert CELTIC.order_from_result(CELTIC.result_text(order), 2) == order


def test_a_refused_choice_says_why_and_changes_nothing() -> None:
    state = CELTIC.new_state(2)
    with pytest.raises(KindError, match="not a demand cell"):
        state.play("a1 N")
    assert state.steps == ()
    with pytest.raises(KindError):
        CELTIC.replay(2, [Step(1, StepKind.MOVE, "a1 N")])


def test_leaving_ends_a_two_seat_game_for_the_other_seat() -> None:
    state = CELTIC.new_state(2)
    state.play("d5 ESW")
    assert state.leave(2, Departure.TIMEOUT) == []
    assert state.is_over() and state.to_act is None and state.legal_choices() == []
    assert state.finishing_order() == (frozenset({1}), frozenset({2}))
    assert CELTIC.result_text(state.finishing_order() or ()) == "1-0"


def test_results_read_and_written() -> None:
    assert CELTIC.order_from_result("1/2-1/2", 2) == (frozenset({1, 2}),)
    with pytest.raises(KindError, match="expected '1-0', '0-1' or '1/2-1/2'"):
        CELTIC.order_from_result("2-0", 2)


def test_drawings_and_data_come_from_the_kind() -> None:
    state = CELTIC.new_state(2)
    state.play("d5 ESW")
    assert CELTIC.svg(state).startswith("<svg")
    data = CELTIC.position_data(state)
    assert (data["ply"], data["demand_cells"]) == (1, ["c5", "d4", "e4", "e6", "f5"])
    assert "Ply 1: Orange played d5 ESW." in CELTIC.text(state)
    record = CELTIC.record_text(state, {"Orange": "ann", "Blue": "bob"})
    assert '[Orange "ann"]' in record and "d5 ESW" in record


def test_seeded_chance_is_the_published_derivation() -> None:
    seed = bytes(range(32))
    chance = SeededChance(seed)
    assert chance.commitment == hashlib.sha256(seed).hexdigest()
    assert chance.draw(7) == hashlib.sha256(seed + b":7").digest()
    assert chance.draw(1) != chance.draw(2)
