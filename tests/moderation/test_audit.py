"""The audit log is written by ``audit_record`` and can never be edited or deleted."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User

from accounts.models import Profile
from games.audit import GAME_ANNUL
from moderation.models import AppendOnlyError, AuditEntry
from moderation.selectors import audit_entry_list
from moderation.services import audit_record

pytestmark = pytest.mark.django_db


def test_audit_record_writes_an_entry(alice, moderator):
    entry = audit_record(
        actor=moderator,
        action=GAME_ANNUL,
        target=alice.profile,
        reason=" Both players colluded ",
        data={"ply": 12, "at": dt.date(2025, 3, 1)},
    )

    entry = AuditEntry.objects.get(pk=entry.pk)
    assert entry.actor == moderator
    assert entry.actor_repr == f"mod (#{moderator.pk})"
    assert entry.action == "game_annul"
    assert entry.target == alice.profile
    assert entry.target_object_id == str(alice.profile.pk)
    assert entry.target_repr == "profile alice"
    assert entry.reason == "Both players colluded"
    assert entry.data == {"ply": 12, "at": "2025-03-01"}
    assert entry.created_at is not None
    assert str(entry).endswith(f"mod (#{moderator.pk}): Game annulled")


def test_audit_record_by_the_system_without_a_target():
    entry = audit_record(actor=None, action="other", target=None, reason="Nightly clean-up")

    assert entry.actor is None
    assert entry.actor_repr == "system"
    assert entry.target is None
    assert entry.target_repr == ""
    assert entry.data == {}


def test_audit_record_refuses_an_unknown_action(alice):
    with pytest.raises(ValueError, match="Unknown audit action 'game_delete'"):
        audit_record(actor=alice, action="game_delete", target=None)

    assert not AuditEntry.objects.exists()


def test_entries_cannot_be_changed(alice, moderator):
    entry = audit_record(actor=moderator, action="other", target=alice, reason="Original")

    entry.reason = "Rewritten"
    with pytest.raises(AppendOnlyError, match="cannot be changed"):
        entry.save()
    with pytest.raises(AppendOnlyError, match="cannot be changed"):
        AuditEntry.objects.filter(pk=entry.pk).update(reason="Rewritten")
    with pytest.raises(AppendOnlyError, match="cannot be changed"):
        AuditEntry.objects.filter(pk=entry.pk).update(actor=None, reason="Rewritten")

    assert AuditEntry.objects.get(pk=entry.pk).reason == "Original"


def test_entries_cannot_be_deleted(alice, moderator):
    entry = audit_record(actor=moderator, action="other", target=alice)

    with pytest.raises(AppendOnlyError, match="cannot be deleted"):
        entry.delete()
    with pytest.raises(AppendOnlyError, match="cannot be deleted"):
        AuditEntry.objects.all().delete()

    assert AuditEntry.objects.filter(pk=entry.pk).exists()


def test_entries_outlive_their_actor_and_target(alice, moderator):
    entry = audit_record(actor=moderator, action="user_suspend", target=alice, reason="Spam")
    moderator_pk = moderator.pk

    moderator.delete()
    alice.delete()

    entry = AuditEntry.objects.get(pk=entry.pk)
    assert entry.actor is None
    assert entry.actor_repr == f"mod (#{moderator_pk})"
    assert entry.target is None
    assert entry.target_repr == "user alice"
    assert entry.reason == "Spam"
    assert not User.objects.filter(username__in=["alice", "mod"]).exists()


def test_audit_entry_list_filters_by_target_and_action(alice, moderator):
    bob = User.objects.create_user("bob")
    first = audit_record(actor=moderator, action="user_suspend", target=alice, reason="1")
    second = audit_record(actor=moderator, action="user_reactivate", target=alice, reason="2")
    audit_record(actor=moderator, action="user_suspend", target=bob, reason="3")
    audit_record(actor=moderator, action="other", target=Profile.objects.get(user=alice))

    assert list(audit_entry_list(target=alice)) == [second, first]
    assert list(audit_entry_list(target=alice, action="user_suspend")) == [first]
    assert audit_entry_list().count() == 4
