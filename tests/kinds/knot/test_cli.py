"""The command line ``python -m games.kinds.knot``: outputs, exit statuses and error messages."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.kinds.knot.cli import main
from games.kinds.knot.record import parse_record

ROOT = Path(__file__).resolve().parents[3]


def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin or "")
    try:
        status = main(list(argv), stdout=out, stderr=err)
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_play_prints_a_complete_seeded_record() -> None:
    status, out, err = run("play", "--random", "--seats", "4", "--seed", "5")
    assert (status, err) == (0, "")
    assert '[Seats "4"]' in out and '[Seat4 "random Yellow"]' in out
    parsed = parse_record(out)  # checks every flip against FlipSeed and FlipCommit
    assert parsed.state.is_over()
    assert parsed.headers["Result"].split() != [] and len(parsed.headers["Result"].split()) == 4
    assert run("play", "--random", "--seats", "4", "--seed", "5")[1] == out


def test_replay_prints_the_finishing_order(tmp_path: Path) -> None:
    _, record, _ = run("play", "--random", "--seats", "3", "--seed", "2")
    path = write(tmp_path, record)
    result = parse_record(record).headers["Result"]
    status, out, _ = run("replay", path)
    assert status == 0 and out.startswith(f"Result: {result} (")
    status, out, _ = run("replay", "--json", "-", stdin=record)
    data = json.loads(out)
    assert data["result"] == [int(seat) for seat in result.split()] and data["turns"] > 10


def test_replay_of_an_unfinished_record() -> None:
    status, out, _ = run("replay", "-", stdin='[Seats "2"]\n1 a1 T a3\n')
    assert (status, out) == (0, "Not over after 1 turns: seat 2 to act.\n")


def test_a_record_breaking_a_rule_exits_1_naming_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, '[Seats "2"]\n1 a1 T a3\n1 a2 H a3\n')
    status, out, err = run("replay", path)
    assert (status, out) == (1, "")
    assert err == (
        f"python -m games.kinds.knot replay: error: {path}: Line 3: Turn order: "
        "seat 2 is to act, not seat 1.\n"
    )


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("", "the record is empty"),
        ("[Seats", "is not a header"),
        ("\x00", "Seats: expected the header"),
    ],
)
def test_unreadable_records_exit_1(stdin: str, message: str) -> None:
    status, _, err = run("replay", "-", stdin=stdin)
    assert status == 1 and message in err and "Traceback" not in err


def test_a_missing_file_exits_1(tmp_path: Path) -> None:
    status, _, err = run("show", str(tmp_path / "nope.txt"))
    assert status == 1 and "cannot read" in err and "No such file" in err


def test_show_draws_the_position(tmp_path: Path) -> None:
    status, out, _ = run("show", write(tmp_path, '[Seats "2"]\n1 a1 T a3\n'))
    assert status == 0
    assert "1 Red: 6 coins, distance 56: a2x1 a3x1 b1x1 h9x1 i8x1 i9x1" in out
    assert "Seat 2 Blue to move: a1, a2, b1, h9, i8, i9" in out


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["play", "--random", "--seats", "7", "--seed", "1"],
        ["play", "--seats", "3", "--seed", "1"],
        ["play", "--random", "--seats", "3", "--seed", "x"],
        ["replay"],
        ["dance"],
    ],
)
def test_bad_arguments_exit_2(argv: list[str]) -> None:
    status, out, err = run(*argv)
    assert status == 2 and out == "" and "usage:" in err


def test_the_module_runs_as_a_program(tmp_path: Path) -> None:
    play = subprocess.run(
        [
            sys.executable,
            "-m",
            "games.kinds.knot",
            "play",
            "--random",
            "--seats",
            "2",
            "--seed",
            "3",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    checked = subprocess.run(
        [sys.executable, "-m", "games.kinds.knot", "replay", "--json", "-"],
        cwd=ROOT,
        input=play.stdout,
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0 and json.loads(checked.stdout)["result"] in ([1, 2], [2, 1])
    broken = play.stdout.replace("\n1 ", "\n2 ", 1)
    refused = subprocess.run(
        [sys.executable, "-m", "games.kinds.knot", "replay", "-"],
        cwd=ROOT,
        input=broken,
        capture_output=True,
        text=True,
        check=False,
    )
    assert refused.returncode == 1 and "Turn order" in refused.stderr
    assert "Traceback" not in refused.stderr
