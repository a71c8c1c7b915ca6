"""The registry of email events: the outbox's ``event`` is checked against what the apps
registered in their ready(), not against a choice list on the model."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import RequestFactory

from notifications.admin import EmailEventFilter, OutboxEmailAdmin
from notifications.email_events import (
    Event,
    UnknownEmailEvent,
    email_event_get,
    email_event_register,
    email_events,
)
from notifications.models import OutboxEmail
from notifications.services import notify

pytestmark = pytest.mark.django_db


def test_every_app_registers_its_own_emails() -> None:
    keys = {event.key for event in email_events()}
    assert set(Event.values) <= keys  # notifications' own
    assert {
        "tournament_round",
        "tournament_withdrawn",
        "tournament_finished",
        "tournament_organiser",
        "league_season_open",
        "league_division",
        "league_season_end",
        "league_invitation",
        "ladder_challenge",
        "ladder_result",
    } <= keys
    assert len(keys) == len(Event.values) + 10


def test_an_event_carries_its_label_switch_and_digest() -> None:
    turn = email_event_get("your_turn")
    assert (turn.label, turn.preference, turn.digest) == ("Your turn", "notify_turn", True)
    result = email_event_get("ladder_result")
    assert (result.preference, result.digest) == ("notify_game_end", False)
    assert email_event_get("password_reset").preference == ""


def test_the_outbox_column_has_no_choices() -> None:
    assert not OutboxEmail._meta.get_field("event").choices


def test_registering_again_is_harmless_but_a_clash_is_refused() -> None:
    assert email_event_register(key="your_turn", label="Your turn", preference="notify_turn",
                                digest=True) == email_event_get("your_turn")  # fmt: skip
    with pytest.raises(ValueError, match="already registered"):
        email_event_register(key="your_turn", label="Your move")
    with pytest.raises(ValueError, match="1 to 40 characters"):
        email_event_register(key="x" * 41, label="Too long")


def test_notify_refuses_an_unregistered_event_naming_the_known_ones(alice) -> None:
    with pytest.raises(UnknownEmailEvent, match=r"'carrier_pigeon' is not registered.*your_turn"):
        notify(user=alice, event="carrier_pigeon", context={}, dedupe_key="k")
    assert not OutboxEmail.objects.exists()


def test_the_admin_filters_by_the_registered_events(admin_user) -> None:
    request = RequestFactory().get("/")
    request.user = admin_user
    model_admin = OutboxEmailAdmin(OutboxEmail, admin.site)
    lookups = dict(EmailEventFilter(request, {}, OutboxEmail, model_admin).lookups(request, None))
    assert lookups["your_turn"] == "Your turn"
    assert lookups["league_division"] == "Your league division and its games"
