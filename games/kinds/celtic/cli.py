"""The command line of the rules engine: ``python -m games.kinds.celtic COMMAND ...``.

Needs no Django settings. Commands:

* ``puzzle easy|hard [--count] [--json] [--seed S] [--draw]``: a solution of a puzzle as five
  lines of five cells (north row first, each cell its open sides in N E S W order), or with
  ``--count`` the number of solutions by number of knots (``{"total": N, "by_knots": {...}}``
  with ``--json``).
* ``play --random --seed S [--json] [--output FILE]``: a random legal game, printed as its
  record followed by the final knots, score lists and result.
* ``replay FILE``: check a record (text or JSON, detected; ``-`` reads standard input) and
  draw the final position and result.
* ``legal FILE``: the legal moves after the record, one per line, in canonical order.
* ``show FILE``: draw the position after the record.

Exit status 0 on success, 1 for a bad file or record (the message on standard error names
the first bad move and why), 2 for bad command-line arguments.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
from collections.abc import Sequence
from typing import TextIO

from games.kinds.celtic.puzzles import (
    PuzzleCount,
    check_layout,
    count_easy,
    count_hard,
    find_easy,
    find_hard,
)
from games.kinds.celtic.record import MAX_RECORD_CHARS, GameRecord, RecordError
from games.kinds.celtic.render import describe_result, render_layout, render_state
from games.kinds.celtic.state import GameState, Variant, random_playout
from games.kinds.celtic.tiles import orientation

PROG = "python -m games.kinds.celtic"


class CommandError(Exception):
    """A problem to report on standard error with exit status 1."""


class Note(Exception):
    """Nothing to print on standard output, only this remark on standard error (status 0)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description="Celtic! rules engine: puzzles, random games, record checks."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    puzzle = commands.add_parser("puzzle", help="solve or count the easy or hard puzzle")
    puzzle.add_argument("level", choices=("easy", "hard"))
    puzzle.add_argument(
        "--count", action="store_true", help="count all solutions, grouped by number of knots"
    )
    puzzle.add_argument("--json", action="store_true", help="print the solution or count as JSON")
    puzzle.add_argument("--seed", type=int, help="find a random solution with this seed")
    puzzle.add_argument("--draw", action="store_true", help="also draw the solution")
    puzzle.add_argument("--ascii", action="store_true", help="draw with ASCII only")

    play = commands.add_parser("play", help="play a random legal game")
    play.add_argument("--random", action="store_true", required=True, help="random moves")
    play.add_argument("--seed", type=int, required=True, help="seed of the random moves")
    play.add_argument("--json", action="store_true", help="print the record and result as JSON")
    play.add_argument(
        "--variant", default="standard", help="'standard' (default) or 'window-forfeit'"
    )
    play.add_argument("--output", "-o", metavar="FILE", help="also write the record to FILE")

    for name, text in (
        ("replay", "check a record and show the final position and result"),
        ("legal", "list the legal moves after a record"),
        ("show", "draw the position after a record"),
    ):
        command = commands.add_parser(name, help=text)
        command.add_argument("file", metavar="FILE", help="a record, text or JSON; - for stdin")
        if name != "legal":
            command.add_argument("--ascii", action="store_true", help="draw with ASCII only")
            command.add_argument("--colour", action="store_true", help="ANSI colours")
    return parser


def main(
    argv: Sequence[str] | None = None, *, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    """Run one command; answer the exit status."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    parser = build_parser()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse has printed the usage problem (or the help)
        return stop.code if isinstance(stop.code, int) else 2
    try:
        text = _COMMANDS[args.command](args)
    except CommandError as error:
        print(f"{PROG} {args.command}: error: {error}", file=err)
        return 1
    except Note as note:
        print(f"{PROG} {args.command}: {note}", file=err)
        return 0
    out.write(text if text.endswith("\n") else text + "\n")
    return 0


# --- the commands ------------------------------------------------------------------------------


def _puzzle(args: argparse.Namespace) -> str:
    hard = args.level == "hard"
    if args.count:
        count = count_hard() if hard else count_easy()
        if args.json:
            return json.dumps(count.to_json_dict())
        return _count_text(args.level, count)
    rng = random.Random(args.seed) if args.seed is not None else None
    layout = find_hard(rng) if hard else find_easy(rng)
    knots = check_layout(layout, single_knot=hard)
    if args.json:
        rows = [[_sides(mask) for mask in row] for row in layout.rows]
        return json.dumps({"rows": rows, "knots": knots})
    text = str(layout)
    if args.draw:
        text += f"\n\n{render_layout(layout, ascii=args.ascii)}\n{_plural(knots, 'knot')}"
    return text


def _sides(mask: int) -> str:
    return orientation(mask).sides_text


def _count_text(level: str, count: PuzzleCount) -> str:
    lines = [f"{level.title()} puzzle: {_plural(count.total, 'layout')}"]
    lines += [f"  {_plural(knots, 'knot')}: {n}" for knots, n in count.by_knots.items()]
    return "\n".join(lines)


def _play(args: argparse.Namespace) -> str:
    try:
        variant = Variant.from_name(args.variant)
    except ValueError as error:
        raise CommandError(str(error)) from None
    state = random_playout(GameState.new(variant), random.Random(args.seed))
    headers = {"Event": "Random game", "Orange": "random", "Blue": "random", "Seed": str(args.seed)}
    record = GameRecord.from_state(state, headers=headers)
    result = state.result()
    if args.output:
        _write(args.output, record.to_text())
    if args.json:
        return json.dumps(
            {
                "record": record.to_dict(),
                "knots": [
                    {
                        "cells": [str(c) for c in knot.cells],
                        "orange": knot.orange,
                        "blue": knot.blue,
                    }
                    for knot in result.knots
                ],
                "open_paths": len(result.open_paths),
                "scores": {"orange": list(result.score.orange), "blue": list(result.score.blue)},
                "result": result.text,
            },
            indent=1,
        )
    return f"{record.to_text()}\n{_summary(state)}"


def _summary(state: GameState) -> str:
    """The final knots and scores as comment lines, so the output still reads as a record."""
    result = state.result()
    knots = [
        f"Knot {number}: Orange {knot.orange}, Blue {knot.blue}: "
        + " ".join(str(cell) for cell in knot.cells)
        for number, knot in enumerate(result.knots, 1)
    ]
    lines = [
        f"Knots: {len(result.knots)}",
        *knots,
        f"Open paths: {len(result.open_paths)}",
        f"Orange scores: {_listed(result.score.orange)}",
        f"Blue scores: {_listed(result.score.blue)}",
        f"Result: {result.text}",
    ]
    return "\n".join(f"; {line}" for line in lines)


def _replay(args: argparse.Namespace) -> str:
    state = load_state(args.file)
    drawing = render_state(state, ascii=args.ascii, colour=args.colour)
    status = "final" if state.is_over() else "unfinished; if it ended now"
    return f"{drawing}\nResult ({status}): {describe_result(state.result())}"


def _legal(args: argparse.Namespace) -> str:
    state = load_state(args.file)
    if state.is_over():
        raise Note("the game is over: no legal moves")
    return "\n".join(str(move) for move in sorted(state.legal_moves()))


def _show(args: argparse.Namespace) -> str:
    return render_state(load_state(args.file), ascii=args.ascii, colour=args.colour)


_COMMANDS = {
    "puzzle": _puzzle,
    "play": _play,
    "replay": _replay,
    "legal": _legal,
    "show": _show,
}


# --- records -----------------------------------------------------------------------------------


def parse_record(text: str) -> GameRecord:
    """A record in either form: JSON when it starts with ``{``, the text form otherwise."""
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(f"the record is not JSON: {error}") from None
        if isinstance(data, dict) and isinstance(data.get("record"), dict):
            data = data["record"]  # the output of `play --json`
        return GameRecord.from_json(data)
    return GameRecord.from_text(text)


def load_state(path: str) -> GameState:
    """Read, parse and replay the record at ``path`` (``-``: standard input)."""
    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            text = sys.stdin.read(MAX_RECORD_CHARS + 1)
        else:
            with open(path, encoding="utf-8") as file:
                text = file.read(MAX_RECORD_CHARS + 1)
    except (OSError, UnicodeDecodeError) as error:
        raise CommandError(f"cannot read {name}: {_os_reason(error)}") from None
    if len(text) > MAX_RECORD_CHARS:  # read no further than the limit
        raise CommandError(f"{name}: the record is longer than {MAX_RECORD_CHARS:,} characters")
    if not text.strip():
        raise CommandError(f"{name}: the record is empty")
    try:
        return parse_record(text).replay()
    except RecordError as error:
        raise CommandError(f"{name}: {error}") from None
    except ValueError as error:  # an engine error the record layer did not wrap
        raise CommandError(f"{name}: {error}") from None


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
    except OSError as error:
        raise CommandError(f"cannot write {path}: {_os_reason(error)}") from None


def _os_reason(error: OSError | UnicodeDecodeError) -> str:
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return "it is not UTF-8 text"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _listed(values: tuple[int, ...]) -> str:
    return " ".join(map(str, values)) or "-"
