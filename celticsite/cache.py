"""The embedded shared cache: Django's file cache with an ``add`` that is atomic across processes.

Throttles and login limits (docs/SECURITY.md) count in the cache every process shares. Without
Redis that is a directory under ``CELTIC_VAR_DIR``: no server, no database queries, and every
process on the machine sees the same files. Django's ``FileBasedCache.add`` checks and then
writes, so two processes could both claim one login-limit slot; here every ``add`` holds an
exclusive lock on the cache directory (``flock``) while it checks and writes, through the
cache's public ``has_key`` and ``set`` only.

With Redis, ``FailOpenRedisCache`` is Django's Redis cache that reads as empty, and logs it,
while Redis is unreachable, so the limits counted in it fail open instead of failing requests.
"""

from __future__ import annotations

import fcntl
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)


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


class FailOpenRedisCache(RedisCache):
    """Django's ``RedisCache`` that answers "nothing stored" while Redis cannot be reached,
    logging a warning, instead of raising: the throttles and login limits that count in the
    cache then let requests through (docs/SECURITY.md, "A cache outage"), so a Redis outage
    does not take moves, logins and the API down with it. Only Redis's own errors are caught."""

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        with _unreachable_answers("get"):
            return super().get(key, default, version)
        return default

    def get_many(self, keys: Any, version: int | None = None) -> dict[str, Any]:
        with _unreachable_answers("get_many"):
            return super().get_many(keys, version)
        return {}

    def has_key(self, key: Any, version: int | None = None) -> bool:
        with _unreachable_answers("has_key"):
            return super().has_key(key, version)
        return False

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        with _unreachable_answers("add"):
            return super().add(key, value, timeout, version)
        return False

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> None:
        with _unreachable_answers("set"):
            super().set(key, value, timeout, version)

    def set_many(
        self, data: dict[str, Any], timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> list[str]:
        with _unreachable_answers("set_many"):
            return super().set_many(data, timeout, version)
        return list(data)  # the keys not stored

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        with _unreachable_answers("touch"):
            return super().touch(key, timeout, version)
        return False

    def delete(self, key: Any, version: int | None = None) -> bool:
        with _unreachable_answers("delete"):
            return super().delete(key, version)
        return False

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        with _unreachable_answers("delete_many"):
            super().delete_many(keys, version)


@contextmanager
def _unreachable_answers(operation: str) -> Iterator[None]:
    """Swallow a Redis error in ``operation``, logged; the caller then answers its default."""
    try:
        yield
    except RedisError as error:
        logger.warning("The cache (Redis) is unreachable; %s failed open: %s", operation, error)
