"""Helpers for the Celtic Knot tests: positions set up by hand, and the spec's strand as text."""

from __future__ import annotations

from collections.abc import Mapping

from games.kinds.base import SeededChance
from games.kinds.knot.board import INDEX, SPACE_COUNT
from games.kinds.knot.core import Phase
from games.kinds.knot.state import KnotState

SPEC_LOOP_TEXT = """
a1 a2 a3 b3 c3 d3 e3u f3 g3 h3 i3 i4 i5 h5 g5u f5
e5 d5 c5u b5 a5 a6 a7 b7 c7 d7 e7u f7 g7 h7 i7 i8
i9 h9 g9 g8 g7u g6 g5 g4 g3u g2 g1 f1 e1 e2 e3 e4
e5 e6 e7 e8 e9 d9 c9 c8 c7u c6 c5 c4 c3u c2 c1 b1
"""
SPEC_LOOP = SPEC_LOOP_TEXT.split()
"""The strand exactly as KNOT-RULES.md lists it (the engine walks it on the map instead)."""


def position(
    seat_count: int, coins: Mapping[int, Mapping[str, int]], *, to_act: int = 1
) -> KnotState:
    """A state whose seats (from 1) have exactly ``coins`` (space name to count) on the board.

    Seats not named keep no coins on the board (they are still playing: coins left the board).
    """
    state = KnotState(seat_count, SeededChance(b"hand-set"))
    core = state.core
    core.own = [[0] * SPACE_COUNT for _ in range(seat_count)]
    core.total = [0] * SPACE_COUNT
    core.stacks = [[] for _ in range(seat_count)]
    core.coins = [0] * seat_count
    for seat, spaces in coins.items():
        for name, count in spaces.items():
            space = INDEX[name]
            core.own[seat - 1][space] += count
            core.total[space] += count
            core.stacks[seat - 1].append(space)
            core.coins[seat - 1] += count
    core.seat = to_act - 1
    core.phase = Phase.SQUARE
    return state


def loop_destinations(start: str, points: int) -> set[str]:
    """Where a move of ``points`` from ``start`` may end, worked out on the spec's strand list."""
    places = [index for index, name in enumerate(SPEC_LOOP) if name == start]
    assert len(places) == 1, start
    ends = {SPEC_LOOP[(places[0] + d * points) % 64] for d in (1, -1)}
    if start in ("c5", "g5"):
        below = SPEC_LOOP.index(start + "u")
        ends |= {SPEC_LOOP[(below + d * (points - 1)) % 64] for d in (1, -1)}
    return ends
