"""The embedded shared cache: Django's file cache with an ``add`` that is atomic across processes.

Throttles and login limits (docs/SECURITY.md) count in the cache every process shares. Without
Redis that is a directory under ``CELTIC_VAR_DIR``: no server, no database queries, and every
process on the machine sees the same files. Django's ``FileBasedCache.add`` checks and then
writes, so two processes could both claim one login-limit slot; here every ``add`` holds an
exclusive lock on the cache directory (``flock``) while it checks and writes, through the
cache's public ``has_key`` and ``set`` only.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache


class AtomicFileCache(FileBasedCache):
    """``FileBasedCache`` whose ``add`` succeeds in exactly one of several racing processes."""

    def __init__(self, location: str, params: dict[str, Any]) -> None:
        super().__init__(location, params)
        self.directory = os.path.abspath(location)

    def add(
        self,
        key: Any,
        value: Any,
        timeout: Any = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> bool:
        with self._adds_serialised():
            if self.has_key(key, version):  # also removes an expired entry
                return False
            self.set(key, value, timeout, version)
            return True

    @contextmanager
    def _adds_serialised(self) -> Iterator[None]:
        """One ``add`` at a time, across processes and threads: an exclusive ``flock`` on the
        cache directory itself, so no lock file lies among the entries. Each call opens the
        directory afresh (a lock of its own); closing it releases the lock, as does a crash."""
        os.makedirs(self.directory, exist_ok=True)  # the directory can be deleted at any time
        descriptor = os.open(self.directory, os.O_RDONLY)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX)
            yield
        finally:
            os.close(descriptor)
