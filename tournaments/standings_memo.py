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
# A stored answer outlives its event's last result by this much (a newer result replaces it:
# ``_store``), so a quiet event, or a league season's many divisions, is not ranked again.
SHARED_SECONDS = 7 * 24 * 3600
# Part of every shared key: raise it when StandingRow or PlaceRange change shape, so that a
# new release never reads what an old one stored.
SHARED_FORMAT = 1
# A ranking claimed by the worker (``warm_claim``) and lost with a broker outage or a killed
# worker stops holding back new ones after this long.
WARM_CLAIM_SECONDS = 120

_answers: OrderedDict[Hashable, Any] = OrderedDict()
_lock = threading.Lock()


def shared_key(key: tuple[object, ...]) -> str:
    """The cache key of ``key`` (plain values: their ``repr`` is the same in every process)."""
    digest = hashlib.blake2b(repr((SHARED_FORMAT, key)).encode(), digest_size=20).hexdigest()
    return f"tournaments:standings:{digest}"


def _remembered(slot: str, key: tuple[object, ...], compute: Callable[[], Any]) -> Any:
    """The answer under ``key``: from this process's memory, else from the shared cache, else
    computed and stored in both (the least recently used one is forgotten here beyond
    :data:`MEMORY`; in the cache, the answer stored before in the same ``slot``)."""
    with _lock:
        if key in _answers:
            _answers.move_to_end(key)
            return _answers[key]
    name = shared_key(key)
    answer = cache.get(name)
    if answer is None:
        answer = compute()
        _store(slot, name, answer)
    with _lock:
        _answers[key] = answer
        while len(_answers) > MEMORY:
            _answers.popitem(last=False)
    return answer


def _store(slot: str, name: str, answer: Any) -> None:
    """Store ``answer`` under ``name`` in the shared cache and delete the one stored before
    it in ``slot`` (a section's standings, or its places): a section keeps one answer of
    each kind there however many results come in (a 5,000-player event's are megabytes)."""
    slot_key = f"tournaments:standings:slot:{slot}"
    previous = cache.get(slot_key)
    cache.set(name, answer, SHARED_SECONDS)
    cache.set(slot_key, name, SHARED_SECONDS)
    if previous is not None and previous != name:
        cache.delete(previous)


def _slot(kind: str, section: SectionField) -> str:
    """Where a section's answers of one kind follow each other: named by its first entry (of
    one event and one section only)."""
    first = section.entries[0].pk if section.entries else 0
    return f"{kind}:{first}:{section.section}"


def warm_claim(tournament_id: int) -> bool:
    """Claim the ranking of an event by the worker: True if none is queued already (so
    that a burst of results queues one ranking, not one each), False while one waits or
    while the cache is down (nothing could be stored then)."""
    return bool(cache.add(_warm_flag(tournament_id), True, WARM_CLAIM_SECONDS))


def warm_release(tournament_id: int) -> None:
    """The ranking starts: a result from now on queues another."""
    cache.delete(_warm_flag(tournament_id))


def _warm_flag(tournament_id: int) -> str:
    return f"tournaments:standings:warm-queued:{tournament_id}"


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
        _slot("standings", section),
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
        _slot("places", section),
        key,
        lambda: standings.possible_places(
            section.records, remaining_games=remaining_games, rounds_left=rounds_left
        ),
    )
