"""``notify_many``: the same emails as ``notify`` one by one, written at once, handed to the
workers by a single task after the commit (a tournament round of many games)."""

from __future__ import annotations

from unittest import mock

import pytest

from games import services as game_services
from notifications import events
from notifications.models import OutboxEmail
from notifications.services import Notice, notify_many
from tests.accounts.factories import make_user
from tests.notifications.conftest import set_profile

pytestmark = pytest.mark.django_db


def test_each_notice_becomes_the_row_notify_would_write(
    alice, bob, game, django_capture_on_commit_callbacks
):
    set_profile(bob, email_digest=True)
    with (
        mock.patch("notifications.tasks.send_outbox_emails.apply_async") as batch,
        mock.patch("notifications.tasks.send_outbox_email.apply_async") as single,
    ):
        with django_capture_on_commit_callbacks(execute=True):
            events.on_turns([game])  # alice (Orange) to move
        assert single.call_count == 0
    [row] = OutboxEmail.objects.all()
    assert (row.recipient, row.event, row.game, row.digest) == (alice, "your_turn", game, False)
    assert row.dedupe_key == f"your_turn:{game.pk}:0:{alice.pk}"
    assert "Alice A." in row.body_text
    batch.assert_called_once_with(([row.pk],), {})  # (args, kwargs)


def test_keys_already_queued_or_repeated_and_switched_off_emails_are_skipped(alice, bob):
    carol = make_user("carol")
    set_profile(carol, notify_challenge=False)
    OutboxEmail.objects.create(
        recipient=bob, to_address="bob@example.org", event="tournament_round", subject="s",
        body_text="b", dedupe_key="k-bob", next_attempt_at="2026-01-01T00:00Z",
    )  # fmt: skip
    context = {"tournament_name": "Oak Cup", "round_number": 2}
    rows = notify_many(
        notices=[
            Notice(user=alice, event="tournament_round", context=context, dedupe_key="k-alice"),
            Notice(user=alice, event="tournament_round", context=context, dedupe_key="k-alice"),
            Notice(user=bob, event="tournament_round", context=context, dedupe_key="k-bob"),
            Notice(user=carol, event="tournament_round", context=context, dedupe_key="k-carol"),
        ]
    )
    assert [row.dedupe_key for row in rows] == ["k-alice"]
    assert sorted(OutboxEmail.objects.values_list("dedupe_key", flat=True)) == ["k-alice", "k-bob"]


def test_an_unknown_event_is_refused(alice):
    with pytest.raises(ValueError, match="is not registered"):
        notify_many(notices=[Notice(user=alice, event="party", context={}, dedupe_key="x")])


def test_the_batch_task_queues_one_send_per_row(alice, bob, django_capture_on_commit_callbacks):
    game = game_services.game_start(players=[alice, bob])
    rows = notify_many(
        notices=[
            Notice(user=u, event="game_started", context={"game": game}, dedupe_key=f"g:{u.pk}")
            for u in (alice, bob)
        ]
    )
    from notifications.tasks import send_outbox_emails

    with (
        mock.patch("notifications.tasks.send_outbox_email.apply_async") as single,
        django_capture_on_commit_callbacks(execute=True),  # the task's own commit
    ):
        assert send_outbox_emails([row.pk for row in rows]) == 2
    assert sorted(call.args[0][0] for call in single.call_args_list) == sorted(r.pk for r in rows)
