"""Pieces of an event's long lists for its page: one page of standings, a window of each
round's boards, whether the crosstable is worth showing.

An event may have thousands of players (a TRF import holds up to 9,999): the page shows
:data:`STANDINGS_PER_PAGE` standings rows at a time (``?page=``), :data:`BOARDS_PER_PAGE`
boards of a round at a time (``?round=&boards=``), and a crosstable only for sections of up
to :data:`CROSSTABLE_MAX_PLAYERS` (docs/TOURNAMENTS.md, "Large events").
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
    sizes: dict[int, int] = {}
    for line in lines:
        sizes[line.section] = sizes.get(line.section, 0) + 1
    return max(sizes.values(), default=0) <= CROSSTABLE_MAX_PLAYERS


def rounds_with_boards(
    *, tournament: Tournament, round_number: str | None, boards: str | None
) -> list[Round]:
    """The rounds with their byes and matches, and on each: ``boards_shown`` (at most
    :data:`BOARDS_PER_PAGE` games in board order), ``board_total``, ``board_first`` and
    ``board_last`` (the positions shown), ``board_page`` and ``board_pages``. Each round
    shows its first page of boards, round ``round_number`` its page ``boards`` (a page past
    the end gives the last)."""
    games = TournamentGame.objects.select_related("game", "orange__player", "blue__player")
    ordered = games.order_by("section", "board", "pk")
    rounds = list(
        tournament.rounds.annotate(board_total=Count("games"))
        .prefetch_related(
            Prefetch("games", queryset=ordered[:BOARDS_PER_PAGE], to_attr="boards_shown"),
            Prefetch("byes", queryset=Bye.objects.select_related("entry")),
            Prefetch(
                "matches",
                queryset=KnockoutMatch.objects.select_related("higher", "lower", "winner"),
            ),
        )
        .order_by("number")
    )
    for rnd in rounds:
        pages = max(1, -(-rnd.board_total // BOARDS_PER_PAGE))
        rnd.board_pages = pages  # type: ignore[attr-defined]
        rnd.board_page = 1  # type: ignore[attr-defined]
        if round_number == str(rnd.number) and boards and boards.isdigit() and int(boards) > 1:
            page = min(int(boards), pages)
            start = (page - 1) * BOARDS_PER_PAGE
            rnd.board_page = page  # type: ignore[attr-defined]
            rnd.boards_shown = list(  # type: ignore[attr-defined]
                ordered.filter(round=rnd)[start : start + BOARDS_PER_PAGE]
            )
        first = (rnd.board_page - 1) * BOARDS_PER_PAGE  # type: ignore[attr-defined]
        rnd.board_first = first + 1  # type: ignore[attr-defined]
        rnd.board_last = first + len(rnd.boards_shown)  # type: ignore[attr-defined]
    return rounds
