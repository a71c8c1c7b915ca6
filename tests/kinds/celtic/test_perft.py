"""Move-count fixtures in the spirit of chess perft, checked against the reference reading.

``perft(n)`` is the number of move sequences of length ``n`` from the start (leaves of the
game tree at depth ``n``); ``perft(1)`` is the number of legal first moves. No game can pass
or end within four plies, so these count moves only.
"""

from __future__ import annotations

from games.kinds.celtic import GameState, Variant
from tests.kinds.celtic import reference

PERFT = {1: 60, 2: 3688, 3: 213384, 4: 11362704}


def perft(state: GameState, depth: int) -> int:
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = state.clone()
        child.apply(move)
        total += perft(child, depth - 1)
    return total


def test_engine_counts() -> None:
    assert {depth: perft(GameState.new(), depth) for depth in PERFT} == PERFT


def test_window_forfeit_variant_has_the_same_legal_moves() -> None:
    window = Variant(window_forfeit=True)
    assert perft(GameState.new(window), 3) == PERFT[3]


def test_reference_agrees_on_every_position_up_to_two_plies() -> None:
    """Compare the full sets of legal moves, and count perft(1..3) with the reference."""
    counts = dict.fromkeys((1, 2, 3), 0)
    players = ("orange", "blue", "orange")

    def visit(state: GameState, position: reference.Position, depth: int) -> None:
        expected = reference.legal_moves(position, players[depth])
        assert {str(move) for move in state.legal_moves()} == expected
        counts[depth + 1] += len(expected)
        if depth == 2:
            return
        for move in sorted(expected):
            child = state.clone()
            child.apply(move)
            visit(child, reference.play(position, players[depth], move), depth + 1)

    visit(GameState.new(), reference.Position.start(), 0)
    assert counts == {depth: PERFT[depth] for depth in (1, 2, 3)}
