"""Celery publishes to a real Redis broker through kombu's own Redis transport, and what it
publishes arrives."""

from __future__ import annotations

import uuid

import pytest
from django.conf import settings
from kombu import Exchange, Producer, Queue

from celticsite.celery import app
from notifications.tasks import flush_outbox

pytestmark = pytest.mark.skipif(
    not settings.REDIS_URL.startswith("redis://"),
    reason="needs a Redis broker (REDIS_URL=redis://...); CI runs it against its Redis",
)


def test_the_broker_is_kombu_s_own_redis_transport():
    with app.connection_for_write() as connection:
        assert type(connection.transport).__module__ == "kombu.transport.redis"


def test_messages_published_to_it_arrive_in_order():
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


def test_a_task_sent_reaches_the_broker(monkeypatch):
    """What every caller does (``task.delay``, here to a queue of the test's own): the
    message waits in the queue for a worker."""
    monkeypatch.setitem(app.conf, "task_always_eager", False)  # the tests' default: in-process
    name = f"test-task-{uuid.uuid4().hex}"
    with app.connection_for_write() as connection:
        queue = Queue(name, Exchange(name), routing_key=name)(connection.default_channel)
        queue.declare()
        try:
            flush_outbox.apply_async(queue=queue, connection=connection)
            message = queue.get(no_ack=True)
            assert message is not None
            assert message.headers["task"] == "notifications.tasks.flush_outbox"
        finally:
            queue.delete()
