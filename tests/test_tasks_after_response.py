"""Celery messages a request queues go out once its response is closed (sent), not while the
person waits; outside a request they go at once."""

from __future__ import annotations

import pytest
from django.core import mail
from django.http import HttpResponse
from django.test import RequestFactory

from celticsite import celery as celery_module
from celticsite.celery import task_queue
from celticsite.middleware import TasksAfterResponseMiddleware
from games import services
from tests.accounts.factories import make_user
from tests.games.conftest import submit, token_client


class FakeTask:
    def __init__(self, log: list[str], *, fails: bool = False) -> None:
        self.log, self.fails = log, fails

    def delay(self, *args: object) -> None:
        if self.fails:
            raise ConnectionError("the broker is down")
        self.log.append(f"sent {args}")


def _middleware(view):
    return TasksAfterResponseMiddleware(view)


def test_outside_a_request_a_task_is_sent_at_once():
    log: list[str] = []
    task_queue(FakeTask(log), 1, on_outage="down")
    assert log == ["sent (1,)"]


@pytest.mark.django_db  # closing a response sends request_finished: Django tidies connections
def test_a_request_s_tasks_are_sent_when_its_response_is_closed():
    log: list[str] = []

    def view(request):
        task_queue(FakeTask(log), 1, on_outage="down")
        task_queue(FakeTask(log), 2, on_outage="down")
        log.append("answered")
        return HttpResponse("ok")

    response = _middleware(view)(RequestFactory().get("/"))
    assert log == ["answered"]  # the answer is ready and nothing is sent yet
    task_queue(FakeTask(log), 3, on_outage="down")  # after the request: at once
    response.close()  # the server has sent the answer
    assert log == ["answered", "sent (3,)", "sent (1,)", "sent (2,)"]
    response.close()  # a second close sends nothing twice
    assert log.count("sent (1,)") == 1


def test_a_request_that_fails_still_sends_what_it_queued(monkeypatch):
    log: list[str] = []
    warnings: list[str] = []  # not caplog: a Celery worker started by an earlier test may
    # have disabled the module's logger for the rest of the session
    monkeypatch.setattr(celery_module.logger, "warning", lambda text, **kw: warnings.append(text))

    def view(request):
        task_queue(FakeTask(log), 1, on_outage="down")
        task_queue(FakeTask(log, fails=True), 2, on_outage="could not queue 2")
        raise RuntimeError("the view broke")

    with pytest.raises(RuntimeError):
        _middleware(view)(RequestFactory().get("/"))
    assert log == ["sent (1,)"]
    assert warnings == ["could not queue 2"]  # an outage is logged, not raised


def test_a_request_that_queues_nothing_adds_nothing_to_its_response():
    response = _middleware(lambda request: HttpResponse("ok"))(RequestFactory().get("/"))
    assert response._resource_closers == []


@pytest.mark.django_db(transaction=True)  # the move's own commit, as in production
def test_a_move_s_email_goes_out_when_its_answer_is_closed(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    alice, bob = make_user("alice"), make_user("bob")
    game = services.game_start(orange=alice, blue=bob)
    mail.outbox.clear()
    response = submit(token_client(alice), game.pk, 0, "d5 ESW")  # the client closes it
    assert response.status_code == 201
    assert [message.to for message in mail.outbox] == [[bob.email]]
