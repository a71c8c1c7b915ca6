"""Read and write the FIDE Tournament Report File, edition TRF-2026 (approved by the FIDE
Council on 12 May 2025, in use from 1 September 2025), for individual events.

What is read into fields: the tournament records (three digits ending in ``2``: ``012`` name,
``022`` city, ... ``132`` round dates, ``142`` number of rounds, ``152`` initial colour,
``162`` scoring, ``202`` tie-breaks, ...), kept as (code, text) pairs in file order, and the
player records ``001`` with their round results. Every other line (comments ``###``, byes
``240``, acceleration ``250``, forbidden pairs ``260``, ``299``, team records, national rating
lines, the JaVaFo/TRFx extensions ``XXR``, ``XXC``, ``DAT``...) is kept verbatim in
``extra_lines`` so that an export after an import carries it along.

``format_trf`` writes the tournament records, then the players, then the other lines, one
record per line ending in a newline; ``parse_trf`` of that text gives back an equal
:class:`TrfTournament`, and formatting it again gives the same text.

Round columns (10 characters from column 92): opponent (``0000`` or blanks for none), colour
(``w``, ``b``, ``-``), result (``1 = 0 + - W D L H F U Z``). A blank result is kept as
``Outcome.NOT_PLAYED`` (written ``0000 -``); standings treat it as the zero-point bye the
specification says it is equivalent to. TRF has no withdrawal field: ``withdrawn_after`` is
not written and reads back as ``None``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from tournaments.standings.records import (
    Colour,
    Outcome,
    PlayerRecord,
    PointSystem,
    RoundRecord,
)

#: Player-line fields kept in ``PlayerRecord.extra``, with their columns (1-based, inclusive).
PLAYER_FIELDS: dict[str, tuple[int, int]] = {
    "sex": (10, 10),
    "title": (11, 13),
    "federation": (54, 56),
    "fide_id": (58, 68),
    "birth_date": (70, 79),
    "points": (81, 84),
    "rank": (86, 89),
}
_NAME = (15, 47)
_RATING = (49, 52)
_FIRST_ROUND_COLUMN = 92
_ROUND_WIDTH = 10
_RESULTS_WITH_GAME = frozenset("1=0WDL")
_RESULTS_WITHOUT_OPPONENT = frozenset("HFUZ")
_QUOTE_LIMIT = 24
_RIGHT_ALIGNED = frozenset({"title", "fide_id", "points", "rank"})
#: Numbers are ASCII digits only (``str.isdigit`` also takes other scripts' digits).
_DIGITS = re.compile(r"[0-9]+")
#: The most rounds a file may declare (``142`` or ``XXR``): three digits, and far above any
#: event the site runs (docs/TOURNAMENTS.md, "Limits").
ROUNDS_MAX = 999
#: Starting ranks, opponents, ratings and final ranks: the four columns of their fields.
NUMBER_MAX = 9999


class TrfError(ValueError):
    """A TRF line that does not read: its number (1-based), what was expected, and a short
    quote of what was found."""

    def __init__(self, line_number: int, expected: str, found: str | None = None) -> None:
        self.line_number = line_number
        self.expected = expected
        self.found = found
        message = f"TRF line {line_number}: expected {expected}"
        if found is not None:
            message += f", found {_quote(found)}"
        super().__init__(message)


@dataclass(frozen=True)
class TrfTournament:
    """One tournament as a TRF file holds it."""

    header: tuple[tuple[str, str], ...] = ()  # tournament records: (code, text), file order
    players: tuple[PlayerRecord, ...] = ()
    extra_lines: tuple[str, ...] = ()  # every other line, verbatim, file order

    def header_value(self, code: str) -> str | None:
        """The text of the first tournament record with this code, if any."""
        return next((text for key, text in self.header if key == code), None)

    @property
    def name(self) -> str:
        return self.header_value("012") or ""

    @property
    def rounds(self) -> int:
        """Record ``142`` (or the ``XXR`` extension line), else the last round with a result."""
        declared = self.header_value("142")
        if declared is None:
            declared = next(
                (line[4:].strip() for line in self.extra_lines if line.startswith("XXR ")), None
            )
        if declared is not None and _DIGITS.fullmatch(declared):
            return int(declared)
        return max(
            (
                r.round
                for p in self.players
                for r in p.rounds
                if r.outcome is not Outcome.NOT_PLAYED
            ),
            default=0,
        )

    @property
    def round_robin(self) -> bool:
        """Record ``192`` or ``092`` names a round robin (``RR``, "robin", "Berger")."""
        for code in ("192", "092"):
            kind = (self.header_value(code) or "").upper()
            if "ROBIN" in kind or "BERGER" in kind or kind.split()[:1] == ["RR"]:
                return True
        return False


def parse_trf(text: str) -> TrfTournament:
    """Read a TRF file's text; a line that does not read raises :class:`TrfError`."""
    header: list[tuple[str, str]] = []
    players: list[PlayerRecord] = []
    lines_of: dict[int, int] = {}
    extra: list[str] = []
    for line_number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = raw.rstrip()
        if not line:
            continue
        code = line[:3]
        if len(line) > 3 and line[3] != " " and not code.startswith("#"):
            raise TrfError(line_number, "a three-character record code and a space", line)
        if code == "001":
            player = _parse_player(line, line_number)
            if player.number in lines_of:
                raise TrfError(
                    line_number,
                    f"a starting rank not used before (line {lines_of[player.number]})",
                    line[4:8],
                )
            lines_of[player.number] = line_number
            players.append(player)
        elif len(code) == 3 and _DIGITS.fullmatch(code) and code.endswith("2"):
            _check_header(code, line[4:], line_number)
            header.append((code, line[4:]))
        else:
            if code == "XXR":
                _check_rounds(line[4:], line_number, field="the number of rounds (XXR)")
            extra.append(line)
    _check_opponents(players, lines_of)
    return TrfTournament(tuple(header), tuple(players), tuple(extra))


def format_trf(tournament: TrfTournament) -> str:
    """The TRF text of a tournament (``ValueError`` if a field does not fit its columns)."""
    lines = [f"{code} {text}".rstrip() for code, text in tournament.header]
    lines += [_format_player(p) for p in tournament.players]
    lines += [line.rstrip() for line in tournament.extra_lines]
    for line in lines:
        if "\n" in line or "\r" in line:
            raise ValueError(f"a TRF line cannot hold a line break: {_quote(line)}")
    return "".join(line + "\n" for line in lines)


def _quote(text: str) -> str:
    short = text if len(text) <= _QUOTE_LIMIT else text[:_QUOTE_LIMIT] + "…"
    return repr(short)


def _columns(line: str, first: int, last: int) -> str:
    return line[first - 1 : last]


def _number(text: str, *, low: int, high: int) -> int | None:
    """The whole number ``text`` holds (ASCII digits) if it is from ``low`` to ``high``."""
    value = text.strip()
    if not _DIGITS.fullmatch(value) or not low <= int(value) <= high:
        return None
    return int(value)


def _check_rounds(text: str, line_number: int, *, field: str) -> None:
    if _number(text, low=0, high=ROUNDS_MAX) is None:
        raise TrfError(line_number, f"{field} as a whole number 0-{ROUNDS_MAX}", text)


def _check_header(code: str, text: str, line_number: int) -> None:
    value = text.strip()
    if code == "142":
        _check_rounds(text, line_number, field="the number of rounds (142)")
    if code == "152" and value.upper() not in ("W", "B"):
        raise TrfError(line_number, "the initial colour (152) W or B", text)


def _parse_player(line: str, line_number: int) -> PlayerRecord:
    number = _number(_columns(line, 5, 8), low=1, high=NUMBER_MAX)
    if number is None:
        raise TrfError(line_number, "a starting rank 1-9999 in columns 5-8", _columns(line, 5, 8))
    rating_text = _columns(line, *_RATING).strip()
    if rating_text and _number(rating_text, low=0, high=NUMBER_MAX) is None:
        raise TrfError(line_number, "a rating (digits) in columns 49-52", rating_text)
    extra = {}
    for key, (first, last) in PLAYER_FIELDS.items():
        value = _columns(line, first, last).strip()
        if value:
            extra[key] = value
    if "points" in extra:
        _check_points(extra["points"], line_number)
    if "rank" in extra and _number(extra["rank"], low=0, high=NUMBER_MAX) is None:
        raise TrfError(line_number, "a rank (digits) in columns 86-89", extra["rank"])
    gap = _columns(line, 90, _FIRST_ROUND_COLUMN - 1)
    if gap.strip():
        raise TrfError(line_number, "blanks in columns 90-91 before the rounds", gap)
    rounds = []
    start = _FIRST_ROUND_COLUMN
    round_number = 1
    while start <= len(line):
        if round_number > ROUNDS_MAX:
            raise TrfError(line_number, f"at most {ROUNDS_MAX} rounds", line[start - 1 :])
        block = line[start - 1 : start - 1 + _ROUND_WIDTH]
        rounds.append(_parse_round(block, round_number, start, line_number))
        start += _ROUND_WIDTH
        round_number += 1
    return PlayerRecord(
        number=number,
        name=_columns(line, *_NAME).strip(),
        rating=int(rating_text) if rating_text else None,
        rounds=tuple(rounds),
        extra=extra,
    )


def _check_points(text: str, line_number: int) -> None:
    try:
        Fraction(text)
    except ValueError:
        raise TrfError(line_number, "points like 11.5 in columns 81-84", text) from None


def _parse_round(block: str, round_number: int, column: int, line_number: int) -> RoundRecord:
    block = block.ljust(_ROUND_WIDTH)
    where = f"round {round_number} (columns {column}-{column + 7})"
    opponent_text, colour_text, result_text = block[0:4], block[5], block[7].upper()
    if block[4] != " " or block[6] != " " or block[8:].strip():
        raise TrfError(line_number, f"'NNNN c r' with single blanks between for {where}", block)
    if opponent_text.strip() in ("", "0000"):
        opponent = None
    elif (found := _number(opponent_text, low=1, high=NUMBER_MAX)) is not None:
        opponent = found
    else:
        raise TrfError(line_number, f"an opponent's starting rank or 0000 for {where}", block)
    if colour_text.lower() not in ("w", "b", "-", " "):
        raise TrfError(line_number, f"colour w, b or - for {where}", block)
    if result_text != " " and result_text not in "1=0+-WDLHFUZ":
        raise TrfError(line_number, f"a result code (1 = 0 + - W D L H F U Z) for {where}", block)
    colour = {"w": Colour.ORANGE, "b": Colour.BLUE}.get(colour_text.lower())
    if result_text in _RESULTS_WITH_GAME and (opponent is None or colour is None):
        raise TrfError(line_number, f"an opponent and a colour for the game of {where}", block)
    if result_text in _RESULTS_WITHOUT_OPPONENT and opponent is not None:
        raise TrfError(line_number, f"opponent 0000 for the bye of {where}", block)
    if result_text == " " and opponent is not None:
        raise TrfError(line_number, f"a result for the pairing of {where}", block)
    outcome = Outcome.NOT_PLAYED if result_text == " " else Outcome(result_text)
    return RoundRecord(round=round_number, outcome=outcome, opponent=opponent, colour=colour)


def _check_opponents(players: list[PlayerRecord], lines_of: dict[int, int]) -> None:
    """Every opponent exists and names the player back in the same round."""
    by_number = {p.number: p for p in players}
    for player in players:
        for record in player.rounds:
            if record.opponent is None:
                continue
            line_number = lines_of[player.number]
            other = by_number.get(record.opponent)
            if other is None:
                raise TrfError(
                    line_number,
                    f"round {record.round}: an opponent with a player line",
                    str(record.opponent),
                )
            back = next((r for r in other.rounds if r.round == record.round), None)
            if back is None or back.opponent != player.number:
                raise TrfError(
                    line_number,
                    f"round {record.round}: player {record.opponent} to name "
                    f"{player.number} as opponent in that round too",
                    str(record.opponent),
                )


def _format_player(player: PlayerRecord) -> str:
    if not 1 <= player.number <= 9999:
        raise ValueError(f"starting rank {player.number} does not fit TRF's 1-9999")
    if len(player.name) > _NAME[1] - _NAME[0] + 1:
        raise ValueError(f"player {player.number}: name longer than 33 characters")
    if player.rating is not None and not 0 <= player.rating <= 9999:
        raise ValueError(f"player {player.number}: rating {player.rating} does not fit")
    fields = dict(player.extra)
    fields.setdefault("points", _points_text(player))
    line = list(" " * (_FIRST_ROUND_COLUMN - 1))

    def put(first: int, last: int, text: str, right: bool = False) -> None:
        width = last - first + 1
        if len(text) > width:
            raise ValueError(
                f"player {player.number}: {text!r} does not fit columns {first}-{last}"
            )
        line[first - 1 : last] = text.rjust(width) if right else text.ljust(width)

    put(1, 3, "001")
    put(5, 8, str(player.number), right=True)
    put(*_NAME, player.name)
    put(*_RATING, "" if player.rating is None else str(player.rating), right=True)
    for key, (first, last) in PLAYER_FIELDS.items():
        put(first, last, fields.get(key, ""), right=key in _RIGHT_ALIGNED)
    text = "".join(line)
    by_round = {r.round: r for r in player.rounds}
    last_round = max(by_round, default=0)
    blocks = [
        _format_round(by_round.get(n, RoundRecord(n, Outcome.NOT_PLAYED)))
        for n in range(1, last_round + 1)
    ]
    return (text + "".join(blocks)).rstrip()


def _points_text(player: PlayerRecord) -> str:
    total = sum((PointSystem().points(r.outcome) for r in player.rounds), Fraction(0))
    return f"{float(total):.1f}"


def _format_round(record: RoundRecord) -> str:
    opponent = "0000" if record.opponent is None else f"{record.opponent:4d}"
    colour = {Colour.ORANGE: "w", Colour.BLUE: "b", None: "-"}[record.colour]
    result = record.outcome.value or " "
    return f"{opponent} {colour} {result}  "
