"""The kind-specific part of the game page and the analysis board, chosen by kind.

``kind_pages(kind_id)`` gives a kind's templates and context builders (``base.KindPages``):
Celtic!'s rich board (playable demand cells, tile pickers, supply, knots), Celtic Knot's
(buttons over the squares to choose, the flips, the fair-flips panel), or the generic
board any kind gets (its SVG and its legal choices as buttons). ``register`` adds a kind's
own pages (the tests' kinds do that).
"""

from __future__ import annotations

from games.boards import celtic, knot
from games.boards.base import GENERIC, AnalysisRequest, BoardRequest, KindPages

__all__ = ["AnalysisRequest", "BoardRequest", "KindPages", "kind_pages", "register", "unregister"]

BUILT_IN: dict[str, KindPages] = {"celtic": celtic.PAGES, "knot": knot.PAGES}
"""The kinds that come with pages of their own."""

_pages: dict[str, KindPages] = dict(BUILT_IN)


def register(kind_id: str, pages: KindPages) -> None:
    """Draw games of ``kind_id`` with ``pages`` from now on."""
    _pages[kind_id] = pages


def unregister(kind_id: str) -> None:
    """Draw games of ``kind_id`` with its built-in pages again, or the generic ones (tests)."""
    _pages.pop(kind_id, None)
    if kind_id in BUILT_IN:
        _pages[kind_id] = BUILT_IN[kind_id]


def kind_pages(kind_id: str) -> KindPages:
    """The pages of ``kind_id``: its own, or the generic ones."""
    return _pages.get(kind_id, GENERIC)
