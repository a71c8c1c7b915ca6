"""Hand-worked positions for each rule: moving, pits, exits, extra moves, leaving, the order."""

from __future__ import annotations

import pytest

from games.kinds.base import Departure, KindError, Step, StepKind
from games.kinds.knot.board import INDEX
from games.kinds.knot.core import Phase
from games.kinds.knot.kind import KIND
from games.kinds.knot.state import KnotState
from tests.kinds.knot.helpers import position


def coins(state: KnotState, seat: int) -> dict[str, int]:
    core = state.core
    return {
        name: core.own[seat - 1][space]
        for name, space in INDEX.items()
        if core.own[seat - 1][space]
    }


def order(state: KnotState) -> list[int]:
    found = state.finishing_order()
    assert found is not None
    return [min(group) for group in found]


def test_the_start_puts_one_coin_of_every_seat_on_each_mark() -> None:
    state = KnotState(3)
    for seat in (1, 2, 3):
        assert coins(state, seat) == {name: 1 for name in ("a1", "a2", "b1", "h9", "i8", "i9")}
    assert state.to_act == 1 and state.legal_choices() == ["a1", "a2", "b1", "h9", "i8", "i9"]


def test_the_whole_stack_flips_and_moves() -> None:
    state = position(2, {1: {"d3": 3}, 2: {"i5": 1}})
    assert state.flip(INDEX["d3"], "HTH") == [Step(1, StepKind.MOVE, "d3 HTH")]
    assert state.legal_choices() == ["a2", "h3"]  # 4 points either way
    assert state.move(INDEX["h3"]) == [Step(1, StepKind.MOVE, "h3")]
    assert coins(state, 1) == {"h3": 3}  # never split
    assert state.to_act == 2


def test_flips_must_be_one_per_coin() -> None:
    state = position(2, {1: {"d3": 2}, 2: {"i5": 1}})
    with pytest.raises(KindError, match="a stack of 2 coins makes 2 flips, one H or T per coin"):
        state.flip(INDEX["d3"], "HTH")
    with pytest.raises(KindError, match="is not flips"):
        state.flip(INDEX["d3"], "HX")
    assert state.steps == () and state.core.phase == Phase.SQUARE


def test_a_space_without_the_seats_coins_is_refused() -> None:
    state = position(2, {1: {"d3": 2}, 2: {"i5": 1}})
    with pytest.raises(KindError, match=r"choose a space holding your coins \(d3\); seat 1 has"):
        state.flip(INDEX["i5"], "H")


def test_an_unreachable_destination_names_the_reachable_ones() -> None:
    state = position(2, {1: {"d3": 1}, 2: {"i5": 1}})
    state.flip(INDEX["d3"], "T")
    with pytest.raises(KindError, match=r"moves exactly 2 .* reach b3, f3, not e3u"):
        state.move(INDEX["e3u"])


def test_a_pit_drop_then_the_lower_strand() -> None:
    state = position(2, {1: {"c5": 1}, 2: {"i5": 1}})
    state.flip(INDEX["c5"], "T")
    assert state.legal_choices() == ["b5", "c3u", "c7u", "d5"]
    state.move(INDEX["d5"])
    assert coins(state, 1) == {"d5": 1}


def test_no_drop_after_arriving_on_a_pit() -> None:
    state = position(2, {1: {"c3u": 1}, 2: {"i5": 1}}, to_act=1)
    state.flip(INDEX["c3u"], "T")
    assert state.legal_choices() == ["c1", "c5"]
    state.move(INDEX["c5"])
    assert coins(state, 1) == {"c5": 1} and state.to_act == 2


def test_the_exit_takes_the_stack_off_and_ends_the_turn() -> None:
    state = position(3, {1: {"e3": 1, "a1": 1}, 2: {"e4": 1}, 3: {"i5": 1}})
    state.flip(INDEX["e3"], "T")
    state.move(INDEX["e5"])
    assert coins(state, 1) == {"a1": 1} and state.core.coins[0] == 1 and state.to_act == 2


def test_an_overshoot_runs_over_the_diamond() -> None:
    state = position(2, {1: {"e4": 1}, 2: {"e6": 1}})
    state.flip(INDEX["e4"], "T")
    assert "e5" not in state.legal_choices()
    state.move(INDEX["e6"])  # lands on the opponent: an extra move
    assert state.core.phase == Phase.EXTRA and state.to_act == 1


def test_landing_on_an_opponent_earns_an_extra_move_of_the_joined_stack() -> None:
    state = position(2, {1: {"a1": 1, "a3": 2}, 2: {"a3": 1}})
    state.flip(INDEX["a1"], "T")
    steps = state.move(INDEX["a3"], "HTH")
    assert steps == [Step(1, StepKind.MOVE, "a3 HTH")]  # three coins now flip together
    assert state.legal_choices() == ["c1", "e3u"]  # 4 points from a3
    assert state.to_act == 1 and state.pending_flips == "HTH"
    assert coins(state, 2) == {"a3": 1}  # opponents' coins are never moved


def test_landing_on_own_coins_only_or_vacant_ends_the_turn() -> None:
    state = position(2, {1: {"a1": 1, "a3": 1}, 2: {"i5": 1}})
    state.flip(INDEX["a1"], "T")
    with pytest.raises(KindError, match="holds no opponent's coin, so the landing earns no extra"):
        state.move(INDEX["a3"], "HH")
    state.move(INDEX["a3"])
    assert state.to_act == 2 and coins(state, 1) == {"a3": 2}


def test_an_earned_extra_move_without_flips_waits_for_them() -> None:
    state = position(2, {1: {"a1": 1}, 2: {"a3": 1}})
    state.flip(INDEX["a1"], "T")
    state.move(INDEX["a3"])
    assert state.core.phase == Phase.EXTRA and state.legal_choices() == ["a3"]
    with pytest.raises(KindError, match="the stack that landed on a3 moves again, not a1"):
        state.flip(INDEX["a1"], "H")
    assert state.flip(INDEX["a3"], "H") == [Step(1, StepKind.MOVE, "H")]


def test_a_space_of_this_turn_earns_nothing_the_second_time() -> None:
    state = position(2, {1: {"a1": 1}, 2: {"a1": 1, "a2": 1}})
    state.flip(INDEX["a1"], "H")
    state.move(INDEX["a2"], "H")  # an opponent there: extra move
    assert state.legal_choices() == ["a1", "a3"]
    with pytest.raises(KindError, match="a1 was already a stop of this turn, which earns nothing"):
        state.move(INDEX["a1"], "H")
    state.move(INDEX["a1"])  # back where the turn started, among opponents: the turn ends
    assert state.to_act == 2 and coins(state, 1) == {"a1": 1}


def test_an_extra_move_onto_the_diamond_ends_the_turn() -> None:
    state = position(2, {1: {"e2": 1, "a1": 1}, 2: {"e3": 1}})
    state.flip(INDEX["e2"], "H")
    state.move(INDEX["e3"], "T")
    state.move(INDEX["e5"])
    assert state.to_act == 2 and coins(state, 1) == {"a1": 1}


def test_the_first_to_clear_the_board_wins_and_the_rest_rank_by_coins() -> None:
    state = position(4, {1: {"e3": 1}, 2: {"a1": 2}, 3: {"a1": 1}, 4: {"i9": 1}})
    state.flip(INDEX["e3"], "T")
    state.move(INDEX["e5"])
    assert state.is_over() and state.to_act is None and state.legal_choices() == []
    assert order(state) == [1, 3, 4, 2]  # 3 and 4 have one coin; 3 is nearer (9 < 10)


def test_equal_coins_rank_by_total_distance() -> None:
    state = position(3, {1: {"d5": 1}, 2: {"a1": 1, "e3": 1}, 3: {"b1": 2}})
    state.flip(INDEX["d5"], "H")
    state.move(INDEX["e5"])
    assert order(state) == [1, 2, 3]  # 9 + 2 = 11 < 8 + 8 = 16


def test_full_ties_rank_clockwise_after_the_winner() -> None:
    state = position(4, {2: {"d5": 1}, 1: {"a1": 1}, 3: {"a1": 1}, 4: {"a1": 1}}, to_act=2)
    state.flip(INDEX["d5"], "H")
    state.move(INDEX["e5"])
    assert order(state) == [2, 3, 4, 1]


def test_resigning_mid_turn_in_a_six_seat_game() -> None:
    state = position(6, {seat: {"a1": 1, "i9": 1} for seat in range(1, 7)}, to_act=3)
    state.flip(INDEX["a1"], "H")
    assert state.leave(3, Departure.RESIGN) == [Step(3, StepKind.LEAVE, "resign")]
    assert coins(state, 3) == {} and state.to_act == 4 and state.core.phase == Phase.SQUARE
    state.leave(5, Departure.TIMEOUT)  # another seat leaves during seat 4's turn
    assert state.to_act == 4 and state.legal_choices() == ["a1", "i9"]
    state.flip(INDEX["a1"], "H")
    state.move(INDEX["a2"])
    assert state.to_act == 6  # seat 5 has left: play skips it
    for seat in (1, 2, 4):
        state.leave(seat, Departure.RESIGN)
    assert state.is_over() and order(state) == [6, 4, 2, 1, 5, 3]


def test_a_seat_that_left_cannot_leave_again_or_act() -> None:
    state = KnotState(3)
    state.leave(2, Departure.RESIGN)
    with pytest.raises(KindError, match="Seat 2 is not playing: the seats still playing are 1, 3"):
        state.leave(2, Departure.TIMEOUT)
    with pytest.raises(KindError, match="Seat 7 is not playing"):
        state.leave(7, Departure.TIMEOUT)


def test_two_seats_one_resigns_the_other_wins() -> None:
    state = KIND.replay(2, [Step(1, StepKind.LEAVE, "timeout")])
    assert state.is_over() and order(state) == [2, 1]
    with pytest.raises(KindError, match="The game is over: no one can leave it"):
        state.leave(2, Departure.RESIGN)
    with pytest.raises(KindError, match="The game is over: no more moves"):
        state.play("a1")
    with pytest.raises(KindError, match="The game is over: no more moves"):
        state.flip(INDEX["a1"], "H")
    with pytest.raises(KindError, match="The game is over: no more moves"):
        state.move(INDEX["a2"])


def test_a_destination_before_the_flips_and_flips_before_the_move_are_refused() -> None:
    state = position(2, {1: {"a1": 1}, 2: {"i5": 1}})
    with pytest.raises(KindError, match="choose the space of a stack first, then its destination"):
        state.move(INDEX["a2"])
    state.flip(INDEX["a1"], "H")
    with pytest.raises(KindError, match="Route: the stack on a1 is flipped; move it first"):
        state.flip(INDEX["a1"], "H")


def test_the_winner_ranks_above_those_who_left_and_the_last_to_leave_ranks_highest() -> None:
    state = position(4, {1: {"e4": 1}, 2: {"a1": 1}, 3: {"a1": 1}, 4: {"a1": 1}})
    state.leave(4, Departure.RESIGN)
    state.leave(2, Departure.RESIGN)
    state.flip(INDEX["e4"], "H")
    state.move(INDEX["e5"])
    assert order(state) == [1, 3, 2, 4]
