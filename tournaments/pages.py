"""Pieces of an event's long lists for its page: one page of standings, a window of each
round's boards, whether the crosstable is worth showing.

An event may have thousands of players (a TRF import holds up to 9,999): the page shows
:data:`STANDINGS_PER_PAGE` standings rows at a time (``?page=``), :data:`BOARDS_PER_PAGE`
boards of one round at a time (``?round=&boards=``), a crosstable only for sections of up to
:data:`CROSSTABLE_MAX_PLAYERS` and a round table for sections of up to
:data:`ROUND_TABLE_MAX_PLAYERS` (docs/TOURNAMENTS.md, "Large events").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Count, Prefetch

from tournaments.models import Bye, KnockoutMatch, Round, Tournament, TournamentGame

STANDINGS_PER_PAGE = 100
BOARDS_PER_PAGE = 100
CROSSTABLE_MAX_PLAYERS = 40
ROUND_TABLE_MAX_PLAYERS = 100


@dataclass(frozen=True)
class StandingsPage:
    """One page of standings lines (all sections, in order) and where the viewer's row is."""

    page: Page
    sections: list[int]  # the sections with a row on this page
    mine: int | None  # the page holding the viewer's own row, if they have one

    @property
    def lines(self) -> Sequence[Any]:
        return self.page.object_list


def standings_page(lines: list[Any], *, number: str | None, entry_id: int | None) -> StandingsPage:
    """Page ``number`` (text from the query; anything not a page number gives the first or
    the last) of ``lines``, with the page of ``entry_id``'s row."""
    paginator = Paginator(lines, STANDINGS_PER_PAGE)
    page = paginator.get_page(number)
    mine = next(
        (i // STANDINGS_PER_PAGE + 1 for i, line in enumerate(lines) if line.entry_id == entry_id),
        None,
    )
    sections = sorted({line.section for line in page.object_list})
    return StandingsPage(page=page, sections=sections, mine=mine)


def crosstable_fits(lines: list[Any]) -> bool:
    """Whether every section is small enough for a crosstable (one column per player)."""
    return _largest(lines) <= CROSSTABLE_MAX_PLAYERS


def round_table_fits(lines: list[Any]) -> bool:
    """Whether every section is small enough for a round table (one row per player)."""
    return _largest(lines) <= ROUND_TABLE_MAX_PLAYERS


def _largest(lines: list[Any]) -> int:
    sizes: dict[int, int] = {}
    for line in lines:
        sizes[line.section] = sizes.get(line.section, 0) + 1
    return max(sizes.values(), default=0)


def largest_section(*, tournament: Tournament) -> int:
    """The number of players of the event's largest section (0 before the start)."""
    sizes = (
        tournament.entries.filter(seed__isnull=False)
        .values("section")
        .annotate(size=Count("pk"))
        .values_list("size", flat=True)
    )
    return max(sizes, default=0)


def rounds_with_boards(
    *, tournament: Tournament, round_number: str | None, boards: str | None
) -> list[Round]:
    """The rounds with their byes and matches; the games of one of them only, a page of
    :data:`BOARDS_PER_PAGE` boards at a time.

    The round listed is ``round_number`` if the event has it, else the first round being
    played, else the last one started. On every round: ``listed``, ``board_total``; on the
    listed one also ``boards_shown`` (page ``boards``, or the nearest page that exists),
    ``board_first``/``board_last`` (the positions shown) and ``board_page``/``board_pages``.
    """
    rounds = list(
        tournament.rounds.annotate(board_total=Count("games"))
        .prefetch_related(
            Prefetch("byes", queryset=Bye.objects.select_related("entry")),
            Prefetch(
                "matches",
                queryset=KnockoutMatch.objects.select_related("higher", "lower", "winner"),
            ),
        )
        .order_by("number")
    )
    listed = _listed_round(rounds, round_number)
    for rnd in rounds:
        rnd.listed = rnd is listed  # type: ignore[attr-defined]
        rnd.boards_shown = []  # type: ignore[attr-defined]
    if listed is not None:
        _board_page(listed, boards)
    return rounds


def _listed_round(rounds: list[Round], wanted: str | None) -> Round | None:
    chosen = next((rnd for rnd in rounds if wanted == str(rnd.number)), None)
    running = next((rnd for rnd in rounds if rnd.status == Round.Status.RUNNING), None)
    started = [rnd for rnd in rounds if rnd.status != Round.Status.PLANNED]
    return chosen or running or (started[-1] if started else None)


def _board_page(rnd: Round, boards: str | None) -> None:
    """Page ``boards`` (text from the query) of the round's games, in board order."""
    pages = max(1, -(-rnd.board_total // BOARDS_PER_PAGE))  # type: ignore[attr-defined]
    page = min(int(boards), pages) if boards and boards.isdigit() and int(boards) > 1 else 1
    start = (page - 1) * BOARDS_PER_PAGE
    games = (
        TournamentGame.objects.filter(round=rnd)
        .select_related("game", "orange__player", "blue__player")
        .order_by("section", "board", "pk")
    )
    rnd.boards_shown = list(games[start : start + BOARDS_PER_PAGE])  # type: ignore[attr-defined]
    rnd.board_page, rnd.board_pages = page, pages  # type: ignore[attr-defined]
    rnd.board_first = start + 1  # type: ignore[attr-defined]
    rnd.board_last = start + len(rnd.boards_shown)  # type: ignore[attr-defined]
