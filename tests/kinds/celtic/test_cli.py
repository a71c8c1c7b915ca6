"""The command line ``python -m games.kinds.celtic``: outputs, exit statuses and error messages."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from games.kinds.celtic import GameRecord, GameState, random_playout
from games.kinds.celtic.cli import main
from games.kinds.celtic.puzzles import Layout, check_layout

ROOT = Path(__file__).resolve().parents[3]


def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    if stdin is None:
        status = main(list(argv), stdout=out, stderr=err)
    else:
        saved = sys.stdin
        sys.stdin = io.StringIO(stdin)
        try:
            status = main(list(argv), stdout=out, stderr=err)
        finally:
            sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


def finished_game(seed: int = 3) -> GameState:
    return random_playout(GameState.new(), random.Random(seed))


def write(tmp_path: Path, text: str, name: str = "game.txt") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


UNFINISHED = "1. d5 EW e6 NES\n2. c5 EW\n*\n"


# --- puzzle -----------------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_puzzle_prints_a_checked_solution(level: str) -> None:
    status, out, err = run("puzzle", level)
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert len(lines) == 5 and all(len(line.split()) == 5 for line in lines)
    knots = check_layout(Layout.parse(out))
    assert knots == 1 if level == "hard" else knots >= 1
    assert all(set(cell) <= set("NESW") for cell in out.split())


def test_puzzle_with_seed_and_drawing() -> None:
    status, out, _ = run("puzzle", "hard", "--seed", "5", "--draw")
    assert status == 0
    solution, _, drawing = out.partition("\n\n")
    assert check_layout(Layout.parse(solution), single_knot=True) == 1
    assert "╬" in drawing and drawing.rstrip().endswith("1 knot")


def test_puzzle_count_json() -> None:
    status, out, _ = run("puzzle", "easy", "--count", "--json")
    assert status == 0
    assert json.loads(out) == {
        "total": 96448,
        "by_knots": {
            "1": 1640,
            "2": 6880,
            "3": 19168,
            "4": 26632,
            "5": 24688,
            "6": 12856,
            "7": 4024,
            "8": 400,
            "9": 160,
        },
    }
    status, out, _ = run("puzzle", "hard", "--count", "--json")
    assert json.loads(out) == {"total": 1640, "by_knots": {"1": 1640}}


def test_puzzle_count_text() -> None:
    status, out, _ = run("puzzle", "easy", "--count")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "Easy puzzle: 96448 layouts"
    assert lines[1] == "  1 knot: 1640"
    assert lines[3] == "  3 knots: 19168"
    assert len(lines) == 10


# --- play -------------------------------------------------------------------------------------


def test_play_random_text_is_the_seeded_game() -> None:
    status, out, err = run("play", "--random", "--seed", "11")
    assert (status, err) == (0, "")
    expected = random_playout(GameState.new(), random.Random(11))
    record = GameRecord.from_text(out)  # the summary lines are ';' comments
    assert record.turns == expected.history
    assert record.replay() == expected
    result = expected.result()
    knots = [
        f"; Knot {n}: Orange {k.orange}, Blue {k.blue}: " + " ".join(map(str, k.cells))
        for n, k in enumerate(result.knots, 1)
    ]
    assert out.split("\n\n")[-1].splitlines() == [
        f"; Knots: {len(result.knots)}",
        *knots,
        f"; Open paths: {len(result.open_paths)}",
        "; Orange scores: " + (" ".join(map(str, result.score.orange)) or "-"),
        "; Blue scores: " + (" ".join(map(str, result.score.blue)) or "-"),
        f"; Result: {result.text}",
    ]
    assert record.headers["Seed"] == "11"
    assert run("play", "--random", "--seed", "11")[1] == out


def test_play_random_json(tmp_path: Path) -> None:
    target = tmp_path / "saved.txt"
    status, out, _ = run("play", "--random", "--seed", "4", "--json", "-o", str(target))
    assert status == 0
    data = json.loads(out)
    expected = random_playout(GameState.new(), random.Random(4))
    result = expected.result()
    assert GameRecord.from_dict(data["record"]).replay() == expected
    assert data["knots"] == [
        {"cells": [str(c) for c in k.cells], "orange": k.orange, "blue": k.blue}
        for k in result.knots
    ]
    assert data["open_paths"] == len(result.open_paths)
    assert data["scores"] == {"orange": list(result.score.orange), "blue": list(result.score.blue)}
    assert data["result"] == result.text == data["record"]["result"]
    assert GameRecord.from_text(target.read_text()).replay() == expected


def test_play_errors() -> None:
    status, out, err = run("play", "--random", "--seed", "1", "--variant", "blitz")
    assert (status, out) == (1, "")
    assert "unknown variant 'blitz'" in err
    status, _, err = run("play", "--seed", "1")
    assert status == 2 and "--random" in err
    status, _, err = run("play", "--random", "--seed", "x")
    assert status == 2 and "invalid int value" in err


def test_play_output_to_unwritable_path(tmp_path: Path) -> None:
    status, _, err = run("play", "--random", "--seed", "1", "-o", str(tmp_path / "no" / "f"))
    assert status == 1 and "cannot write" in err


# --- replay, legal, show ----------------------------------------------------------------------


def test_replay_text_and_json_records(tmp_path: Path) -> None:
    state = finished_game()
    record = GameRecord.from_state(state)
    result = state.result()
    for name, text in (("g.txt", record.to_text()), ("g.json", record.to_json())):
        status, out, err = run("replay", write(tmp_path, text, name))
        assert (status, err) == (0, "")
        assert out.splitlines()[0].split()[0] in "abcde"
        assert f"Result (final): {result.text} ({len(result.knots)} knots" in out


def test_replay_from_standard_input_and_unfinished_game() -> None:
    status, out, _ = run("replay", "-", stdin=UNFINISHED)
    assert status == 0
    assert "Ply 3: Orange played c5 EW." in out
    assert "Result (unfinished; if it ended now):" in out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "1. d5 EW e6 NES\n2. a1 N\n*\n",
            "move 2 (Orange) a1 N: a1 is not a demand cell",
        ),
        ("1. d5 EW e6 NES\n2. c5 EQ\n*\n", "move 2 (Orange) 'c5 EQ': 'c5 EQ' is not a move"),
        ("1. d5 EW d5 EW\n*\n", "move 1 (Blue) d5 EW: d5 already holds a tile"),
        ("1. d5 EW e6 NES\n2. c5 EW\n1-0\n", "the record's result is 1-0 but the board gives *"),
        ("1. d5 EW pass\n*\n", "move 1 (Blue) pass: Blue has"),
        ('[Event "x"\n\n*\n', "is not a header"),
        ("1. d5 EW\n", "the record has no result"),
        ('{"format": "celtic-record/1"', "the record is not JSON"),
        ('{"format": "other"}', "unknown record format"),
        ("", "the record is empty"),
    ],
)
@pytest.mark.parametrize("command", ["replay", "legal", "show"])
def test_bad_records_name_the_problem(
    tmp_path: Path, command: str, text: str, message: str
) -> None:
    path = write(tmp_path, text)
    status, out, err = run(command, path)
    assert (status, out) == (1, "")
    assert err.startswith(f"python -m games.kinds.celtic {command}: error: {path}: ")
    assert message in err


def test_unreadable_files(tmp_path: Path) -> None:
    status, _, err = run("replay", str(tmp_path / "missing.txt"))
    assert status == 1 and "cannot read" in err and "No such file" in err
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    status, _, err = run("show", str(binary))
    assert status == 1 and "it is not UTF-8 text" in err
    status, _, err = run("legal", str(tmp_path))
    assert status == 1 and "cannot read" in err


def test_legal_lists_the_moves_sorted(tmp_path: Path) -> None:
    status, out, err = run("legal", write(tmp_path, UNFINISHED))
    assert (status, err) == (0, "")
    state = GameState.replay(["d5 EW", "e6 NES", "c5 EW"])
    assert out.splitlines() == [str(move) for move in sorted(state.legal_moves())]
    assert out.splitlines()[:3] == ["b5 E", "b5 E n", "b5 NE"]


def test_legal_after_the_end(tmp_path: Path) -> None:
    path = write(tmp_path, GameRecord.from_state(finished_game()).to_text())
    status, out, err = run("legal", path)
    assert (status, out) == (0, "")
    assert "the game is over: no legal moves" in err


def test_show_draws_the_position(tmp_path: Path) -> None:
    status, out, _ = run("show", write(tmp_path, UNFINISHED))
    assert status == 0
    lines = out.splitlines()
    assert lines[0].split() == ["b", "c", "d", "e", "f"]
    assert "│o     *│o      │n  ║   │" in out
    assert "5 │   ·   ════════════════════╬════   ·   │ 5" in out
    assert "Blue to move" in out
    status, out, _ = run("show", "--ascii", write(tmp_path, UNFINISHED))
    assert status == 0 and out.isascii()
    status, out, _ = run("show", "--colour", write(tmp_path, UNFINISHED))
    assert status == 0 and "\x1b[38;5;208m" in out


def test_json_record_on_standard_input() -> None:
    record = GameRecord.from_state(GameState.replay(["d5 EW", "e6 NES", "c5 EW"]))
    status, out, _ = run("legal", "-", stdin=record.to_json())
    assert status == 0
    assert out.splitlines()[:3] == ["b5 E", "b5 E n", "b5 NE"]


def test_usage_errors() -> None:
    assert run()[0] == 2
    status, out, _ = run("--help")
    assert status == 0 and out.startswith("usage: python -m games.kinds.celtic")
    status, out, err = run("puzzle", "medium")
    assert (status, out) == (2, "") and "invalid choice: 'medium'" in err


def test_real_subprocess_without_django_settings(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env["PYTHONPATH"] = str(ROOT)
    command = [sys.executable, "-m", "games.kinds.celtic"]
    done = subprocess.run(
        [*command, "puzzle", "hard"], env=env, cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert check_layout(Layout.parse(done.stdout), single_knot=True) == 1
    done = subprocess.run(
        [*command, "replay", "-"],
        input="1. d5 EW e6 NES\n2. a1 N\n*\n",
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert "standard input: move 2 (Orange) a1 N: a1 is not a demand cell" in done.stderr
    script = (
        "import sys; from games.kinds.celtic.cli import main; "
        "status = main(['puzzle', 'easy', '--count']); print(status, 'django' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=tmp_path, capture_output=True, text=True
    )
    assert done.stdout.splitlines()[-1] == "0 False", done.stderr


def test_puzzle_solution_as_json() -> None:
    status, out, _ = run("puzzle", "hard", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["knots"] == 1
    layout = Layout.parse("\n".join(" ".join(row) for row in data["rows"]))
    assert check_layout(layout, single_knot=True) == 1


def test_the_output_of_play_is_itself_a_record_that_replays(tmp_path) -> None:
    """`play` appends the final knots as ';' comments, so its text and JSON replay as-is."""
    text_out, json_out = io.StringIO(), io.StringIO()
    assert main(["play", "--random", "--seed", "7"], stdout=text_out) == 0
    assert main(["play", "--random", "--seed", "7", "--json"], stdout=json_out) == 0
    assert "; Knot 1: Orange 1, Blue 2: c3 d3 d4 c4" in text_out.getvalue()
    assert json.loads(json_out.getvalue())["knots"] == [
        {"cells": ["c3", "d3", "d4", "c4"], "orange": 1, "blue": 2}
    ]
    for name, output in (("game.txt", text_out), ("game.json", json_out)):
        path = tmp_path / name
        path.write_text(output.getvalue())
        shown = io.StringIO()
        assert main(["replay", str(path)], stdout=shown) == 0
        assert "Result (final): 0-1" in shown.getvalue()


def test_a_record_that_is_not_valid_json_is_refused_clearly(tmp_path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "celtic-record/1", ')
    errors = io.StringIO()
    assert main(["replay", str(path)], stderr=errors) == 1
    assert "the record is not JSON" in errors.getvalue()


def test_the_old_module_path_is_an_alias(tmp_path: Path) -> None:
    """``python -m games.rules`` (the engine's home before game kinds) prints the same."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env["PYTHONPATH"] = str(ROOT)
    outputs = [
        subprocess.run(
            [sys.executable, "-m", module, "play", "--random", "--seed", "5"],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for module in ("games.kinds.celtic", "games.rules")
    ]
    assert outputs[0] == outputs[1] and "Result" in outputs[0]
