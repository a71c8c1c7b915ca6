"""Test-only game kinds for the competitions' choice of kind: Celtic! under other names, one
for two seats ("duel": Red and Green) and one for three or four ("crowd")."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games.kinds import register, unregister
from games.kinds.base import SeatRange
from games.kinds.celtic.kind import CelticKind


class DuelKind(CelticKind):
    id = "duel"
    name = "Duel"

    def seat_names(self, count: int) -> list[str]:
        self.check_seat_count(count)
        return ["Red", "Green"]


class CrowdKind(CelticKind):
    id = "crowd"
    name = "Crowd"
    seats = SeatRange(3, 4)


@pytest.fixture
def extra_kinds() -> Iterator[None]:
    """The duel and crowd kinds hosted for one test."""
    register(DuelKind())
    register(CrowdKind())
    yield
    unregister("duel")
    unregister("crowd")
