"""The audit actions are a registry each app fills in its ``ready()``: the log's ``action``
column has no choices, so a new action writes no migration, and an action nobody registered
is refused."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts import audit as accounts_audit
from games import audit as games_audit
from ladders import audit as ladders_audit
from leagues import audit as leagues_audit
from moderation import audit
from moderation.models import AuditEntry
from moderation.services import audit_record
from tests.accounts.factories import make_superuser
from tournaments import audit as tournaments_audit

APPS = [accounts_audit, games_audit, ladders_audit, leagues_audit, tournaments_audit, audit]


@pytest.fixture
def registry(monkeypatch):
    """A copy of the registry, so a test may register without leaving traces."""
    monkeypatch.setattr(audit, "_labels", dict(audit.audit_action_choices()))


def test_each_app_registers_its_own_actions_and_nothing_else_is_registered():
    declared = {key: label for module in APPS for key, label in module.ACTIONS.items()}

    assert dict(audit.audit_action_choices()) == declared
    assert len(declared) == sum(len(module.ACTIONS) for module in APPS)  # no key twice
    assert audit.audit_action_label(games_audit.GAME_ANNUL) == "Game annulled"
    assert audit.audit_action_label(leagues_audit.LEAGUE_MOVE) == (
        "League player moved to another tier by the organiser"
    )


def test_the_action_column_has_no_choices_so_a_new_action_writes_no_migration():
    field = AuditEntry._meta.get_field("action")

    assert field.choices is None
    assert field.max_length == audit.KEY_MAX_LENGTH


@pytest.mark.django_db
def test_a_newly_registered_action_is_recorded_and_labelled(registry):
    audit.audit_actions_register({"game_rename": "Game renamed"})

    entry = audit_record(actor=None, action="game_rename", target=None)

    assert AuditEntry.objects.get(pk=entry.pk).action == "game_rename"
    assert str(entry).endswith("system: Game renamed")


@pytest.mark.django_db
def test_an_unregistered_action_is_refused_with_how_to_register_it():
    with pytest.raises(audit.UnknownAuditAction) as refused:
        audit_record(actor=None, action="game_rename", target=None)

    assert str(refused.value) == (
        "Unknown audit action 'game_rename'; register it in its app's AppConfig.ready() "
        "with moderation.audit.audit_actions_register."
    )
    assert isinstance(refused.value, ValueError)
    assert not AuditEntry.objects.exists()


def test_registering_again_is_harmless_but_a_second_label_or_a_long_key_is_refused(registry):
    audit.audit_actions_register(games_audit.ACTIONS)

    with pytest.raises(ValueError, match="'game_annul' is already registered as 'Game annulled'"):
        audit.audit_actions_register({games_audit.GAME_ANNUL: "Game voided"})
    with pytest.raises(ValueError, match="must be 1 to 32 characters long"):
        audit.audit_actions_register({"x" * 33: "Too long"})
    with pytest.raises(ValueError, match="must be 1 to 32 characters long"):
        audit.audit_actions_register({"": "Empty"})
    assert audit.audit_action_label(games_audit.GAME_ANNUL) == "Game annulled"


def test_an_entry_of_an_action_no_longer_registered_shows_its_key():
    assert audit.audit_action_label("retired_action") == "retired_action"


@pytest.mark.django_db
def test_the_admin_labels_and_filters_by_the_registry(client, alice, registry):
    audit.audit_actions_register({"game_rename": "Game renamed"})
    audit_record(actor=None, action="game_rename", target=alice, reason="A new name")
    audit_record(actor=None, action=audit.OTHER, target=alice, reason="Something else")
    client.force_login(make_superuser())
    changelist = reverse("admin:moderation_auditentry_changelist")

    page = client.get(changelist)
    renamed = client.get(changelist, {"action__exact": "game_rename"})

    filters = {spec.title: spec for spec in page.context["cl"].filter_specs}
    offered = [choice["display"] for choice in filters["action"].choices(page.context["cl"])]
    assert offered == ["All", *(label for _, label in audit.audit_action_choices())]
    assert "Game renamed" in offered
    assert b'<td class="field-action_label">Game renamed</td>' in page.content
    assert [entry.reason for entry in renamed.context["cl"].result_list] == ["A new name"]
