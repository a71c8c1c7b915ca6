"""Parse and validate a CSV of past results: rows `date,player1,player2,result`.

Pure: no Django. Either every row is valid and a list of results comes back, or
`ResultFileError` lists every bad row with its line number and what was expected.
"""

from __future__ import annotations

import csv
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

#: The longest player name the ranking stores (Player.name's max_length).
NAME_MAX_LENGTH = 100

HEADER = ("date", "player1", "player2", "result")
SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
#: The finishing places of player 1 and player 2 for player 1's score (a draw shares first).
PAIR_PLACES = {1.0: (1, 2), 0.0: (2, 1), 0.5: (1, 1)}
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True, slots=True)
class ImportedResult:
    """One valid row: player1's score is `score1` (1, 0.5 or 0)."""

    line: int
    played_on: date
    player1: str
    player2: str
    result: str

    @property
    def score1(self) -> float:
        return SCORES[self.result]


@dataclass(frozen=True, slots=True)
class RowError:
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


class ResultFileError(ValueError):
    """The file has at least one bad row; `errors` lists all of them."""

    def __init__(self, errors: list[RowError]) -> None:
        self.errors = errors
        super().__init__("\n".join(str(error) for error in errors))


def _parse_date(text: str) -> date | None:
    if not _ISO_DATE.match(text):
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def _check_name(text: str, column: str) -> str | None:
    if not text:
        return f"{column} is blank"
    if len(text) > NAME_MAX_LENGTH:
        return f"{column} is longer than {NAME_MAX_LENGTH} characters"
    control = next((char for char in text if unicodedata.category(char) == "Cc"), None)
    if control is not None:
        return f"{column} contains the control character U+{ord(control):04X}: expected text"
    return None


def _parse_row(line: int, row: list[str]) -> ImportedResult | list[RowError]:
    if len(row) != len(HEADER):
        return [
            RowError(
                line,
                f"expected 4 fields {','.join(HEADER)}, found {len(row)}",
            )
        ]
    date_text, player1, player2, result = (cell.strip() for cell in row)
    errors: list[RowError] = []
    played_on = _parse_date(date_text)
    if played_on is None:
        errors.append(RowError(line, f"date {date_text!r} is not a date in the form YYYY-MM-DD"))
    for name, column in ((player1, "player1"), (player2, "player2")):
        problem = _check_name(name, column)
        if problem:
            errors.append(RowError(line, problem))
    if player1 and player1 == player2:
        errors.append(RowError(line, f"player {player1!r} cannot play themselves"))
    if result not in SCORES:
        errors.append(RowError(line, f"result {result!r} is not one of {', '.join(SCORES)}"))
    if errors:
        return errors
    assert played_on is not None
    return ImportedResult(
        line=line, played_on=played_on, player1=player1, player2=player2, result=result
    )


def parse_results(lines: Iterable[str]) -> list[ImportedResult]:
    """The results of a CSV file given as lines of text, in file order.

    A first row `date,player1,player2,result` is a header and skipped; blank lines are
    skipped. Raises ResultFileError listing every bad row, or that the file has no rows.
    """
    results: list[ImportedResult] = []
    errors: list[RowError] = []
    reader = csv.reader(lines)
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            errors.append(RowError(reader.line_num, f"not valid CSV ({error})"))
            break
        line = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if line == 1 and _is_header(row):
            continue
        parsed = _parse_row(line, row)
        if isinstance(parsed, ImportedResult):
            results.append(parsed)
        else:
            errors.extend(parsed)
    if not results and not errors:
        errors.append(RowError(max(reader.line_num, 1), "the file has no result rows"))
    if errors:
        raise ResultFileError(errors)
    return results


def _is_header(row: list[str]) -> bool:
    return tuple(cell.strip().lower() for cell in row) == HEADER


def chronological(results: Iterable[ImportedResult]) -> list[ImportedResult]:
    """Results by date, rows of the same date in file order: the order they are rated in."""
    return sorted(results, key=lambda result: (result.played_on, result.line))


def read_results_file(path: str) -> list[ImportedResult]:
    """The results of the CSV file at `path` (UTF-8, optionally with a byte-order mark).

    Raises ResultFileError for bad rows, OSError if the file cannot be read and
    UnicodeDecodeError if it is not UTF-8.
    """
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return parse_results(handle)
