"""The record of a game: headers, then one line per turn and per departure (KNOT-RULES.md).

```
[Game "Celtic Knot"]
[Seats "3"]
[FlipCommit "<hex SHA-256 of the seed>"]
[FlipSeed "<hex seed>"]
[Result "2 3 1"]
1 a1 H a2 TH c3
2 b1 T c2
3 resign
```

A turn line is the seat, the first move's space, flips and destination, then the flips and
destination of each extra move; ``pass`` stands for a destination when no route exists. A
line stops early when a seat leaves mid-turn; the turn goes on in a line of its own. Reading
a record checks every line against the rules and, given FlipSeed, every flip against it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass

from games.kinds.base import Departure, FinishingOrder, KindError, SeededChance, StepKind
from games.kinds.knot.board import NAMES, parse_space
from games.kinds.knot.core import EXTRA, OVER, ROUTE, SQUARE
from games.kinds.knot.notation import flips_from_draw, flips_text, is_flips, names
from games.kinds.knot.state import KnotState, apply_step

GAME = "Celtic Knot"
MAX_RECORD_CHARS = 1_000_000
HEADER_ORDER = (
    "Game",
    "Seats",
    *(f"Seat{n}" for n in range(1, 7)),
    "FlipCommit",
    "FlipSeed",
    "Result",
)
_HEADER = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$')
_LEAVE_WORDS = {how.value: how for how in Departure}


def result_text(order: FinishingOrder) -> str:
    """``"2 3 1"``: the seats from first to last place (a strict order)."""
    seats = [next(iter(group)) for group in order if len(group) == 1]
    if len(seats) != len(order) or sorted(seats) != list(range(1, len(seats) + 1)):
        raise KindError(f"Not a strict finishing order of Celtic Knot's seats: {order}.")
    return " ".join(map(str, seats))


def order_from_result(text: str, seat_count: int) -> FinishingOrder:
    """The finishing order ``result_text`` wrote; ``KindError`` for anything else."""
    words = text.split()
    if not all(word.isdigit() for word in words) or sorted(map(int, words)) != list(
        range(1, seat_count + 1)
    ):
        raise KindError(
            f"Unknown Celtic Knot result {text!r}: expected the seats 1..{seat_count} from "
            "first to last place, each once, like '2 3 1'."
        )
    return tuple(frozenset({int(word)}) for word in words)


# --- writing ----------------------------------------------------------------------------------


def record_text(state: KnotState, headers: Mapping[str, str]) -> str:
    """The record: the caller's headers (Game, Seats and a final Result filled in), the lines."""
    values = {"Game": GAME, "Seats": str(state.seat_count), **headers}
    order = state.finishing_order()
    if order is not None and "Result" not in headers:
        values["Result"] = result_text(order)
    keys = [key for key in HEADER_ORDER if key in values]
    keys += [key for key in values if key not in HEADER_ORDER]
    lines = [f'[{key} "{_escape(values[key])}"]' for key in keys]
    return "\n".join([*lines, *turn_lines(state)]) + "\n"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def turn_lines(state: KnotState) -> list[str]:
    """One line per turn and per departure, replaying the steps to see where turns begin."""
    again = KnotState(state.seat_count)
    lines: list[str] = []
    line: list[str] = []
    for step in state.steps:
        if step.kind == StepKind.PASS:
            line.append("pass")  # made by the flips before it, already replayed
            continue
        if step.kind == StepKind.LEAVE:
            lines += [" ".join(line)] if line else []
            lines.append(f"{step.seat} {step.notation}")
            line = []
        elif not line or again.core.phase == SQUARE:
            lines += [" ".join(line)] if line else []
            line = [str(step.seat), step.notation]
        else:
            line.append(step.notation)
        apply_step(again, step)
    return lines + ([" ".join(line)] if line else [])


# --- reading ----------------------------------------------------------------------------------


@dataclass
class ParsedRecord:
    """A record read and checked: its headers and the position after its last line."""

    headers: dict[str, str]
    state: KnotState


def parse_record(text: str) -> ParsedRecord:
    """Read and check a record; ``KindError`` names the line and the rule it breaks."""
    if len(text) > MAX_RECORD_CHARS:
        raise KindError(f"The record is longer than {MAX_RECORD_CHARS:,} characters.")
    headers: dict[str, str] = {}
    reader: _LineReader | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        try:
            if line.startswith("["):
                if reader is not None:
                    raise KindError("headers come before the first turn line.")
                key, value = _header(line)
                headers[key] = value
                continue
            reader = reader or _LineReader(headers)
            reader.read(line)
        except KindError as error:
            raise KindError(f"Line {number}: {error}") from None
    reader = reader or _LineReader(headers)
    _check_result(reader.state, headers.get("Result"))
    return ParsedRecord(headers, reader.state)


def _header(line: str) -> tuple[str, str]:
    match = _HEADER.match(line)
    if not match:
        raise KindError(f'{line[:40]!r} is not a header: expected [Name "value"].')
    return match[1], re.sub(r"\\(.)", r"\1", match[2])


def _check_result(state: KnotState, result: str | None) -> None:
    order = state.finishing_order()
    if order is None:
        if result not in (None, "", "*"):
            raise KindError(f"Result: the record says {result!r}, but the game is not over.")
        return
    played = result_text(order)
    if result is not None and result.split() != played.split():
        raise KindError(f"Result: the record says {result!r}, but the lines give {played!r}.")


class _LineReader:
    """Plays turn lines onto a state, checking flips against FlipSeed when the record has it."""

    def __init__(self, headers: Mapping[str, str]) -> None:
        game = headers.get("Game", GAME)
        if game != GAME:
            raise KindError(f"Game: expected a record of {GAME!r}, not of {game!r}.")
        seats = headers.get("Seats", "")
        if not seats.isdigit() or not 2 <= int(seats) <= 6:
            raise KindError(f'Seats: expected the header [Seats "N"], N 2 to 6; got {seats!r}.')
        self.chance = _chance(headers)
        self.state = KnotState(int(seats))
        self.words: list[str] = []

    def read(self, line: str) -> None:
        seat_word, *self.words = line.split()
        if not seat_word.isdigit():
            raise KindError(f"a line starts with a seat number, not {seat_word!r}.")
        seat = int(seat_word)
        if len(self.words) == 1 and self.words[0].lower() in _LEAVE_WORDS:
            self.state.leave(seat, _LEAVE_WORDS[self.words[0].lower()])
            return
        if not self.words:
            raise KindError("a turn line names the seat, then its moves.")
        if self.state.is_over():
            raise KindError("The game is over: no more moves.")
        if seat != self.state.to_act:
            raise KindError(f"Turn order: seat {self.state.to_act} is to act, not seat {seat}.")
        self._next_move_part()
        while self.words:
            if self.state.core.phase in (SQUARE, OVER):
                raise KindError(
                    f"Turn: the turn ended with the last landing (no extra move earned), "
                    f"yet {' '.join(self.words)!r} follows."
                )
            self._next_move_part()

    def _next_move_part(self) -> None:
        core = self.state.core
        if core.phase == OVER:
            raise KindError(f"The game is over: {' '.join(self.words)!r} cannot be played.")
        if core.phase == ROUTE:
            dest = parse_space(self.words.pop(0))
            extra = self._take_flips()
            if extra is not None and dest in core.dests and core.earns_extra(dest):
                mine = core.own[core.seat]
                self._check_seeded(extra, mine[core.space] + mine[dest])
            self.state.move(dest, extra)
            return
        space = core.space if core.phase == EXTRA else parse_space(self.words.pop(0))
        flips = self._take_flips()
        if flips is None:
            raise KindError(f"Flip: the flips of the stack on {NAMES[space]} must follow it.")
        if core.own[core.seat][space]:
            self._check_seeded(flips, core.own[core.seat][space])
        made = self.state.flip(space, flips)
        passed = bool(self.words) and self.words[0].lower() == "pass"
        if len(made) > 1 and not passed:
            raise KindError(f"Pass: the flips {flips} leave no route; 'pass' must follow.")
        if len(made) == 1 and passed:
            raise KindError(
                f"Pass: the stack can reach {names(core.dests)}, so it must move; no pass."
            )
        if passed:
            self.words.pop(0)

    def _take_flips(self) -> str | None:
        if self.words and is_flips(self.words[0]):
            return self.words.pop(0)
        return None

    def _check_seeded(self, flips: str, coins: int) -> None:
        if self.chance is None or len(flips) != coins:
            return  # no seed to check against; a wrong count is the state's to explain
        flipping = self.state.core.flippings + 1
        drawn = flips_text(flips_from_draw(self.chance.draw(flipping), coins), coins)
        if flips.upper() != drawn:
            raise KindError(
                f"Flip: flipping {flipping} of the game is {drawn} by FlipSeed, not {flips}."
            )


def _chance(headers: Mapping[str, str]) -> SeededChance | None:
    seed_text = headers.get("FlipSeed")
    if seed_text is None:
        return None
    try:
        seed = bytes.fromhex(seed_text)
    except ValueError:
        raise KindError(f"FlipSeed: expected the seed in hexadecimal, got {seed_text!r}.") from None
    commit = headers.get("FlipCommit")
    if commit is not None and hashlib.sha256(seed).hexdigest() != commit.lower():
        raise KindError("FlipSeed: its SHA-256 is not FlipCommit, so the flips cannot be trusted.")
    return SeededChance(seed)
