"""Celtic Knot through the kinds contract: registration, chance, steps, replays, results."""

from __future__ import annotations

import hashlib
import json

import pytest

from games.kinds import get_kind
from games.kinds.base import Departure, KindError, SeededChance, Step, StepKind
from games.kinds.knot.cli import random_game
from games.kinds.knot.kind import KnotKind
from games.kinds.knot.notation import flips_from_draw, flips_text

KNOT = get_kind("knot")
SEED = bytes(range(32))


def test_knot_is_registered_with_its_seats_and_colours() -> None:
    assert isinstance(KNOT, KnotKind)
    assert (KNOT.name, KNOT.seats.min, KNOT.seats.max, KNOT.has_chance) == (
        "Celtic Knot",
        2,
        6,
        True,
    )
    assert KNOT.seat_names(6) == ["Red", "Blue", "Green", "Yellow", "Purple", "Orange"]
    assert KNOT.seat_names(2) == ["Red", "Blue"]
    with pytest.raises(KindError, match="Celtic Knot is played by 2 to 6 players, not 7"):
        KNOT.seat_names(7)


def test_a_new_game_needs_a_chance_source() -> None:
    with pytest.raises(KindError, match="needs a chance source"):
        KNOT.new_state(3)
    with pytest.raises(KindError, match="not 1"):
        KNOT.new_state(1, chance=SeededChance(SEED))


def test_the_flips_of_a_seeded_game_follow_the_rules_derivation() -> None:
    state, chance = random_game(3, 12)
    flippings = 0
    for step in state.steps:
        flips = step.notation.split()[-1] if step.kind == StepKind.MOVE else ""
        if not flips or flips[0] not in "HT":
            continue  # a destination without an extra move
        flippings += 1
        first = hashlib.sha256(chance.seed + b":" + str(flippings).encode()).digest()[0]
        assert flips == "".join("T" if first >> (7 - j) & 1 else "H" for j in range(len(flips)))
    assert flippings == state.core.flippings > 100
    assert flips_from_draw(bytes([0b1010_0000]), 3) == 0b101
    assert flips_text(0b101, 3) == "THT"


def test_a_move_is_two_choices_and_the_seat_stays_during_a_turn() -> None:
    state = KNOT.new_state(3, chance=SeededChance(SEED))
    assert state.legal_choices() == ["a1", "a2", "b1", "h9", "i8", "i9"]
    with pytest.raises(KindError, match="is not a space"):
        state.play("z9")
    state.play("i9")
    destinations = state.legal_choices()
    assert destinations and all(len(name) >= 2 for name in destinations)
    assert state.to_act == 1
    with pytest.raises(KindError, match="Route: the stack on i9 moves exactly"):
        state.play("a1")


def test_replaying_the_steps_gives_the_same_state() -> None:
    state, _ = random_game(4, 9)
    again = KNOT.replay(4, state.steps)
    assert again.steps == state.steps
    assert again.finishing_order() == state.finishing_order()
    assert KNOT.position_data(again) == KNOT.position_data(state)


def test_a_replayed_game_plays_on_only_with_a_chance_source() -> None:
    state = KNOT.new_state(2, chance=SeededChance(SEED))
    state.play("a1")
    again = KNOT.replay(2, state.steps)
    assert again.legal_choices() == state.legal_choices()
    with_chance = KNOT.replay(2, [], chance=SeededChance(SEED))
    assert with_chance.play("a1") == list(state.steps)
    with pytest.raises(KindError, match="no chance source"):
        KNOT.replay(2, []).play("a1")


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        ([Step(2, StepKind.MOVE, "a1 H")], r"Step 1 .*Turn order: seat 1 is to act, not seat 2"),
        ([Step(1, StepKind.MOVE, "a1 HH")], r"Step 1 .*a stack of 1 coin makes 1 flip"),
        ([Step(1, StepKind.MOVE, "a1 H"), Step(1, StepKind.MOVE, "c3")], r"Step 2 .*reach a2, b1"),
        ([Step(1, StepKind.PASS)], r"Step 1 .*a turn passes only when the flips leave no route"),
        ([Step(1, StepKind.LEAVE, "quit")], r"Step 1 .*'resign' or 'timeout'"),
        ([Step(1, StepKind.MOVE, "a1")], r"Step 1 .*expected a space and its flips"),
        ([Step(1, StepKind.MOVE, "a1 T"), Step(1, StepKind.MOVE, "a3 H")], r"Step 2 .*no flips"),
    ],
)
def test_replay_names_the_step_and_the_rule(steps: list[Step], message: str) -> None:
    with pytest.raises(KindError, match=message):
        KNOT.replay(2, steps)


def test_leaving_is_a_step_and_the_others_play_on() -> None:
    state = KNOT.new_state(3, chance=SeededChance(SEED))
    assert state.leave(1, Departure.RESIGN) == [Step(1, StepKind.LEAVE, "resign")]
    assert state.to_act == 2 and not state.is_over()
    assert state.leave(3, Departure.TIMEOUT) == [Step(3, StepKind.LEAVE, "timeout")]
    assert state.is_over() and state.finishing_order() == (
        frozenset({2}),
        frozenset({3}),
        frozenset({1}),
    )
    assert KNOT.replay(3, state.steps).finishing_order() == state.finishing_order()


def test_results_are_the_seats_first_to_last() -> None:
    order = (frozenset({2}), frozenset({3}), frozenset({1}))
    assert KNOT.result_text(order) == "2 3 1"
    assert KNOT.order_from_result("2 3 1", 3) == order
    for bad in ("2 3", "2 3 3", "1-0", "2 3 1 4", ""):
        with pytest.raises(KindError, match=r"expected the seats 1..3 from first to last"):
            KNOT.order_from_result(bad, 3)
    with pytest.raises(KindError, match="Not a strict finishing order"):
        KNOT.result_text((frozenset({1, 2}), frozenset({3})))


def test_position_data_is_plain_json() -> None:
    state = KNOT.new_state(3, chance=SeededChance(SEED))
    state.play("a1")
    data = KNOT.position_data(state)
    assert json.loads(json.dumps(data)) == data
    assert data["to_act"] == 1 and data["phase"] == "route" and data["stack"] == "a1"
    assert data["destinations"] == data["choices"] and data["flips"] in ("H", "T")
    assert data["spaces"]["a2"] == {"1": 1, "2": 1, "3": 1}  # type: ignore[index]
    assert data["coins"] == {"1": 6, "2": 6, "3": 6}
    assert data["distance"] == {"1": 54, "2": 54, "3": 54}
    assert data["playing"] == [1, 2, 3] and data["finishing_order"] is None


def test_the_drawings_show_the_knot_and_the_stacks() -> None:
    state = KNOT.new_state(2, chance=SeededChance(SEED))
    svg = KNOT.svg(state, viewer_seat=1)
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count("<circle") == 12 + 6  # two seats on six marks, and the viewer's rings
    assert "pit c5" in svg and "exit e5" in svg
    text = KNOT.text(state)
    assert "1 Red: 6 coins, distance 54" in text and "Seat 1 Red to move" in text
    with pytest.raises(KindError, match="Not a Celtic Knot position"):
        KNOT.text(get_kind("celtic").new_state(2))
