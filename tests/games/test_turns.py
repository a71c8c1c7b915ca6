"""games.turns: a game's steps grouped into turns, and the replay's navigation over them."""

from __future__ import annotations

import pytest

from games.kinds.base import Step, StepKind
from games.turns import ReplayNav, count_turns, group_turns, ply_of_turn

MOVE, PASS, LEAVE = StepKind.MOVE, StepKind.PASS, StepKind.LEAVE

# seat 1: a1 H, a2 TH, c3 (an extra move); seat 2: b1 T and then seat 3 resigns in the middle
# of it; seat 2 goes on with c2; seat 4 passes its turn after the flips; seat 2 resigns.
KNOT_STEPS = [
    Step(1, MOVE, "a1 H"),
    Step(1, MOVE, "a2 TH"),
    Step(1, MOVE, "c3"),
    Step(2, MOVE, "b1 T"),
    Step(3, LEAVE, "resign"),
    Step(2, MOVE, "c2"),
    Step(4, MOVE, "h9 H"),
    Step(4, PASS),
    Step(2, LEAVE, "timeout"),
]


def test_a_turn_is_a_seats_consecutive_steps_and_a_departure_one_of_its_own() -> None:
    turns = group_turns(KNOT_STEPS)
    assert [(t.seat, t.start, t.end, len(t.steps)) for t in turns] == [
        (1, 0, 3, 3),
        (2, 3, 4, 1),
        (3, 4, 5, 1),
        (2, 5, 6, 1),
        (4, 6, 8, 2),
        (2, 8, 9, 1),
    ]
    assert count_turns((step.seat, step.kind.value) for step in KNOT_STEPS) == 6


def test_a_seat_leaving_in_its_own_turn_ends_it() -> None:
    steps = [Step(1, MOVE, "a1 H"), Step(1, LEAVE, "resign"), Step(2, MOVE, "b1 T")]
    assert [(t.seat, t.end) for t in group_turns(steps)] == [(1, 1), (1, 2), (2, 3)]


def test_alternating_steps_are_one_turn_each() -> None:
    steps = [Step(1 + ply % 2, MOVE, "x") for ply in range(5)]
    turns = group_turns(steps)
    assert [t.end for t in turns] == [1, 2, 3, 4, 5]
    nav = ReplayNav.of(turns, 2)
    assert (nav.shown, nav.count, nav.prev, nav.next, nav.last, nav.slider_name) == (
        2,
        5,
        1,
        3,
        5,
        "ply",
    )
    assert group_turns([]) == [] and count_turns([]) == 0


def test_the_replay_steps_from_turn_end_to_turn_end() -> None:
    turns = group_turns(KNOT_STEPS)
    start = ReplayNav.of(turns, 0)
    assert (start.shown, start.first, start.prev, start.next, start.last) == (0, None, None, 3, 9)
    assert start.slider_name == "turn"
    middle = ReplayNav.of(turns, 3)
    assert (middle.shown, middle.steps_into, middle.prev, middle.next) == (1, 0, 0, 4)
    inside = ReplayNav.of(turns, 7)  # seat 4 has flipped: one step into turn 5
    assert (inside.shown, inside.steps_into, inside.prev, inside.next) == (4, 1, 6, 8)
    end = ReplayNav.of(turns, 9)
    assert (end.shown, end.count, end.next, end.last, end.first) == (6, 6, None, None, 0)


def test_a_turn_number_gives_the_ply_after_it() -> None:
    turns = group_turns(KNOT_STEPS)
    assert [ply_of_turn(turns, n) for n in range(7)] == [0, 3, 4, 5, 6, 8, 9]
    for bad in (-1, 7):
        with pytest.raises(ValueError, match=f"turn {bad} is outside this game: expected 0 to 6"):
            ply_of_turn(turns, bad)
