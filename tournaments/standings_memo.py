"""Standings and possible places remembered per process for the results they were computed
from, so that the pages and API answers between two results of a large event reuse them.

The key is what the records are made of (``SectionField.key``: the entries' names, ratings
and withdrawals, the section's games and byes as read) with the settings, never an id: a
changed result, entry or setting is a different key, so nothing is ever stale and nothing
needs clearing. A 5,000-player event costs about a second of CPU to rank and milliseconds
to look up (docs/BENCHMARKS.md, "Large events").
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from typing import Any

from tournaments import standings
from tournaments.records import SectionField
from tournaments.standings import PlaceRange, StandingRow

MEMORY = 16  # answers remembered (the standings and the places of 8 sections)

_answers: OrderedDict[Hashable, Any] = OrderedDict()
_lock = threading.Lock()


def _remembered(key: Hashable, compute: Callable[[], Any]) -> Any:
    """The answer under ``key``, computed first if it is not remembered (the least recently
    used one is forgotten beyond :data:`MEMORY`)."""
    with _lock:
        if key in _answers:
            _answers.move_to_end(key)
            return _answers[key]
    answer = compute()
    with _lock:
        _answers[key] = answer
        while len(_answers) > MEMORY:
            _answers.popitem(last=False)
    return answer


def forget() -> None:
    """Forget every answer (the benchmark's "first answer after a result")."""
    with _lock:
        _answers.clear()


def compute_standings(
    section: SectionField,
    *,
    tiebreaks: tuple[str, ...],
    edition: str,
    rounds: int | None,
    round_robin: bool,
) -> tuple[StandingRow, ...]:
    """``tournaments.standings.compute_standings`` of the section (rows shared: read only)."""
    key = ("standings", section.key, tiebreaks, edition, rounds, round_robin)
    return _remembered(
        key,
        lambda: tuple(
            standings.compute_standings(
                section.records,
                tiebreaks=tiebreaks,
                edition=edition,
                rounds=rounds,
                round_robin=round_robin,
            )
        ),
    )


def possible_places(
    section: SectionField,
    *,
    remaining_games: tuple[tuple[int, int], ...] | None = None,
    rounds_left: int = 0,
) -> Mapping[int, PlaceRange]:
    """``tournaments.standings.possible_places`` of the section (shared: read only)."""
    key = ("places", section.key, remaining_games, rounds_left)
    return _remembered(
        key,
        lambda: standings.possible_places(
            section.records, remaining_games=remaining_games, rounds_left=rounds_left
        ),
    )
