"""Game records: headers, variant, the turns and the result, as JSON and as PGN-like text.

JSON (``to_json()`` / ``from_json()``; ``to_dict()`` / ``from_dict()`` for the parsed form)::

    {"format": "celtic-record/1",
     "headers": {"Event": "Casual game", ..., "Variant": "standard", "Result": "0-1"},
     "variant": {"window_forfeit": false},
     "turns": ["f5 NE", "d5 NESW n", "e6 ESW", "pass", "forfeit f4 N", ...],
     "result": "0-1"}

Text (``to_text()`` / ``from_text()``), after PGN: one ``[Name "value"]`` header per line
(``\\"`` and ``\\\\`` escape a quote and a backslash), a blank line, numbered turn pairs
(Orange, then Blue), and the result::

    [Event "Casual game"]
    [Site "?"]
    [Date "2026.11.21"]
    [Orange "alice"]
    [Blue "bob"]
    [Variant "standard"]
    [Result "0-1"]

    1. f5 NE d5 NESW n
    2. e6 ESW pass
    3. forfeit f4 N d6 S
    0-1

Turns are written exactly as in the JSON list: a move (``f5 NE``, ``d5 NESW n``), ``pass`` for
an automatic pass, ``forfeit`` and the move for a turn forfeited under the window rule. In the
text the move numbers are optional when reading, but must be right when present, and a ``;``
starts a comment that runs to the end of its line (``play`` writes the final knots that way).

The result is ``1-0`` (Orange won), ``0-1`` (Blue won), ``1/2-1/2`` (draw) or ``*`` (not
finished). It must be the board's result (``*`` while the game is still going) unless a
``Termination`` header explains otherwise (resignation, time, adjudication by the server).
The seven headers Event, Site, Date, Orange, Blue, Variant, Result are always present (``?``
when unknown) and come first; others follow in their given order.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from celtictext import json_kind, quote
from games.kinds.celtic.errors import IllegalMoveError, NotationError, Rule
from games.kinds.celtic.notation import Turn, parse_turn, turn_label
from games.kinds.celtic.state import GameState, Variant
from games.kinds.celtic.tiles import PLAYERS

FORMAT: Final = "celtic-record/1"
RESULTS: Final = ("1-0", "0-1", "1/2-1/2", "*")
ROSTER: Final = ("Event", "Site", "Date", "Orange", "Blue", "Variant", "Result")
"""The headers every record has, in this order."""
UNKNOWN: Final = {"Date": "????.??.??"}
"""Placeholder for a missing roster header (``?`` if not listed)."""

MAX_RECORD_CHARS: Final = 100_000
"""The longest record text (or JSON text) read; longer input is refused before parsing."""
MAX_TURNS: Final = 1_000
"""The most turns a record may hold (a real game has a few dozen)."""
MAX_HEADERS: Final = 100
MAX_HEADER_CHARS: Final = 1_000
"""The longest header value."""
FIELDS: Final = ("format", "headers", "variant", "turns", "result")
"""The members of a JSON record, all required but ``headers``."""

_HEADER_NAME = re.compile(r"[A-Za-z0-9_]{1,40}")
_HEADER_LINE = re.compile(r'\[([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\]')
_MOVE_NUMBER = re.compile(r"(\d+)\.")


class RecordError(ValueError):
    """A record that does not parse, or whose turns or result do not hold up on replay.

    ``rule`` is the rule an illegal turn breaks (None for other problems).
    """

    def __init__(self, message: str, rule: Rule | None = None) -> None:
        super().__init__(message)
        self.rule = rule


def board_result(state: GameState) -> str:
    """The result the board gives: the scoring once the game is over, ``*`` before."""
    return state.result().text if state.is_over() else "*"


@dataclass(frozen=True)
class GameRecord:
    """One game: its headers, variant, turns and result. Equal records serialize equally."""

    headers: dict[str, str] = field(default_factory=dict)
    variant: Variant = field(default_factory=Variant)
    turns: tuple[Turn, ...] = ()
    result: str = "*"

    def __post_init__(self) -> None:
        if self.result not in RESULTS:
            raise RecordError(f"unknown result {quote(self.result)}: expected one of {RESULTS}")
        _check_count("headers", len(self.headers), MAX_HEADERS)
        for name, value in self.headers.items():
            if not _HEADER_NAME.fullmatch(name):
                raise RecordError(
                    f"bad header name {quote(name)}: expected up to 40 letters, digits and _"
                )
            if "\n" in value or "\r" in value:
                raise RecordError(f"the {name} header holds a line break")
            if len(value) > MAX_HEADER_CHARS:
                raise RecordError(
                    f"the {name} header is {len(value):,} characters long: "
                    f"expected at most {MAX_HEADER_CHARS:,}"
                )
        _check_count("turns", len(self.turns), MAX_TURNS)
        given = {"Variant": self.variant.name, "Result": self.result}
        for name, value in given.items():
            if self.headers.get(name, value) != value:
                raise RecordError(
                    f"the {name} header says {quote(self.headers[name])} but the record's "
                    f"{name.lower()} is {value!r}"
                )
        headers = {name: self.headers.get(name, UNKNOWN.get(name, "?")) for name in ROSTER}
        headers.update(given)
        headers.update((k, v) for k, v in self.headers.items() if k not in headers)
        object.__setattr__(self, "headers", headers)
        object.__setattr__(self, "turns", tuple(self.turns))

    @classmethod
    def from_state(
        cls,
        state: GameState,
        headers: Mapping[str, str] | None = None,
        result: str | None = None,
    ) -> GameRecord:
        """The record of ``state``'s game; ``result`` defaults to the board's result."""
        headers = dict(headers or {})
        if result is None:
            result = headers.get("Result", board_result(state))
        return cls(headers, state.variant, state.history, result)

    def replay(self) -> GameState:
        """Rebuild the game, checking every turn and the result.

        Raises RecordError naming the first bad turn ("move 7 (Blue) f3 NE: ...").
        """
        try:
            state = GameState.replay(self.turns, self.variant)
        except IllegalMoveError as error:
            raise RecordError(str(error), error.rule) from error
        if state.ply > len(self.turns):
            raise RecordError(
                f"{turn_label(len(self.turns), 'pass')}: the record ends before this "
                "automatic pass",
                Rule.PASS_MISSING,
            )
        board = board_result(state)
        if self.result != board and "Termination" not in self.headers:
            raise RecordError(
                f"the record's result is {self.result} but the board gives {board}; "
                "a different result needs a Termination header saying why"
            )
        return state

    # --- JSON ----------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "headers": dict(self.headers),
            "variant": {"window_forfeit": self.variant.window_forfeit},
            "turns": [str(turn) for turn in self.turns],
            "result": self.result,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        """Read the parsed JSON form, strictly: every member of its JSON type, none unknown."""
        if not isinstance(data, Mapping):
            raise RecordError(f"the record must be an object, not {json_kind(data)}: {_EXPECTED}")
        _check_members("", data, FIELDS)
        if data.get("format") != FORMAT:
            raise RecordError(
                f"unknown record format {quote(data.get('format'))}: expected {FORMAT!r}"
            )
        headers = _typed(data, "headers", dict, "an object of strings", default={})
        _check_count("headers", len(headers), MAX_HEADERS)
        for name, value in headers.items():
            _check_type(f"headers.{name[:40]}", value, str, "every header value as a string")
        variant = _typed(data, "variant", dict, 'an object like {"window_forfeit": false}')
        _check_members("variant.", variant, ("window_forfeit",))
        window_forfeit = _typed(variant, "window_forfeit", bool, "true or false", "variant.")
        texts = _typed(data, "turns", list, 'the turns in notation, like ["f5 NE", "pass"]')
        _check_count("turns", len(texts), MAX_TURNS)
        for index, text in enumerate(texts):
            _check_type(f"turns[{index}]", text, str, "each turn in notation, like 'f5 NE'")
        result = _typed(data, "result", str, f"one of {', '.join(RESULTS)}")
        turns = []
        for index, text in enumerate(texts):
            try:
                turns.append(parse_turn(text, PLAYERS[index % 2]))
            except NotationError as error:
                raise RecordError(f"{turn_label(index, quote(text))}: {error}") from None
        return cls(headers, Variant(window_forfeit=window_forfeit), tuple(turns), result)

    @classmethod
    def from_json(cls, data: str | Mapping[str, Any]) -> GameRecord:
        if isinstance(data, str):
            _check_length(data)
            try:
                data = json.loads(data)
            except json.JSONDecodeError as error:
                raise RecordError(f"the record is not JSON: {error}") from None
            if not isinstance(data, dict):
                raise RecordError("the record is not a JSON object")
        return cls.from_dict(data)

    # --- text ----------------------------------------------------------------------------------

    def to_text(self) -> str:
        lines = [f'[{name} "{_escape(value)}"]' for name, value in self.headers.items()]
        lines.append("")
        for start in range(0, len(self.turns), 2):
            pair = " ".join(str(turn) for turn in self.turns[start : start + 2])
            lines.append(f"{start // 2 + 1}. {pair}")
        lines.append(self.result)
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str) -> GameRecord:
        _check_length(text)
        lines = text.strip().splitlines()
        headers: dict[str, str] = {}
        body_start = 0
        for number, line in enumerate(lines):
            line = line.strip()
            if not line.startswith("["):
                body_start = number
                break
            match = _HEADER_LINE.fullmatch(line)
            if match is None:
                raise RecordError(
                    f'line {number + 1}: {quote(line)} is not a header: expected [Name "value"]'
                )
            headers[match[1]] = re.sub(r"\\(.)", r"\1", match[2])
        else:
            body_start = len(lines)
        body = (line.split(";", 1)[0] for line in lines[body_start:])  # ';' starts a comment
        words = " ".join(body).split()
        result = words.pop() if words and words[-1] in RESULTS else None
        if result is None:
            result = headers.get("Result")
            if result is None:
                raise RecordError(f"the record has no result: expected it to end with {RESULTS}")
        elif headers.get("Result", result) != result:
            raise RecordError(
                f"the Result header says {quote(headers['Result'])} but the moves end with "
                f"{result!r}"
            )
        variant_name = headers.get("Variant", "standard")
        try:
            variant = Variant.from_name(variant_name)
        except NotationError as error:
            raise RecordError(str(error)) from None
        return cls(headers, variant, _parse_movetext(words), result)


def _parse_movetext(words: list[str]) -> tuple[Turn, ...]:
    """Split the words after the headers into turns."""
    turns: list[Turn] = []
    at = 0
    while at < len(words):
        index = len(turns)
        word = words[at]
        number = _MOVE_NUMBER.fullmatch(word)
        if number:
            if index % 2 or number[1].lstrip("0") != str(index // 2 + 1):
                player = PLAYERS[index % 2].name.title()
                raise RecordError(
                    f"unexpected move number {quote(word)}: the next turn is move "
                    f"{index // 2 + 1} ({player})"
                )
            at += 1
            continue
        # A turn: "pass", or ["forfeit"] cell sides ["n"].
        end = at + 1
        if word.lower() != "pass":
            if word.lower() == "forfeit":
                end += 1
            end += 1  # the sides
            if end < len(words) and words[end].lower() in ("n", "neutral"):
                end += 1
        turn_text = " ".join(words[at:end])
        try:
            turn = parse_turn(turn_text, PLAYERS[index % 2])
        except NotationError as error:
            raise RecordError(f"{turn_label(index, quote(turn_text))}: {error}") from None
        turns.append(turn)
        at = end
    return tuple(turns)


_EXPECTED = "expected an object with " + ", ".join(FIELDS)


_TYPE_NAMES: Final = {
    str: "a string",
    list: "a list of strings",
    dict: "an object",
    bool: "true or false",
}


def _check_type(path: str, value: object, kind: type, expected: str) -> None:
    if not isinstance(value, kind):
        raise RecordError(
            f"{path} must be {_TYPE_NAMES[kind]}, not {json_kind(value)}: expected {expected}"
        )


def _typed(
    data: Mapping[str, Any],
    name: str,
    kind: type,
    expected: str,
    prefix: str = "",
    default: Any = None,
) -> Any:
    """``data[name]``, checked to be of JSON type ``kind``; missing: ``default`` if given."""
    if name not in data:
        if default is not None:
            return default
        raise RecordError(f"{prefix}{name} is missing: expected {expected}")
    _check_type(prefix + name, data[name], kind, expected)
    return data[name]


def _check_members(prefix: str, data: Mapping[str, Any], known: tuple[str, ...]) -> None:
    for name in data:
        if name not in known:
            raise RecordError(
                f"unknown field {quote(prefix + str(name))}: expected only "
                + ", ".join(prefix + k for k in known)
            )


def _check_count(what: str, count: int, limit: int) -> None:
    if count > limit:
        raise RecordError(f"the record has {count:,} {what}: expected at most {limit:,}")


def _check_length(text: str) -> None:
    """Refuse oversized input before any parsing."""
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(
            f"the record is {len(text):,} characters long: expected at most {MAX_RECORD_CHARS:,}"
        )


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')
