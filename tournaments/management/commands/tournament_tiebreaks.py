"""``manage.py tournament_tiebreaks FILE.trf [--json] [--edition 2026|2024]``: the points and
every C.07 tie-break of each player of a TRF file, from the file alone.

JSON shape (``--json``)::

    {"edition": "2026", "rounds": 5, "round_robin": false,
     "players": [{"number": 1, "name": "Mirzoev,Azer", "points": 4.5, "bh": 12.5,
                  "bh_c1": 10.5, "bh_m1": 8.0, "sb": 10.75, "de": 1, "win": 4,
                  "won": 3, "bpg": 2, "ks": 2.0, "ps": 12.5, "aro": 2098}, ...]}

Players come in starting-number order. Scores are JSON numbers: whole values as integers,
others as decimals (halves and quarters, all a 1-½-0 event produces, are exact). ``de`` is the
direct-encounter rank among the players level on points (1 = best); ``aro`` is ``null`` for a
player who met no rated opponent over the board. The rounds counted are those with a result;
the event is a round robin when record 192 or 092 says so.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournaments.standings import EDITIONS, TIEBREAKS, TiebreakValue, all_tiebreak_values
from tournaments.standings.tiebreaks import rounds_played
from tournaments.trf import TrfError, TrfTournament, parse_trf

COLUMNS = ("points", *TIEBREAKS)


class Command(BaseCommand):
    help = "Print the points and every C.07 tie-break of each player of a TRF file."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", help="a TRF-2026 (or TRF-16) file")
        parser.add_argument(
            "--json", action="store_true", dest="as_json", help="print JSON, not a table"
        )
        parser.add_argument(
            "--edition", choices=EDITIONS, default="2026", help="the C.07 edition (2026)"
        )

    def handle(self, *args: Any, file: str, as_json: bool, edition: str, **options: Any) -> None:
        tournament = _read(Path(file))
        try:
            values = all_tiebreak_values(
                tournament.players, edition=edition, round_robin=tournament.round_robin
            )
        except ValueError as error:
            raise CommandError(f"{file}: {error}") from error
        rows = [
            {
                "number": p.number,
                "name": p.name,
                **{c: _number(values[p.number][c]) for c in COLUMNS},
            }
            for p in sorted(tournament.players, key=lambda p: p.number)
        ]
        if as_json:
            report = {
                "edition": edition,
                "rounds": rounds_played(tournament.players),
                "round_robin": tournament.round_robin,
                "players": rows,
            }
            self.stdout.write(_dumps(report))
        else:
            self.stdout.write(_table(rows))


def _read(path: Path) -> TrfTournament:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror}") from error
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")  # older TRF files are often Latin-1
    try:
        return parse_trf(text)
    except TrfError as error:
        raise CommandError(f"{path}: {error}") from error


def _number(value: TiebreakValue) -> int | float | None:
    if value is None or isinstance(value, int):
        return value
    fraction = Fraction(value)
    if fraction.denominator == 1:
        return int(fraction)
    return float(fraction)


def _dumps(report: dict[str, Any]) -> str:
    return json.dumps(report, indent=2, ensure_ascii=False)


def _table(rows: list[dict[str, Any]]) -> str:
    header = ["no", "name", *COLUMNS]
    lines = [header] + [
        [str(r["number"]), r["name"], *("-" if r[c] is None else str(r[c]) for c in COLUMNS)]
        for r in rows
    ]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)) for line in lines
    )
