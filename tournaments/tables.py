"""Reads for the tables arbiters read: the round table (wall chart) of a round robin or Swiss,
and the bracket of a knockout.

Like ``selectors``, these only read: the round table is built from the same records as the
standings and the TRF export (``tournaments.records``), so the three always agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db.models import Prefetch

from tournaments.models import Entry, KnockoutMatch, Round, Tournament, TournamentGame
from tournaments.pairing.knockout import knockout_round_name
from tournaments.records import SectionField, section_fields
from tournaments.selectors import Standings, StandingsRow, game_points, tournament_standings
from tournaments.standings import Colour, Outcome, PointSystem, RoundRecord, outcome_mark

_POINTS = PointSystem()
COLOURS = ("orange", "blue")
"""A pairing's colours as the API writes them: the first player's, then the second's."""
_COLOUR_NAMES = dict(zip((Colour.ORANGE, Colour.BLUE), COLOURS, strict=True))
_GONE = (Entry.Status.WITHDRAWN, Entry.Status.REMOVED)


# --- The round table --------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundCell:
    """One player's round: the opponent's number, their own colour and the mark
    (``tournaments.standings.MARKS``); a game still running has an opponent and no mark."""

    round: int
    mark: str
    points: Fraction
    opponent: int | None = None
    colour: str | None = None  # "orange" or "blue"; None without a game or colours unknown
    game_id: int | None = None

    @property
    def pending(self) -> bool:
        return self.opponent is not None and not self.mark


@dataclass(frozen=True)
class RoundTableRow:
    rank: int
    number: int
    entry_id: int
    name: str
    player: Any
    cells: list[RoundCell]
    points: Fraction
    withdrawn: bool


@dataclass(frozen=True)
class RoundTable:
    """One section: the rounds started so far, and one row per player in standings order."""

    section: int
    rounds: list[int]
    rows: list[RoundTableRow]


def tournament_round_tables(
    *, tournament: Tournament, standings: Standings | None = None
) -> list[RoundTable]:
    """One round table per section of a started round robin or Swiss (none for a knockout,
    whose rounds hold several games): for every player and round, the opponent's number,
    the colour and the result, byes and forfeits marked, in standings order (``standings``
    if already read, else read here)."""
    if tournament.is_knockout:
        return []
    standings = standings or tournament_standings(tournament=tournament)
    numbers = list(
        tournament.rounds.exclude(status=Round.Status.PLANNED)
        .order_by("number")
        .values_list("number", flat=True)
    )
    links = _links_by_entry_and_round(tournament)
    tables = []
    for section in section_fields(tournament):
        order = {row.number: row for row in standings.section(section.section)}
        rows = [
            _round_table_row(section, record.number, order.get(record.number), numbers, links)
            for record in section.records
        ]
        rows.sort(key=lambda row: (row.rank, row.number))
        tables.append(RoundTable(section=section.section, rounds=numbers, rows=rows))
    return tables


_Links = dict[tuple[int, int], TournamentGame]


def _links_by_entry_and_round(tournament: Tournament) -> _Links:
    """Each game by (entry id, round number), for both of its players (one query)."""
    links: _Links = {}
    rows = TournamentGame.objects.filter(tournament=tournament).select_related("round")
    for link in rows.only("game_id", "orange_id", "blue_id", "result", "round__number"):
        links[(link.orange_id, link.round.number)] = link
        links[(link.blue_id, link.round.number)] = link
    return links


def _round_table_row(
    section: SectionField,
    number: int,
    standing: StandingsRow | None,
    rounds: list[int],
    links: _Links,
) -> RoundTableRow:
    entry = section.entry(number)
    record = section.records[number - 1]
    by_round = {r.round: r for r in record.rounds}
    cells = [
        _round_cell(section, entry, n, by_round.get(n), links.get((entry.pk, n))) for n in rounds
    ]
    return RoundTableRow(
        rank=standing.rank if standing else len(section.entries),
        number=number,
        entry_id=entry.pk,
        name=record.name,
        player=entry.player,
        cells=cells,
        points=sum((cell.points for cell in cells), Fraction(0)),
        withdrawn=entry.status in _GONE,
    )


def _round_cell(
    section: SectionField,
    entry: Entry,
    number: int,
    record: RoundRecord | None,
    link: TournamentGame | None,
) -> RoundCell:
    game_id = link.game_id if link is not None else None
    if record is not None:
        return RoundCell(
            round=number,
            mark=outcome_mark(record.outcome),
            points=_POINTS.points(record.outcome),
            opponent=record.opponent,
            colour=_COLOUR_NAMES.get(record.colour) if record.colour else None,
            game_id=game_id if record.outcome.has_opponent else None,
        )
    if link is not None and link.result == TournamentGame.Result.PENDING:
        orange = link.orange_id == entry.pk
        opponent = link.blue_id if orange else link.orange_id
        return RoundCell(
            round=number,
            mark="",
            points=Fraction(0),
            opponent=section.number_of(opponent),
            colour="orange" if orange else "blue",
            game_id=game_id,
        )
    return RoundCell(round=number, mark=outcome_mark(Outcome.NOT_PLAYED), points=Fraction(0))


# --- The bracket ------------------------------------------------------------------------------


@dataclass(frozen=True)
class BracketSide:
    """A place in a match: a player (with their score in the match and whether they went
    through), or, before the player is known, the match whose winner comes here."""

    entry_id: int | None = None
    name: str = ""
    seed: int | None = None
    player: Any = None
    score: Fraction = Fraction(0)
    winner: bool = False
    from_match: int | None = None  # the previous round's match whose winner plays here


@dataclass(frozen=True)
class BracketGame:
    pair: int
    result: str  # Orange-Blue, "" while it runs
    orange: str  # the Orange player's name
    game_id: int | None


@dataclass(frozen=True)
class BracketMatchView:
    """A match in bracket order: ``top`` comes from the upper match of the previous round."""

    number: int
    top: BracketSide
    bottom: BracketSide | None  # None: a bye
    decided_by: str  # KnockoutMatch.DecidedBy; "" while undecided
    games: list[BracketGame]

    @property
    def is_bye(self) -> bool:
        return self.bottom is None

    @property
    def decided_how(self) -> str:
        """How a match was decided other than on its games: higher seed, organiser, ..."""
        if self.decided_by in ("", KnockoutMatch.DecidedBy.GAMES, KnockoutMatch.DecidedBy.BYE):
            return ""
        return str(KnockoutMatch.DecidedBy(self.decided_by).label)


@dataclass(frozen=True)
class BracketRound:
    number: int
    name: str
    matches: list[BracketMatchView]


def tournament_bracket(*, tournament: Tournament) -> list[BracketRound]:
    """The bracket of a started knockout, round by round (empty for other formats): every
    match with both players, their scores, the winner and the games; rounds not paired yet
    show where the winners of the round before will meet."""
    if not tournament.is_knockout or not tournament.rounds_planned:
        return []
    by_round: dict[int, list[KnockoutMatch]] = {}
    games = TournamentGame.objects.select_related("orange").order_by("pair", "board")
    matches = (
        KnockoutMatch.objects.filter(round__tournament=tournament)
        .select_related("round", "higher__player", "lower__player")
        .prefetch_related(Prefetch("games", queryset=games))
        .order_by("round__number", "number")
    )
    for match in matches:
        by_round.setdefault(match.round.number, []).append(match)
    if not by_round:
        return []
    rounds: list[BracketRound] = []
    previous: list[BracketMatchView] = []
    for number in range(1, tournament.rounds_planned + 1):
        played = by_round.get(number)
        current = (
            [_bracket_match(m, previous) for m in played] if played else _bracket_to_come(previous)
        )
        rounds.append(
            BracketRound(number, knockout_round_name(number, tournament.rounds_planned), current)
        )
        previous = current
    return rounds


def _bracket_match(match: KnockoutMatch, previous: list[BracketMatchView]) -> BracketMatchView:
    scores = {match.higher_id: Fraction(0), match.lower_id: Fraction(0)}
    for link in match.games.all():
        orange, blue = game_points(result=link.result)
        scores[link.orange_id] = scores.get(link.orange_id, Fraction(0)) + orange
        scores[link.blue_id] = scores.get(link.blue_id, Fraction(0)) + blue
    sides = [_side(entry, match, scores) for entry in (match.higher, match.lower) if entry]
    came_from = {m.number: side.entry_id for m in previous for side in _winners(m)}
    upper = came_from.get(2 * match.number - 1)
    sides.sort(key=lambda side: side.entry_id != upper)  # the upper match's winner on top
    return BracketMatchView(
        number=match.number,
        top=sides[0],
        bottom=sides[1] if len(sides) > 1 else None,
        decided_by=match.decided_by,
        games=[
            BracketGame(link.pair, link.result, link.orange.name, link.game_id)
            for link in match.games.all()
        ],
    )


def _winners(match: BracketMatchView) -> list[BracketSide]:
    return [side for side in (match.top, match.bottom) if side is not None and side.winner]


def _side(entry: Entry, match: KnockoutMatch, scores: dict[int | None, Fraction]) -> BracketSide:
    return BracketSide(
        entry_id=entry.pk,
        name=entry.name,
        seed=entry.seed,
        player=entry.player,
        score=scores.get(entry.pk, Fraction(0)),
        winner=match.winner_id == entry.pk,
    )


def _bracket_to_come(previous: list[BracketMatchView]) -> list[BracketMatchView]:
    """A round not paired yet: the winners of matches 1 and 2 meet, then 3 and 4, ...;
    a winner already known is named."""

    def coming(match: BracketMatchView) -> BracketSide:
        known = _winners(match)
        if known:
            return BracketSide(
                entry_id=known[0].entry_id,
                name=known[0].name,
                seed=known[0].seed,
                player=known[0].player,
                from_match=match.number,
            )
        return BracketSide(from_match=match.number)

    return [
        BracketMatchView(index + 1, coming(upper), coming(lower), decided_by="", games=[])
        for index, (upper, lower) in enumerate(zip(previous[::2], previous[1::2], strict=True))
    ]
