"""Suspension and reactivation: the services and the admin actions that call them."""

from __future__ import annotations

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import Permission, User
from django.urls import reverse

from accounts.audit import USER_SUSPEND
from accounts.services import api_token_create, user_reactivate, user_suspend
from celticsite.errors import Conflict, DomainError, NotPermitted
from moderation.models import AuditEntry
from tests.accounts.factories import make_moderator, make_superuser, make_user

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:auth_user_changelist")


# --- Services -----------------------------------------------------------------------------


def test_suspend_deactivates_and_records(alice):
    moderator = make_moderator()
    api_token_create(user=alice, name="cli")

    user_suspend(user=alice, actor=moderator, reason="  Abusive messages  ")

    alice.refresh_from_db()
    assert alice.is_active is False
    entry = AuditEntry.objects.get()
    assert entry.action == USER_SUSPEND
    assert entry.actor == moderator
    assert entry.actor_repr == f"mod (#{moderator.pk})"
    assert entry.target == alice
    assert entry.target_repr == "user alice"
    assert entry.reason == "Abusive messages"
    assert entry.data == {"active_api_tokens": 1}


def test_reactivate_records(alice):
    moderator = make_moderator()
    user_suspend(user=alice, actor=moderator, reason="Spam")

    user_reactivate(user=alice, actor=moderator, reason="Appeal upheld")

    alice.refresh_from_db()
    assert alice.is_active is True
    assert list(AuditEntry.objects.order_by("id").values_list("action", "reason")) == [
        ("user_suspend", "Spam"),
        ("user_reactivate", "Appeal upheld"),
    ]


def test_reason_is_required(alice):
    with pytest.raises(DomainError, match="Give a reason") as excinfo:
        user_suspend(user=alice, actor=make_moderator(), reason="   ")

    assert excinfo.value.code == "reason_required"
    alice.refresh_from_db()
    assert alice.is_active is True
    assert not AuditEntry.objects.exists()


def test_moderator_cannot_suspend_themselves():
    moderator = make_moderator()

    with pytest.raises(NotPermitted, match="yourself"):
        user_suspend(user=moderator, actor=moderator, reason="Testing")


def test_moderator_cannot_suspend_a_superuser():
    root = make_superuser()

    with pytest.raises(NotPermitted, match="Only a superuser may suspend or reactivate root"):
        user_suspend(user=root, actor=make_moderator(), reason="Coup")

    root.refresh_from_db()
    assert root.is_active is True


def test_superuser_can_suspend_a_superuser():
    other = make_superuser("other")

    user_suspend(user=other, actor=make_superuser(), reason="Compromised account")

    other.refresh_from_db()
    assert other.is_active is False


def test_ordinary_user_cannot_suspend(alice, bob):
    with pytest.raises(NotPermitted, match="Only moderators"):
        user_suspend(user=bob, actor=alice, reason="I lost")


def test_staff_without_change_user_permission_cannot_suspend(alice):
    staff = make_user("helper")
    staff.is_staff = True
    staff.save()

    with pytest.raises(NotPermitted):
        user_suspend(user=alice, actor=staff, reason="Spam")


def test_suspend_twice_conflicts(alice):
    moderator = make_moderator()
    user_suspend(user=alice, actor=moderator, reason="Spam")

    with pytest.raises(Conflict, match="alice is already suspended"):
        user_suspend(user=alice, actor=moderator, reason="Spam again")

    with pytest.raises(Conflict, match="bob is not suspended"):
        user_reactivate(user=make_user("bob"), actor=moderator, reason="?")
    assert AuditEntry.objects.count() == 1


# --- Admin actions ------------------------------------------------------------------------


def run_action(client, action, users, **extra):
    data = {"action": action, ACTION_CHECKBOX_NAME: [u.pk for u in users], **extra}
    return client.post(CHANGELIST, data)


def test_suspend_action_asks_for_a_reason_first(client, alice, bob):
    client.force_login(make_moderator())

    response = run_action(client, "suspend_users", [alice, bob])

    assert response.status_code == 200
    assert response.templates[0].name == "admin/accounts/user_action_reason.html"
    content = response.content.decode()
    assert '<input type="submit" name="apply" value="Suspend users">' in content
    assert "alice (alice@example.org)" in content
    assert f'name="{ACTION_CHECKBOX_NAME}" value="{bob.pk}"' in content
    assert User.objects.filter(is_active=False).count() == 0


def test_suspend_action_refuses_an_empty_reason(client, alice):
    client.force_login(make_moderator())

    response = run_action(client, "suspend_users", [alice], apply="Suspend users", reason="  ")

    assert response.status_code == 200
    assert response.context["form"].errors == {"reason": ["This field is required."]}
    alice.refresh_from_db()
    assert alice.is_active is True
    assert not AuditEntry.objects.exists()


def test_suspend_action_with_a_reason(client, alice, bob):
    moderator = make_moderator()
    client.force_login(moderator)

    response = run_action(
        client, "suspend_users", [alice, bob], apply="Suspend users", reason="Sock puppets"
    )

    assert response.status_code == 302
    assert set(User.objects.filter(is_active=False).values_list("username", flat=True)) == {
        "alice",
        "bob",
    }
    entries = AuditEntry.objects.order_by("target_repr")
    assert [(e.action, e.target_repr, e.reason, e.actor) for e in entries] == [
        ("user_suspend", "user alice", "Sock puppets", moderator),
        ("user_suspend", "user bob", "Sock puppets", moderator),
    ]
    page = client.get(response["Location"])
    assert "Suspended: alice, bob." in [str(m) for m in page.context["messages"]]


def test_suspend_action_reports_refusals_and_goes_on(client, alice):
    moderator = make_moderator()
    root = make_superuser()
    client.force_login(moderator)

    response = run_action(
        client, "suspend_users", [alice, root, moderator], apply="Suspend users", reason="x"
    )

    messages = [str(m) for m in client.get(response["Location"]).context["messages"]]
    assert messages == [
        "You cannot suspend or reactivate yourself.",
        "Only a superuser may suspend or reactivate root.",
        "Suspended: alice.",
    ]
    assert list(User.objects.filter(is_active=False)) == [alice]


def test_reactivate_action(client, alice):
    moderator = make_moderator()
    user_suspend(user=alice, actor=moderator, reason="Spam")
    client.force_login(moderator)

    assert run_action(client, "reactivate_users", [alice]).status_code == 200
    response = run_action(
        client, "reactivate_users", [alice], apply="Reactivate users", reason="Appeal upheld"
    )

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.is_active is True
    assert AuditEntry.objects.filter(action="user_reactivate", reason="Appeal upheld").exists()


def test_actions_need_the_change_user_permission(client, alice):
    viewer = make_user("viewer")
    viewer.is_staff = True
    viewer.save()
    viewer.user_permissions.add(Permission.objects.get(codename="view_user"))
    client.force_login(viewer)

    page = client.get(CHANGELIST)
    assert page.status_code == 200
    assert b"suspend_users" not in page.content
    run_action(client, "suspend_users", [alice], apply="Suspend users", reason="x")
    alice.refresh_from_db()
    assert alice.is_active is True


# --- The user admin -----------------------------------------------------------------------


def test_user_changelist_search_and_filters(client, alice, bob):
    client.force_login(make_superuser())

    by_display_name = client.get(CHANGELIST, {"q": "Alice A."})
    by_country = client.get(CHANGELIST, {"profile__country": "IE"})
    inactive = client.get(CHANGELIST, {"is_active__exact": "0"})

    assert [u.username for u in by_display_name.context["cl"].result_list] == ["alice"]
    assert [u.username for u in by_country.context["cl"].result_list] == ["alice"]
    assert list(inactive.context["cl"].result_list) == []


def test_user_change_page_shows_profile_tokens_and_history(client, alice):
    root = make_superuser()
    api_token_create(user=alice, name="laptop")
    user_suspend(user=alice, actor=root, reason="Rude in chat")
    client.force_login(root)

    response = client.get(reverse("admin:auth_user_change", args=[alice.pk]))

    assert response.status_code == 200
    content = response.content.decode()
    assert 'value="Alice A."' in content  # the profile inline
    assert "laptop" in content
    assert "Rude in chat" in content
    # and for a user without a profile (made by createsuperuser)
    assert client.get(reverse("admin:auth_user_change", args=[root.pk])).status_code == 200
