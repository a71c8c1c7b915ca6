"""Properties of any game (hypothesis): every prefix of the steps replays to the same position,
and records round-trip; plus route counts in the spirit of perft."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.kinds.base import Departure, SeededChance
from games.kinds.knot.board import EXIT, MAX_SUM, PITS, ROUTES, SPACE_COUNT
from games.kinds.knot.kind import KIND
from games.kinds.knot.record import parse_record, record_text
from games.kinds.knot.state import KnotState


def random_state(seat_count: int, seed: int, steps: int) -> KnotState:
    """Up to ``steps`` random choices (now and then a seat leaves) from a seeded start."""
    rng = random.Random(seed)
    state = KIND.new_state(seat_count, chance=SeededChance(seed.to_bytes(8, "big")))
    for _ in range(steps):
        if state.is_over():
            break
        if rng.random() < 0.01:
            seats = [seat for seat in range(1, seat_count + 1) if state.core.playing[seat - 1]]
            state.leave(rng.choice(seats), Departure.RESIGN)
        else:
            state.play(rng.choice(state.legal_choices()))
    return state


@settings(max_examples=30, deadline=None)
@given(
    seat_count=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32),
    steps=st.integers(min_value=0, max_value=400),
    cut=st.floats(min_value=0, max_value=1),
)
def test_any_prefix_replays_to_the_same_position(
    seat_count: int, seed: int, steps: int, cut: float
) -> None:
    state = random_state(seat_count, seed, steps)
    prefix = state.steps[: int(len(state.steps) * cut)]
    again = KIND.replay(seat_count, prefix)
    assert again.steps == prefix
    full = KIND.replay(seat_count, state.steps)
    assert KIND.position_data(full) == KIND.position_data(state)
    assert full.legal_choices() == state.legal_choices()


@settings(max_examples=30, deadline=None)
@given(
    seat_count=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32),
    steps=st.integers(min_value=0, max_value=400),
)
def test_any_record_reads_back_to_the_same_steps(seat_count: int, seed: int, steps: int) -> None:
    state = random_state(seat_count, seed, steps)
    chance = SeededChance(seed.to_bytes(8, "big"))
    text = record_text(state, {"FlipCommit": chance.commitment, "FlipSeed": chance.seed.hex()})
    assert parse_record(text).state.steps == state.steps


def test_the_route_table_counts() -> None:
    """Two routes for each space and sum, and the pits' drops: 62 x 12 x 2 + 2 x (1 + 11 x 2)."""
    count = sum(len(ROUTES[space][points]) for space in range(SPACE_COUNT) for points in
                range(1, MAX_SUM + 1))  # fmt: skip
    assert count == 62 * 12 * 2 + 2 * 23
    assert all(not ROUTES[EXIT][points] for points in range(MAX_SUM + 1))
    assert sum(len(ROUTES[pit][1]) for pit in PITS) == 6
