"""``celticsite.broker``: Celery publishes through one Redis client per channel, and a new
one once the channel's pool is replaced."""

from __future__ import annotations

import uuid

import pytest
from django.conf import settings
from kombu import Exchange, Producer, Queue

from celticsite import broker
from celticsite.celery import app

pytestmark = pytest.mark.skipif(
    not settings.REDIS_URL.startswith("redis://"),
    reason="needs a Redis broker (REDIS_URL=redis://...); CI runs it against its Redis",
)


def test_the_broker_is_ours_and_keeps_its_publishing_client():
    with app.connection_for_write() as connection:
        channel = connection.default_channel
        assert isinstance(channel, broker.Channel)
        with channel.conn_or_acquire() as first, channel.conn_or_acquire() as second:
            assert first is second
            assert first.connection_pool is channel.pool
        given = object()
        with channel.conn_or_acquire(given) as passed:  # a caller's own client is used as is
            assert passed is given
        channel._disconnect_pools()  # as kombu does when the connection is lost
        with channel.conn_or_acquire() as third:
            assert third is not first
            assert third.connection_pool is channel.pool


def test_messages_published_through_it_arrive():
    name = f"test-broker-{uuid.uuid4().hex}"
    queue = Queue(name, Exchange(name), routing_key=name)
    with app.connection_for_write() as connection:
        channel = connection.default_channel
        bound = queue(channel)
        bound.declare()
        try:
            producer = Producer(channel)
            for number in range(3):
                producer.publish({"n": number}, exchange=queue.exchange, routing_key=name)
            received = [bound.get(no_ack=True).payload for _ in range(3)]
            assert received == [{"n": 0}, {"n": 1}, {"n": 2}]
            assert bound.get(no_ack=True) is None
        finally:
            bound.delete()
