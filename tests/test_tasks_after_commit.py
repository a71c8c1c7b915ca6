"""Celery messages go out once the transaction that asked for them commits, never if it rolls
back; a broker outage is logged, not raised, and loses nothing (the work is in the database,
where a beat task finds it)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.db import transaction
from django.utils import timezone
from kombu.exceptions import OperationalError

from celticsite import celery as celery_module
from celticsite.celery import task_delay_on_commit
from games import services
from notifications.models import OutboxEmail
from notifications.services import FLUSH_GRACE
from notifications.tasks import flush_outbox, send_outbox_email
from tests.accounts.factories import make_user
from tests.games.conftest import submit, token_client


class FakeTask:
    def __init__(self, log: list[str], *, fails: bool = False) -> None:
        self.log, self.fails = log, fails

    def delay(self, *args: object) -> None:
        if self.fails:
            raise ConnectionError("the broker is down")
        self.log.append(f"sent {args}")


@pytest.fixture
def warnings(monkeypatch) -> list[str]:
    """The outage warnings logged. Not caplog: a Celery worker started by an earlier test
    may have disabled the module's logger for the rest of the session."""
    logged: list[str] = []
    monkeypatch.setattr(celery_module.logger, "warning", lambda text, **kw: logged.append(text))
    return logged


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_a_task_is_sent_at_once():
    log: list[str] = []
    task_delay_on_commit(FakeTask(log), 1, on_outage="down")
    assert log == ["sent (1,)"]


@pytest.mark.django_db(transaction=True)
def test_a_transaction_s_tasks_are_sent_once_each_after_it_commits():
    log: list[str] = []
    with transaction.atomic():
        task_delay_on_commit(FakeTask(log), 1, on_outage="down")
        task_delay_on_commit(FakeTask(log), 2, on_outage="down")
        log.append("written")
        assert log == ["written"]  # nothing is sent before the commit
    assert log == ["written", "sent (1,)", "sent (2,)"]


@pytest.mark.django_db(transaction=True)
def test_a_transaction_that_rolls_back_sends_nothing():
    log: list[str] = []
    with pytest.raises(RuntimeError), transaction.atomic():
        task_delay_on_commit(FakeTask(log), 1, on_outage="down")
        raise RuntimeError("the write broke")
    assert log == []
    with transaction.atomic():  # a savepoint rolled back inside a transaction that commits
        try:
            with transaction.atomic():
                task_delay_on_commit(FakeTask(log), 2, on_outage="down")
                raise RuntimeError("the inner write broke")
        except RuntimeError:
            pass
        task_delay_on_commit(FakeTask(log), 3, on_outage="down")
    assert log == ["sent (3,)"]


@pytest.mark.django_db(transaction=True)
def test_a_broker_outage_is_logged_not_raised_and_the_other_tasks_still_go(warnings):
    log: list[str] = []
    with transaction.atomic():
        task_delay_on_commit(FakeTask(log, fails=True), 1, on_outage="could not queue 1")
        task_delay_on_commit(FakeTask(log), 2, on_outage="down")
    assert log == ["sent (2,)"]
    assert warnings == ["could not queue 1"]  # an outage is logged, not raised


@pytest.mark.django_db(transaction=True)  # the move's own commit, as in production
def test_a_move_s_email_goes_out_after_its_commit(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    alice, bob = make_user("alice"), make_user("bob")
    game = services.game_start(players=[alice, bob])
    mail.outbox.clear()
    response = submit(token_client(alice), game.pk, 0, "d5 ESW")
    assert response.status_code == 201
    assert [message.to for message in mail.outbox] == [[bob.email]]


@pytest.mark.django_db(transaction=True)
def test_a_broker_down_when_a_move_commits_loses_no_email(monkeypatch, warnings):
    """The move is answered and its email waits in the outbox; ``flush_outbox`` sends it."""

    def broker_down(*args: object, **options: object) -> None:
        raise OperationalError("Connection refused")

    alice, bob = make_user("alice"), make_user("bob")
    game = services.game_start(players=[alice, bob])
    mail.outbox.clear()
    with monkeypatch.context() as broker:
        broker.setattr(send_outbox_email, "apply_async", broker_down)
        response = submit(token_client(alice), game.pk, 0, "d5 ESW")
    assert response.status_code == 201
    row = OutboxEmail.objects.get(recipient=bob, event="your_turn")
    assert (row.status, mail.outbox) == ("pending", [])
    assert warnings == [f"Could not queue outbox email {row.pk}; flush_outbox will retry"]

    # the broker is back
    with time_machine.travel(timezone.now() + FLUSH_GRACE + timedelta(seconds=1)):
        assert flush_outbox.apply().get() == 1
    row.refresh_from_db()
    assert row.status == "sent"
    assert [message.to for message in mail.outbox] == [[bob.email]]
