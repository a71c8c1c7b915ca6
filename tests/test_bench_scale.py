"""The load benchmark's pure parts (`bench/scale_load.py`): statistics, the report, the
section it writes and the move clients' bookkeeping. No server, no timings."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from bench.scale_load import (
    BASELINE,
    Mover,
    Result,
    move_choose,
    percentile,
    report_table,
    write_section,
)
from games.kinds.celtic.state import GameState, random_playout


def test_percentile_is_the_nearest_rank() -> None:
    values = [0.5, 0.1, 0.4, 0.2, 0.3]
    assert percentile(values, 0.5) == 0.3
    assert percentile(values, 0.99) == 0.5
    assert percentile(values, 0.2) == 0.1
    assert percentile(list(range(1, 101)), 0.99) == 99
    assert math.isnan(percentile([], 0.5))


@pytest.mark.parametrize("fraction", [0, -0.1, 1.5])
def test_percentile_refuses_a_fraction_outside_0_to_1(fraction: float) -> None:
    with pytest.raises(ValueError, match="expected more than 0 and at most 1"):
        percentile([1.0], fraction)


def test_report_gives_rates_latencies_errors_and_the_ratio_to_the_baseline() -> None:
    results = [
        Result(BASELINE, 8, seconds=2.0, latencies=[0.01] * 200),
        Result("ranking list", 8, seconds=2.0, latencies=[0.02] * 80 + [0.5], errors=3),
        Result("move", 8, seconds=2.0, latencies=[0.05] * 120),
        Result("my games", 1, seconds=1.0),
        Result(BASELINE, 32, seconds=1.0, latencies=[0.1] * 100),
        Result("move", 32, seconds=1.0, latencies=[0.2] * 98 + [0.31] * 2),
        Result("move", 1, seconds=1.0, latencies=[0.2] * 10),
    ]
    lines = report_table(results).splitlines()
    assert lines[2] == "| me (baseline) | 8 | 100.0 | 10 ms | 10 ms | 0 | 1.00 |  |"
    assert lines[3] == "| ranking list | 8 | 40.5 | 20 ms | 500 ms | 3 | 0.41 | ≥ 0.5x (not met) |"
    assert lines[4] == "| move | 8 | 60.0 | 50 ms | 50 ms | 0 | 0.60 | ≥ 0.3x (met) |"
    # no baseline at that concurrency and no answers: no ratio, no latencies
    assert lines[5] == "| my games | 1 | 0.0 | — | — | 0 | — |  |"
    # at 32 clients the move's target is its p99 against the baseline's: 310 ms > 3 x 100 ms
    assert lines[7] == (
        "| move | 32 | 100.0 | 200 ms | 310 ms | 0 | 1.00 | p99 ≤ 3x the baseline's (not met) |"
    )
    assert lines[8] == "| move | 1 | 10.0 | 200 ms | 200 ms | 0 | — |  |"  # no target at 1


def test_move_choice_is_legal_and_refused_once_the_game_is_over() -> None:
    rng = random.Random(3)
    state = GameState.new()
    for _ in range(6):
        move = move_choose(state, rng)
        assert move in state.legal_moves()
        state.apply(move)
    over = random_playout(GameState.new(), random.Random(1))
    with pytest.raises(ValueError, match="the game is over"):
        move_choose(over, rng)


def test_a_mover_plays_as_the_side_to_move_and_moves_on_when_a_game_ends() -> None:
    mover = Mover(tokens={"orange": "O", "blue": "B"}, games=[7, 8], rng=random.Random(2))
    game, token, body = mover.next_move() or (0, "", {})
    assert (game, token, body["ply"]) == (7, "O", 0)
    mover.played(body["move"])
    game, token, body = mover.next_move() or (0, "", {})
    assert (game, token, body["ply"]) == (7, "B", 1)
    while not mover.state.is_over():
        mover.played(str(move_choose(mover.state, mover.rng)))
    game, token, body = mover.next_move() or (0, "", {})
    assert (game, token, body["ply"]) == (8, "O", 0)
    mover.lost()
    assert mover.next_move() is None


def test_the_section_goes_after_scale_and_is_replaced_on_the_next_run(tmp_path: Path) -> None:
    doc = tmp_path / "BENCHMARKS.md"
    doc.write_text("# Benchmarks\n\n## Scale\n\nold scale\n\n## Other\n\nkept\n", encoding="utf-8")
    write_section("## Scale under load\n\nfirst\n", doc)
    write_section("## Scale under load\n\nsecond\n", doc)
    assert doc.read_text(encoding="utf-8") == (
        "# Benchmarks\n\n## Scale\n\nold scale\n\n## Scale under load\n\nsecond\n\n"
        "## Other\n\nkept\n"
    )


def test_move_cost_goes_after_scale_under_load(tmp_path: Path) -> None:
    doc = tmp_path / "BENCHMARKS.md"
    doc.write_text("## Scale under load\n\nload\n\n## List plans\n\nkept\n", encoding="utf-8")
    for text in ("first", "second"):
        write_section(
            f"## Move cost\n\n{text}\n", doc, section="Move cost", after_section="Scale under load"
        )
    assert doc.read_text(encoding="utf-8") == (
        "## Scale under load\n\nload\n\n## Move cost\n\nsecond\n\n## List plans\n\nkept\n"
    )


def test_move_cost_times_and_counts_each_request_and_divides_the_baseline_by_each() -> None:
    from bench.move_cost import Cost, measure, report_table

    done: list[str] = []

    def baseline() -> None:
        done.append("baseline")

    def move() -> None:
        done.append("move")
        sum(abs(n) for n in range(200))  # more Python calls than the baseline's one

    costs = measure({"baseline": baseline, "move": move}, rounds=3)
    assert done == ["baseline", "move"] * 6  # timed, then profiled, in turn
    assert costs["move"].calls > costs["baseline"].calls >= 1
    table = report_table(
        {"baseline": Cost(0.004, 0.003, 8000), "move": Cost(0.016, 0.010, 20000)}, "baseline"
    )
    assert table.splitlines()[2:] == [
        "| baseline | 4.00 ms | 3.00 ms | 8,000 | 1.00 / 1.00 / 1.00 |",
        "| move | 16.00 ms | 10.00 ms | 20,000 | 0.25 / 0.30 / 0.40 |",
    ]


def test_each_level_takes_its_endpoints_in_rotation_and_adds_up_the_slices(monkeypatch) -> None:
    import asyncio

    from bench import scale_load

    calls: list[tuple[str, int, float]] = []

    async def slice_of(base_url, name, request, *, clients, duration) -> Result:
        calls.append((name, clients, duration))
        return Result(endpoint=name, clients=clients, seconds=duration, latencies=[0.01] * 3)

    monkeypatch.setattr(scale_load, "run_level", slice_of)
    monkeypatch.setattr(scale_load, "requests_for", lambda plan: [(BASELINE, None), ("move", None)])
    results = asyncio.run(scale_load.drive("http://x", None, levels=[2], duration=6, rounds=3))
    warm_up = [(BASELINE, 4, 1)]  # the reads, once, not counted; a move is not repeated
    rotation = [(BASELINE, 2, 2.0), ("move", 2, 2.0)] * 3
    assert calls == warm_up + rotation
    assert [(r.endpoint, r.seconds, len(r.latencies)) for r in results] == [
        (BASELINE, 6.0, 9),
        ("move", 6.0, 9),
    ]
    assert results[0].rate == 1.5


def test_move_cost_closes_each_answer_as_a_wsgi_server_does() -> None:
    from bench.move_cost import Wsgi

    closed: list[bool] = []

    class Answer(list):
        def close(self) -> None:  # where Django sends request_finished
            closed.append(True)

    def application(environ, start_response):
        start_response("201 Created", [])
        return Answer([b"{", b"}"])

    assert Wsgi(application).call("POST", "/x/", "key", {"a": 1}) == (201, b"{}")
    assert closed == [True]
