"""Seeded random games at 2, 3, 4 and 6 seats, every choice checked against the rules.

The checks are worked out independently of the engine's tables: destinations on the strand as
KNOT-RULES.md lists it, extra moves from the coins on the landing space and this turn's stops.
"""

from __future__ import annotations

import random

import pytest

from games.kinds.base import Departure, SeededChance, StepKind
from games.kinds.knot.board import EXIT, INDEX, NAMES
from games.kinds.knot.core import Phase, random_playout
from games.kinds.knot.kind import KIND
from games.kinds.knot.record import parse_record, record_text
from games.kinds.knot.state import KnotState
from tests.kinds.knot.helpers import loop_destinations

GAMES_PER_SEAT_COUNT = 20


class Referee:
    """Follows one game from outside and checks each choice's outcome."""

    def __init__(self, state: KnotState) -> None:
        self.state = state
        self.stops: set[int] = set()
        self.extra_turns = 0

    def check_board(self) -> None:
        core = self.state.core
        assert core.total[EXIT] == 0
        for seat in range(core.seat_count):
            on_board = sum(core.own[seat])
            assert on_board == core.coins[seat]
            assert sorted(core.stacks[seat]) == [s for s, n in enumerate(core.own[seat]) if n]
            assert core.playing[seat] or on_board == 0
        assert core.total == [sum(column) for column in zip(*core.own, strict=True)]

    def choose_square(self, rng: random.Random) -> None:
        state, core = self.state, self.state.core
        choice = rng.choice(state.legal_choices())
        space, seat = INDEX[choice], core.seat
        if core.phase == Phase.SQUARE:
            self.stops = {space}
        coins = core.own[seat][space]
        (step, *rest) = state.play(choice)
        flips = step.notation.split()[-1]
        assert len(flips) == coins
        self.check_destinations(space, len(flips) + flips.count("T"), rest)

    def check_destinations(self, space: int, points: int, rest: list[object]) -> None:
        expected = loop_destinations(NAMES[space], points)
        if not rest:
            assert set(self.state.legal_choices()) == expected
        else:  # a pass: no route at all (never on this board)
            assert not expected

    def choose_destination(self, rng: random.Random) -> None:
        state, core = self.state, self.state.core
        seat, space = core.seat, core.space
        dest_name = rng.choice(state.legal_choices())
        dest = INDEX[dest_name]
        stack = core.own[seat][space]
        before = core.own[seat][dest]
        others = core.total[dest] - before
        coins_before = core.coins[seat]
        earned = dest != EXIT and others > 0 and dest not in self.stops
        (step, *rest) = state.play(dest_name)
        assert core.own[seat][space] == 0  # the whole stack moved
        if dest == EXIT:
            assert core.coins[seat] == coins_before - stack
        else:
            assert core.own[seat][dest] == before + stack and core.coins[seat] == coins_before
        words = step.notation.split()
        assert (len(words) == 2) == earned
        if earned:
            self.stops.add(dest)
            self.extra_turns += 1
            assert state.to_act == seat + 1
            flips = words[1]
            assert len(flips) == stack + before
            self.check_destinations(dest, len(flips) + flips.count("T"), rest)
        else:
            assert state.is_over() or state.to_act != seat + 1


def play_checked(seat_count: int, seed: int) -> tuple[KnotState, Referee]:
    rng = random.Random(seed)
    state = KIND.new_state(seat_count, chance=SeededChance(seed.to_bytes(32, "big")))
    referee = Referee(state)
    leaving = seat_count >= 3 and seed % 4 == 0
    while not state.is_over():
        if leaving and rng.random() < 0.004:
            seat = rng.choice([s + 1 for s in range(seat_count) if state.core.playing[s]])
            state.leave(seat, rng.choice(list(Departure)))
        elif state.core.phase == Phase.ROUTE:
            referee.choose_destination(rng)
        else:
            referee.choose_square(rng)
        referee.check_board()
    return state, referee


@pytest.mark.parametrize("seat_count", [2, 3, 4, 6])
def test_random_games_keep_every_rule(seat_count: int) -> None:
    extra = 0
    departures = 0
    for seed in range(GAMES_PER_SEAT_COUNT):
        state, referee = play_checked(seat_count, 1000 * seat_count + seed)
        extra += referee.extra_turns
        order = state.finishing_order()
        assert order is not None and all(len(group) == 1 for group in order)
        assert sorted(min(group) for group in order) == list(range(1, seat_count + 1))
        leaves = [step.seat for step in state.steps if step.kind == StepKind.LEAVE]
        departures += len(leaves)
        assert [min(group) for group in order][len(order) - len(leaves) :] == leaves[::-1]
        if seed % 5 == 0:
            assert KIND.replay(seat_count, state.steps).steps == state.steps
            parsed = parse_record(record_text(state, {}))
            assert parsed.state.steps == state.steps
    assert extra > 0
    assert departures > 0 or seat_count == 2


def test_fast_playouts_end_with_a_strict_order_and_sensible_lengths() -> None:
    rng = random.Random(7)
    for seat_count in (2, 3, 4, 5, 6):
        turns = []
        for _ in range(40):
            core = random_playout(rng, seat_count)
            order = core.finishing_order()
            assert order is not None and sorted(order) == list(range(seat_count))
            assert core.coins[order[0]] == 0 and core.winner == order[0]
            assert all(core.coins[seat] > 0 for seat in order[1:])
            turns.append(core.turns)
        turns.sort()
        assert 50 < turns[len(turns) // 2] < 600  # KNOT-RULES.md: medians 149 to 236
