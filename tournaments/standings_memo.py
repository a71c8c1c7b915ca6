"""Standings and possible places remembered for the results they were computed from, so that
the pages and API answers between two results of a large event reuse them.

Two levels: this process's memory (the last :data:`MEMORY` answers), then Django's cache,
which every web process and the worker share (Redis in production). The worker ranks an
event after each result (``tournaments.tasks.standings_warm``), so the first page after a
result reads the stored answer instead of ranking 5,000 players in the request.

The key is what the records are made of (``SectionField.digest``, of the entries' names,
ratings and withdrawals, the section's games and byes as read) with the settings, never an
id: a changed result, entry or setting is a different key, so nothing is ever stale and
nothing needs clearing. When the cache
cannot be reached (``celticsite.cache.FailOpenRedisCache`` answers "nothing stored") the
answer is computed here. A 5,000-player event costs about a second of CPU to rank and
milliseconds to look up (docs/BENCHMARKS.md, "Large events").
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from typing import Any

from django.core.cache import cache

from tournaments import standings
from tournaments.records import SectionField
from tournaments.standings import PlaceRange, StandingRow

MEMORY = 16  # answers remembered in this process (the standings and the places of 8 sections)
# A stored answer outlives its event's last result by this much; a newer result is a new key.
SHARED_SECONDS = 24 * 3600
# Part of every shared key: raise it when StandingRow or PlaceRange change shape, so that a
# new release never reads what an old one stored.
SHARED_FORMAT = 1

_answers: OrderedDict[Hashable, Any] = OrderedDict()
_lock = threading.Lock()


def shared_key(key: tuple[object, ...]) -> str:
    """The cache key of ``key`` (plain values: their ``repr`` is the same in every process)."""
    digest = hashlib.blake2b(repr((SHARED_FORMAT, key)).encode(), digest_size=20).hexdigest()
    return f"tournaments:standings:{digest}"


def _remembered(key: tuple[object, ...], compute: Callable[[], Any]) -> Any:
    """The answer under ``key``: from this process's memory, else from the shared cache, else
    computed and stored in both (the least recently used one is forgotten here beyond
    :data:`MEMORY`)."""
    with _lock:
        if key in _answers:
            _answers.move_to_end(key)
            return _answers[key]
    name = shared_key(key)
    answer = cache.get(name)
    if answer is None:
        answer = compute()
        cache.set(name, answer, SHARED_SECONDS)
    with _lock:
        _answers[key] = answer
        while len(_answers) > MEMORY:
            _answers.popitem(last=False)
    return answer


def forget() -> None:
    """Forget every answer this process remembers (the shared cache keeps its own: it is
    what another process would find)."""
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
    key = ("standings", section.digest, tiebreaks, edition, rounds, round_robin)
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
    key = ("places", section.digest, remaining_games, rounds_left)
    return _remembered(
        key,
        lambda: standings.possible_places(
            section.records, remaining_games=remaining_games, rounds_left=rounds_left
        ),
    )
