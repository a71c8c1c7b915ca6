"""Hostile or sloppy input to the notation and record readers.

Wrong JSON types are refused instead of being read loosely, messages quote at most a short
part of the input, oversized records are refused before any parsing, and a move whose last
side letter could be the neutral marker is refused as ambiguous.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from celtictext import QUOTE_LIMIT, quote
from games.kinds.celtic import GameRecord, Move, NotationError, RecordError
from games.kinds.celtic.board import Cell
from games.kinds.celtic.cli import main
from games.kinds.celtic.notation import parse_turn
from games.kinds.celtic.record import (
    FORMAT,
    MAX_HEADER_CHARS,
    MAX_HEADERS,
    MAX_RECORD_CHARS,
    MAX_TURNS,
)
from games.kinds.celtic.state import Variant
from games.kinds.celtic.tiles import Colour


def record(**changes: Any) -> dict[str, Any]:
    """A valid JSON record (two moves, unfinished) with ``changes`` applied."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "headers": {"Event": "Casual game"},
        "variant": {"window_forfeit": False},
        "turns": ["d5 EW", "e6 NES"],
        "result": "*",
    }
    data.update(changes)
    return data


def test_the_valid_record_used_below_is_read() -> None:
    read = GameRecord.from_dict(record())
    assert [str(turn) for turn in read.turns] == ["d5 EW", "e6 NES"]
    assert read.headers["Event"] == "Casual game"


# --- JSON types ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"turns": "d5 EW"}, "turns must be a list of strings, not a string"),
        ({"turns": {"0": "d5 EW"}}, "turns must be a list of strings, not an object"),
        ({"turns": ["d5 EW", 7]}, "turns[1] must be a string, not a number"),
        ({"turns": [None]}, "turns[0] must be a string, not null"),
        (
            {"variant": {"window_forfeit": "false"}},
            "variant.window_forfeit must be true or false, not a string",
        ),
        (
            {"variant": {"window_forfeit": 0}},
            "variant.window_forfeit must be true or false, not a number",
        ),
        ({"variant": {}}, "variant.window_forfeit is missing"),
        ({"variant": {"window_forfeit": False, "blitz": True}}, "unknown field 'variant.blitz'"),
        ({"variant": "standard"}, "variant must be an object, not a string"),
        ({"headers": ["Event", "x"]}, "headers must be an object, not a list"),
        ({"headers": {"Round": 3}}, "headers.Round must be a string, not a number"),
        ({"result": 1}, "result must be a string, not a number"),
        ({"result": None}, "result must be a string, not null"),
        ({"format": 1}, "unknown record format 1"),
        ({"moves": []}, "unknown field 'moves'"),
    ],
)
def test_json_fields_of_the_wrong_type_are_refused(changes: dict[str, Any], problem: str) -> None:
    with pytest.raises(RecordError) as caught:
        GameRecord.from_dict(record(**changes))
    assert problem in str(caught.value)
    assert "expected" in str(caught.value)


@pytest.mark.parametrize("missing", ["format", "variant", "turns", "result"])
def test_missing_fields_are_named(missing: str) -> None:
    data = record()
    del data[missing]
    with pytest.raises(RecordError, match=rf"\b{missing}\b"):
        GameRecord.from_dict(data)


def test_headers_may_be_left_out() -> None:
    data = record()
    del data["headers"]
    assert GameRecord.from_dict(data).headers["Event"] == "?"


# --- sizes --------------------------------------------------------------------------------


def test_an_oversized_text_record_is_refused_before_parsing() -> None:
    huge = "[" * (MAX_RECORD_CHARS + 1)  # would be a bad header if it were parsed
    with pytest.raises(RecordError) as caught:
        GameRecord.from_text(huge)
    assert str(caught.value) == (
        f"the record is {MAX_RECORD_CHARS + 1:,} characters long: "
        f"expected at most {MAX_RECORD_CHARS:,}"
    )


def test_an_oversized_json_record_is_refused_before_parsing() -> None:
    huge = "{" * (MAX_RECORD_CHARS + 1)  # not JSON either: the size is checked first
    with pytest.raises(RecordError, match="characters long: expected at most"):
        GameRecord.from_json(huge)


def test_too_many_turns_or_headers_are_refused() -> None:
    with pytest.raises(RecordError, match=f"the record has {MAX_TURNS + 1:,} turns: expected"):
        GameRecord.from_dict(record(turns=["pass"] * (MAX_TURNS + 1)))
    headers = {f"H{n}": "x" for n in range(MAX_HEADERS + 1)}
    with pytest.raises(RecordError, match=f"the record has {MAX_HEADERS + 1} headers: expected"):
        GameRecord.from_dict(record(headers=headers))
    with pytest.raises(RecordError, match="headers: expected at most"):
        GameRecord(headers)


def test_a_header_longer_than_the_limit_is_refused() -> None:
    with pytest.raises(RecordError, match=f"the Event header is {MAX_HEADER_CHARS + 1:,} "):
        GameRecord.from_dict(record(headers={"Event": "e" * (MAX_HEADER_CHARS + 1)}))
    assert GameRecord({"Event": "e" * MAX_HEADER_CHARS}).headers["Event"] == "e" * 1000


def test_a_record_just_under_the_limits_is_read() -> None:
    text = GameRecord.from_dict(record()).to_text()
    padded = text + ";" + "x" * (MAX_RECORD_CHARS - len(text) - 1)
    assert len(padded) == MAX_RECORD_CHARS
    assert [str(t) for t in GameRecord.from_text(padded).turns] == ["d5 EW", "e6 NES"]


def test_the_command_line_refuses_an_oversized_file_early(tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    path.write_text("x" * (MAX_RECORD_CHARS + 10), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    status = main(["replay", str(path)], stdout=out, stderr=err)
    assert status == 1
    assert (
        err.getvalue()
        .strip()
        .endswith(f"the record is longer than {MAX_RECORD_CHARS:,} characters")
    )


# --- messages quote little ----------------------------------------------------------------

LONG = "x" * 5000


@pytest.mark.parametrize(
    "read",
    [
        lambda: Move.parse(LONG),
        lambda: Move.parse(f"f5 {LONG}"),
        lambda: Move.parse(f"f5 NE {LONG}"),
        lambda: Move.parse(f"f5 NE n {LONG}"),
        lambda: Cell.parse(LONG),
        lambda: parse_turn(f"pass {LONG}", Colour.ORANGE),
        lambda: parse_turn(f"forfeit {LONG}", Colour.ORANGE),
        lambda: Variant.from_name(LONG),
        lambda: GameRecord.from_text(f'[Event "{LONG}]\n\n*'),
        lambda: GameRecord.from_text(f"d5 EW {LONG} *"),
        lambda: GameRecord.from_text(f'[Result "{LONG}"]\n\n'),
        lambda: GameRecord.from_text(f'[Variant "{LONG}"]\n\n*'),
        lambda: GameRecord.from_text(f'[Result "1-0"]\n\n{LONG} 1-0'),
        lambda: GameRecord.from_dict(record(format=LONG)),
        lambda: GameRecord.from_dict(record(result=LONG)),
        lambda: GameRecord.from_dict(record(turns=[LONG])),
        lambda: GameRecord.from_dict(record(headers={LONG: "x"})),
        lambda: GameRecord.from_dict(record(**{LONG: 1})),
        lambda: GameRecord.from_dict(record(headers={"Variant": LONG[:900]})),
        lambda: GameRecord.from_json(json.dumps(record(turns=["d5 EW", f"e6 {LONG}"]))),
    ],
)
def test_error_messages_quote_only_a_short_part_of_the_input(read: Callable[[], Any]) -> None:
    with pytest.raises(ValueError) as caught:
        read()
    message = str(caught.value)
    assert "xxxxx" in message  # the input is quoted, so the reader can find it
    assert "x" * (QUOTE_LIMIT + 1) not in message
    assert len(message) < 400, message


def test_a_huge_move_number_is_refused_briefly() -> None:
    with pytest.raises(RecordError) as caught:
        GameRecord.from_text(f"{'1' * 5000}. d5 EW *")
    assert str(caught.value) == (
        f"unexpected move number {quote('1' * 5000 + '.')}: the next turn is move 1 (Orange)"
    )
    assert len(GameRecord.from_text("001. d5 EW *").turns) == 1


def test_quote_marks_what_it_cut() -> None:
    assert quote("f5 NE") == "'f5 NE'"
    assert quote("y" * 100) == repr("y" * QUOTE_LIMIT + "…")


# --- ambiguous notation -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "sides"),
    [("d5 EWn", "EWn"), ("d5 ewN", "ewN"), ("f5 Nn", "Nn"), ("d5 eSWn", "eSWn")],
)
def test_a_neutral_marker_glued_to_the_sides_is_ambiguous(text: str, sides: str) -> None:
    with pytest.raises(NotationError) as caught:
        Move.parse(text)
    message = str(caught.value)
    assert f"{sides!r} is ambiguous" in message
    upper = sides.upper()
    assert f"write {upper!r} for the open sides, or {upper[:-1] + ' n'!r} for a neutral" in (
        message
    )


def test_the_ambiguous_move_is_refused_inside_a_record_too() -> None:
    with pytest.raises(RecordError, match="'EWn' is ambiguous"):
        GameRecord.from_dict(record(turns=["d5 EWn"]))


@pytest.mark.parametrize(
    ("text", "expected"),
    [("d5 EWN", "d5 NEW"), ("d5 ewn", "d5 NEW"), ("d5 EW n", "d5 EW n"), ("d5 NEw", "d5 NEW")],
)
def test_sides_in_one_case_or_a_separate_marker_stay_readable(text: str, expected: str) -> None:
    assert str(Move.parse(text)) == expected
