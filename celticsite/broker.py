"""Celery's Redis transport, publishing through one Redis client per channel.

kombu's Redis channel builds a new ``redis.Redis`` client for every message it publishes
(``Channel.conn_or_acquire``): about 700 Python calls, for the client's table of reply
parsers, which is more than the rest of sending a task and a tenth of a move's whole cost.
The client holds no connection of its own (its pool does), so one client per channel and
pool serves every message. Used for ``redis://`` brokers (``CELERY_BROKER_TRANSPORT``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kombu.transport import redis as kombu_redis


class Channel(kombu_redis.Channel):
    """A Redis channel that keeps the client it publishes with."""

    _publisher: Any = None

    @contextmanager
    def conn_or_acquire(self, client: Any = None) -> Iterator[Any]:
        if client:
            yield client
            return
        pool = self.pool  # a new one after the channel disconnected: then a new client too
        if self._publisher is None or self._publisher.connection_pool is not pool:
            self._publisher = self._create_client()
        yield self._publisher


class Transport(kombu_redis.Transport):
    Channel = Channel
