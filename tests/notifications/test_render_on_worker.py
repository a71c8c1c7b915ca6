"""The worker renders each email from the context stored on its row, as the game stood when
the email was queued, in the recipient's time zone; a row from before contexts existed is
sent as it was stored; a rendering failure is recorded on the row and retried."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from fractions import Fraction

import pytest
from django.core import mail
from django.template import TemplateSyntaxError
from django.utils import timezone

from accounts.models import Profile
from games import services as game_services
from games.models import Game
from games.png import board_png
from games.selectors import game_position
from notifications import events, services
from notifications.email_context import ContextObjectMissing, context_dump, context_load
from notifications.email_events import Event
from notifications.models import OutboxEmail
from notifications.position import position_svg
from notifications.services import (
    MAX_ATTEMPTS,
    digests_send,
    notify,
    outbox_email_send,
)
from tests.notifications.conftest import set_profile

pytestmark = [pytest.mark.django_db, pytest.mark.outbox_unrendered]

JULY_NOON = datetime(2026, 7, 1, 12, 0, tzinfo=UTC)


def _turn_row(game: Game) -> OutboxEmail:
    events.on_turn(game)
    return OutboxEmail.objects.get(event=Event.YOUR_TURN, game=game)


def test_queueing_stores_the_context_and_renders_nothing(alice, game, monkeypatch):
    def no_rendering(name, *args, **kwargs):
        raise AssertionError(f"rendered {name} when queueing")

    monkeypatch.setattr("notifications.services.render_to_string", no_rendering)
    monkeypatch.setattr("notifications.position.position_svg", no_rendering)
    row = _turn_row(game)
    assert (row.subject, row.body_text, row.body_html, row.rendered_at) == ("", "", "", None)
    assert row.board_svg == ""  # the worker draws the board
    assert row.context["game"] == {"$model": "games.game", "pk": game.pk}
    assert row.context["ply"] == row.context["position_ply"] == 0
    assert row.context["side"] == "Orange"


def test_the_worker_renders_sends_and_keeps_the_text(alice, game):
    row = _turn_row(game)
    assert outbox_email_send(outbox_id=row.pk).status == "sent"
    [sent] = mail.outbox
    assert sent.subject.startswith(f"Your move against bob (game #{game.pk})")
    assert "It is your move as Orange" in sent.body
    row.refresh_from_db()
    assert row.subject == sent.subject
    assert row.body_text == sent.body
    assert row.rendered_at is not None
    assert row.status == OutboxEmail.Status.SENT


def test_the_email_shows_the_game_as_it_was_when_queued(alice, game):
    game.deadline = JULY_NOON
    game.save(update_fields=["deadline"])
    row = _turn_row(game)
    # the game moves on before the worker gets to the email
    Game.objects.filter(pk=game.pk).update(ply=7, deadline=JULY_NOON + timedelta(days=3))
    outbox_email_send(outbox_id=row.pk)
    [sent] = mail.outbox
    assert "(move 1)" in sent.body
    assert "Wed 1 Jul 2026, 13:00 IST" in sent.body
    assert "4 Jul" not in sent.body


def test_the_worker_draws_the_position_of_the_ply_queued_not_the_current_one(alice, bob, game):
    game = game_services.move_submit(
        game_id=game.pk, user=alice, expected_ply=0, notation="d5 ESW"
    ).game
    row = OutboxEmail.objects.get(event=Event.YOUR_TURN, recipient=bob)
    # bob answers before the worker gets to his email
    game_services.move_submit(game_id=game.pk, user=bob, expected_ply=1, notation="c5 ESW")
    assert outbox_email_send(outbox_id=row.pk).status == "sent"
    [sent] = mail.outbox
    assert "Orange played d5 ESW" in sent.body
    assert "c5 ESW" not in sent.body
    [image] = [part for part in sent.attachments if part.get_content_type() == "image/png"]
    game.refresh_from_db()
    queued_board = position_svg(game, state=game_position(game=game, ply=1))
    assert image.get_payload(decode=True) == board_png(queued_board)
    row.refresh_from_db()
    assert row.board_svg == queued_board  # kept, like the text, for the admin


def test_the_worker_uses_the_recipients_time_zone_at_send_time(alice, game):
    game.deadline = JULY_NOON
    game.save(update_fields=["deadline"])
    row = _turn_row(game)
    set_profile(alice, time_zone="Asia/Tokyo")
    outbox_email_send(outbox_id=row.pk)
    assert "Wed 1 Jul 2026, 21:00 JST" in mail.outbox[0].body


def test_a_row_rendered_when_queued_is_sent_as_stored(alice):
    row = OutboxEmail.objects.create(
        recipient=alice,
        to_address="alice@example.org",
        event=Event.GAME_MESSAGE,
        subject="Stored subject",
        body_text="Stored body",
        body_html="<p>Stored</p>",
        dedupe_key="old-row",
        next_attempt_at=timezone.now(),
    )
    assert outbox_email_send(outbox_id=row.pk).status == "sent"
    [sent] = mail.outbox
    assert (sent.subject, sent.body) == ("Stored subject", "Stored body")
    row.refresh_from_db()
    assert row.rendered_at is None and row.status == OutboxEmail.Status.SENT


def test_a_missing_object_is_recorded_and_retried_then_given_up(alice, game):
    row = _turn_row(game)
    OutboxEmail.objects.filter(pk=row.pk).update(
        context={**row.context, "game": {"$model": "games.game", "pk": 999999}}
    )
    outcome = outbox_email_send(outbox_id=row.pk)
    assert outcome.status == "retry" and outcome.retry_in == timedelta(minutes=1)
    assert mail.outbox == []
    row.refresh_from_db()
    assert row.status == OutboxEmail.Status.PENDING
    assert row.attempts == 1
    assert "could not render the your_turn email" in row.last_error
    assert "games.Game #999999 no longer exists" in row.last_error
    assert row.next_attempt_at > timezone.now()

    OutboxEmail.objects.filter(pk=row.pk).update(attempts=MAX_ATTEMPTS - 1)
    assert outbox_email_send(outbox_id=row.pk).status == "failed"
    row.refresh_from_db()
    assert row.status == OutboxEmail.Status.FAILED
    assert OutboxEmail.objects.filter(pk=row.pk).exists()


def test_a_template_error_is_recorded_not_raised(alice, game, monkeypatch):
    row = _turn_row(game)

    def broken(name, *args, **kwargs):
        raise TemplateSyntaxError(f"Invalid block tag in {name}")

    monkeypatch.setattr("notifications.services.render_to_string", broken)
    assert outbox_email_send(outbox_id=row.pk).status == "retry"
    row.refresh_from_db()
    assert row.last_error.startswith("EmailRenderError: could not render the your_turn email")
    assert "TemplateSyntaxError: Invalid block tag" in row.last_error
    assert row.rendered_at is None and row.subject == ""


def test_a_send_failure_after_rendering_keeps_the_rendered_text(alice, game, monkeypatch):
    row = _turn_row(game)

    def refused(self, *args, **kwargs):
        raise ConnectionRefusedError("no SMTP server")

    monkeypatch.setattr("django.core.mail.EmailMultiAlternatives.send", refused)
    assert outbox_email_send(outbox_id=row.pk).status == "retry"
    row.refresh_from_db()
    assert row.rendered_at is not None and row.subject.startswith("Your move against bob")


def test_the_digest_renders_its_held_items(alice, game):
    set_profile(alice, email_digest=True)
    row = _turn_row(game)
    assert row.digest and row.subject == ""
    [digest_id] = digests_send()
    row.refresh_from_db()
    assert row.subject.startswith(f"Your move against bob (game #{game.pk})")
    assert row.digest_email_id == digest_id
    assert outbox_email_send(outbox_id=digest_id).status == "sent"
    [sent] = mail.outbox
    assert sent.subject == "Your Celtic! digest: 1 update"
    assert f"Your move against bob (game #{game.pk})" in sent.body


def test_an_item_that_cannot_be_rendered_is_listed_by_its_event(alice, game, monkeypatch):
    set_profile(alice, email_digest=True)
    row = _turn_row(game)

    render = services.outbox_email_render

    def failing_for_the_item(item, **options):
        if item.pk == row.pk:
            raise services.EmailRenderError("could not render the your_turn email: boom")
        return render(item, **options)

    monkeypatch.setattr(services, "outbox_email_render", failing_for_the_item)
    [digest_id] = digests_send()
    row.refresh_from_db()
    assert row.subject == "Your turn"
    assert "boom" in row.last_error
    assert outbox_email_send(outbox_id=digest_id).status == "sent"
    assert "- Your turn" in mail.outbox[0].body


def test_a_digest_item_is_rendered_without_its_board(alice, game):
    """The digest lists an item by its subject: the item's board is never sent, so not drawn."""
    set_profile(alice, email_digest=True)
    row = _turn_row(game)
    digests_send()
    row.refresh_from_db()
    assert row.rendered_at is not None and row.subject.startswith("Your move")
    assert row.board_svg == ""


def test_the_admin_previews_a_row_not_rendered_yet(admin_client, alice, game):
    row = _turn_row(game)
    response = admin_client.get(f"/admin/notifications/outboxemail/{row.pk}/change/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Preview (rendered now)" in page
    assert f"Your move against bob (game #{game.pk})" in page
    row.refresh_from_db()
    assert row.rendered_at is None  # a preview stores nothing


def test_context_values_come_back_as_the_same_types(alice):
    profile = Profile.objects.get(user=alice)
    context = {
        "when": JULY_NOON,
        "day": date(2026, 7, 1),
        "left": timedelta(days=2, hours=3),
        "points": Fraction(3, 2),
        "final": Decimal("4.5"),
        "profile": profile,
        "rows": [{"name": "x", "n": 1}, None, True],
        "side": Game.Status.ACTIVE,
    }
    loaded = context_load(context_dump(context))
    assert loaded == {**context, "side": "active"}
    assert type(loaded["side"]) is str


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (object(), "email context bad: cannot store a object"),
        (datetime(2026, 7, 1, 12, 0), "email context bad: the datetime 2026-07-01 12:00:00 has"),
        ({1: "x"}, "email context keys must be strings, not int 1"),
    ],
)
def test_a_context_that_cannot_be_stored_is_refused_when_queued(value, message):
    with pytest.raises(TypeError, match=re.escape(message)):
        context_dump({"bad": value})


def test_an_unsaved_instance_is_refused(alice):
    message = "email context game: an unsaved games.Game has no id"
    with pytest.raises(TypeError, match=re.escape(message)):
        notify(
            user=alice,
            event=Event.GAME_MESSAGE,
            context={"game": Game()},
            dedupe_key="unsaved",
        )


def test_a_deleted_reference_is_named():
    with pytest.raises(ContextObjectMissing, match=re.escape("auth.User #424242 no longer exists")):
        context_load({"who": {"$model": "auth.user", "pk": 424242}})
