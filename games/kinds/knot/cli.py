"""The command line of the Celtic Knot engine: ``python -m games.kinds.knot COMMAND ...``.

Needs no Django settings. Commands:

* ``play --random --seats N --seed S``: a random game (every choice uniform from
  ``random.Random(S)``, the flips from the seed SHA-256 of ``knot-seed:S``), printed as its
  record with FlipCommit, FlipSeed and Result.
* ``replay FILE [--json]``: check a record line by line (``-`` reads standard input) and print
  the finishing order (``--json``: ``{"result": [seats first to last], "turns": N}``).
* ``show FILE``: draw the position after the record.

Exit status 0 on success, 1 for a record that cannot be read or breaks a rule (the message
names the line and the rule), 2 for bad command-line arguments.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import random
import sys
from collections.abc import Sequence
from typing import TextIO

from games.kinds.base import KindError, SeededChance
from games.kinds.knot.kind import KIND, SEAT_NAMES
from games.kinds.knot.record import MAX_RECORD_CHARS, parse_record, record_text
from games.kinds.knot.render import board_text
from games.kinds.knot.state import KnotState

PROG = "python -m games.kinds.knot"


class CommandError(Exception):
    """A problem to report on standard error with exit status 1."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description="Celtic Knot rules engine: random games and record checks."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    play = commands.add_parser("play", help="play a random legal game and print its record")
    play.add_argument("--random", action="store_true", required=True, help="random choices")
    play.add_argument("--seats", type=_seat_count, required=True, help="2 to 6 seats")
    play.add_argument("--seed", type=int, required=True, help="seed of the choices and flips")
    replay = commands.add_parser("replay", help="check a record and print the finishing order")
    replay.add_argument("file", metavar="FILE", help="a record; - for standard input")
    replay.add_argument("--json", action="store_true", help="print the result as JSON")
    show = commands.add_parser("show", help="draw the position after a record")
    show.add_argument("file", metavar="FILE", help="a record; - for standard input")
    return parser


def _seat_count(text: str) -> int:
    if not text.isdigit() or int(text) not in KIND.seats:
        raise argparse.ArgumentTypeError(f"expected 2 to 6 seats, got {text!r}")
    return int(text)


def main(
    argv: Sequence[str] | None = None, *, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    """Run one command; answer the exit status."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            args = build_parser().parse_args(argv)
    except SystemExit as stop:  # argparse has printed the usage problem (or the help)
        return stop.code if isinstance(stop.code, int) else 2
    try:
        text = _COMMANDS[args.command](args)
    except CommandError as error:
        print(f"{PROG} {args.command}: error: {error}", file=err)
        return 1
    out.write(text if text.endswith("\n") else text + "\n")
    return 0


def random_game(seat_count: int, seed: int) -> tuple[KnotState, SeededChance]:
    """A complete game of uniform random choices; flips from a seed derived from ``seed``."""
    chance = SeededChance(hashlib.sha256(f"knot-seed:{seed}".encode()).digest())
    state = KIND.new_state(seat_count, chance=chance)
    rng = random.Random(seed)
    while not state.is_over():
        state.play(rng.choice(state.legal_choices()))
    return state, chance


def _play(args: argparse.Namespace) -> str:
    state, chance = random_game(args.seats, args.seed)
    headers = {f"Seat{n}": f"random {SEAT_NAMES[n - 1]}" for n in range(1, args.seats + 1)}
    headers |= {"FlipCommit": chance.commitment, "FlipSeed": chance.seed.hex()}
    return record_text(state, headers)


def _replay(args: argparse.Namespace) -> str:
    state = load_state(args.file)
    order = state.finishing_order()
    seats = None if order is None else [min(group) for group in order]
    if args.json:
        return json.dumps({"result": seats, "turns": state.core.turns})
    if seats is None:
        return f"Not over after {state.core.turns} turns: seat {state.to_act} to act."
    return f"Result: {' '.join(map(str, seats))} ({state.core.turns} turns)"


def _show(args: argparse.Namespace) -> str:
    return board_text(load_state(args.file), SEAT_NAMES)


_COMMANDS = {"play": _play, "replay": _replay, "show": _show}


def load_state(path: str) -> KnotState:
    """Read, parse and check the record at ``path`` (``-``: standard input)."""
    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            text = sys.stdin.read(MAX_RECORD_CHARS + 1)
        else:
            with open(path, encoding="utf-8") as file:
                text = file.read(MAX_RECORD_CHARS + 1)
    except OSError as error:
        raise CommandError(f"cannot read {name}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise CommandError(f"cannot read {name}: it is not UTF-8 text") from None
    if not text.strip():
        raise CommandError(f"{name}: the record is empty")
    try:
        return parse_record(text).state
    except KindError as error:
        raise CommandError(f"{name}: {error}") from None
