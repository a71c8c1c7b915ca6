"""The embedded file cache's ``add`` claims a key for exactly one of several processes (the
login limits count on it; tests/accounts/test_throttles.py races threads)."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

from celticsite.cache import AtomicFileCache

KEYS = 40
PROCESSES = 4


def _claim_all(directory: str, number: int) -> list[bool]:
    cache = AtomicFileCache(directory, {})
    return [cache.add(f"slot:{key}", number, timeout=60) for key in range(KEYS)]


def test_racing_processes_claim_each_key_once(tmp_path: Path) -> None:
    with multiprocessing.get_context("fork").Pool(PROCESSES) as pool:
        claims = pool.starmap(_claim_all, [(str(tmp_path), n) for n in range(PROCESSES)])

    cache = AtomicFileCache(str(tmp_path), {})
    winners = [[n for n in range(PROCESSES) if claims[n][key]] for key in range(KEYS)]
    assert all(len(won) == 1 for won in winners), winners
    assert [cache.get(f"slot:{key}") for key in range(KEYS)] == [won[0] for won in winners]
    assert sorted(path.suffix for path in tmp_path.iterdir()) == [".djcache"] * KEYS
