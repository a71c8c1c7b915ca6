"""Random games (hypothesis) checked against invariants and the reference reading of the rules."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from games.kinds.celtic import (
    ALL_CELLS,
    PLAYERS,
    WINDOW_SIZE,
    Colour,
    Forfeit,
    GameRecord,
    GameState,
    IllegalMoveError,
    Move,
    Pass,
    Shape,
    Variant,
    random_playout,
)
from games.kinds.celtic.tiles import TILES_PER_SHAPE
from tests.kinds.celtic import reference

NAMES = {Colour.ORANGE: "orange", Colour.BLUE: "blue", Colour.NEUTRAL: "neutral"}


def check_position(state: GameState) -> None:
    """Invariants that hold in every position."""
    tiles = state.tiles
    demand = state.demand_cells()
    # The window: tiles and demand cells fit five columns and five rows.
    cells = [t.cell for t in tiles] + list(demand)
    assert max(c.file for c in cells) - min(c.file for c in cells) < WINDOW_SIZE
    assert max(c.rank for c in cells) - min(c.rank for c in cells) < WINDOW_SIZE
    assert all(c.on_board for c in cells)
    # Demand cells are exactly the empty cells an open side points at.
    occupied = {t.cell for t in tiles}
    pointed = {t.cell.neighbour(s) for t in tiles for s in t.orientation.open_sides}
    assert set(demand) == pointed - occupied
    # Supplies: never negative, and supply plus placed tiles is the box.
    placed = Counter((t.colour, t.shape) for t in tiles)
    for colour in Colour:
        for shape, count in state.supply(colour).items():
            assert count >= 0
            assert count + placed[colour, shape] == TILES_PER_SHAPE[colour]
    # Every strand of every tile lies on exactly one knot or open path.
    result = state.result()
    walked = Counter(
        (step.cell, frozenset((step.entry, step.exit)))
        for path in (*result.knots, *result.open_paths)
        for step in path.steps
    )
    expected = Counter(
        (t.cell, frozenset(strand)) for t in tiles for strand in t.orientation.strands
    )
    assert walked == expected
    # History bookkeeping: turns alternate Orange, Blue.
    assert state.ply == len(state.history)
    for index, turn in enumerate(state.history):
        if isinstance(turn, Pass | Forfeit):
            assert turn.player is PLAYERS[index % 2]
    if not state.is_over():
        assert state.to_move is PLAYERS[state.ply % 2]


def as_reference(state: GameState) -> reference.Position:
    position = reference.Position.start()
    position.tiles = {
        (t.cell.file, t.cell.rank): (t.orientation.sides_text, NAMES[t.colour]) for t in state.tiles
    }
    position.supply = {
        NAMES[c]: {shape.letter: n for shape, n in state.supply(c).items()} for c in Colour
    }
    return position


def all_candidates(state: GameState, rng: random.Random) -> list[Move]:
    cells = [*state.demand_cells(), *rng.sample(ALL_CELLS, 3), state.tiles[0].cell]
    return [Move(rng.choice(cells), rng.randrange(1, 16), rng.random() < 0.3) for _ in range(6)]


def play_checked(rng: random.Random, variant: Variant) -> GameState:
    state = GameState.new(variant)
    while True:
        check_position(state)
        position = as_reference(state)
        mover = state.to_move
        for player in PLAYERS:
            expected = reference.legal_moves(position, NAMES[player])
            assert {str(m) for m in state.legal_moves(None if player is mover else player)} == (
                expected if mover is not None else set()
            )
        if mover is None:
            assert not reference.legal_moves(position, "orange")
            assert not reference.legal_moves(position, "blue")
            return state
        legal = state.legal_moves()
        # Random candidates: applied iff legal; a rejected one leaves the state unchanged.
        for candidate in all_candidates(state, rng):
            verdict = reference.check(
                position,
                NAMES[mover],
                (candidate.cell.file, candidate.cell.rank),
                candidate.sides_text,
                "neutral" if candidate.neutral else NAMES[mover],
            )
            assert (candidate in legal) == (verdict == "") == (not verdict)
            if verdict == "window" and variant.window_forfeit:
                if rng.random() < 0.5:
                    continue
                before = state.tiles
                turns = state.apply(candidate)
                assert turns[0] == Forfeit(mover, candidate)
                assert state.tiles == before
                break
            if verdict:
                copy = state.clone()
                try:
                    state.apply(candidate)
                except IllegalMoveError:
                    pass
                else:
                    raise AssertionError(f"{candidate} was applied but breaks {verdict}")
                assert state == copy and state.tiles == copy.tiles
                assert state.legal_moves() == legal
        else:
            move = rng.choice(legal)
            turns = state.apply(move)
            assert turns[0] == move
            for turn in turns[1:]:
                assert isinstance(turn, Pass)
                assert not reference.legal_moves(as_reference(state), NAMES[turn.player])


# Shrinking a failure of a whole checked game takes minutes and rarely helps: skip it.
QUICK = (Phase.explicit, Phase.reuse, Phase.generate)


@settings(max_examples=80, deadline=None, phases=QUICK)
@given(st.randoms(use_true_random=False), st.booleans())
def test_random_games_follow_the_rules(rng: random.Random, window_forfeit: bool) -> None:
    variant = Variant(window_forfeit=window_forfeit)
    state = play_checked(rng, variant)
    # The final scores agree with the reference's independent strand following.
    result = state.result()
    expected = reference.knot_scores(as_reference(state).tiles)
    assert sorted((k.orange, k.blue) for k in result.knots) == sorted(expected)
    assert result.score.orange == tuple(sorted((o for o, _ in expected), reverse=True))
    assert result.score.blue == tuple(sorted((b for _, b in expected), reverse=True))
    # A demand cell no remaining tile fits stays open: open paths may survive the end.
    open_ends = {path.start for path in result.open_paths} | {p.end for p in result.open_paths}
    assert {cell.neighbour(end.side) for cell, end in open_ends} == set(state.demand_cells())
    # The history is the serialization: records round-trip and replay to the same state.
    record = GameRecord.from_state(state, {"Orange": "alice", "Blue": "bob"})
    assert GameRecord.from_text(record.to_text()) == record
    assert GameRecord.from_json(record.to_json()) == record
    again = record.replay()
    assert again == state
    assert again.tiles == state.tiles
    assert again.result() == result


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(min_value=0, max_value=30))
def test_clones_and_replays_mid_game(rng: random.Random, plies: int) -> None:
    state = GameState.new()
    for _ in range(plies):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_moves()))
    copy = state.clone()
    snapshot = (state.history, state.tiles, state.legal_moves(), state.demand_cells())
    finished = random_playout(copy, rng)
    if not copy.is_over():
        copy.apply(rng.choice(copy.legal_moves()))
    assert (state.history, state.tiles, state.legal_moves(), state.demand_cells()) == snapshot
    assert finished.is_over()
    assert finished.history[: state.ply] == state.history
    replayed = GameState.replay(state.history)
    assert replayed == state
    assert replayed.legal_moves() == state.legal_moves()
    assert {s: replayed.supply(c)[s] for c in Colour for s in Shape} == {
        s: state.supply(c)[s] for c in Colour for s in Shape
    }
    record = GameRecord.from_state(state)
    assert record.result == ("*" if not state.is_over() else state.result().text)
    assert GameRecord.from_text(record.to_text()).replay() == state
