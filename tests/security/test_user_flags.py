"""User flags and permissions change only through audited services that apply the rules.

The admin's user form shows is_active, is_staff, is_superuser, groups and user permissions
read-only; the admin actions (and the services behind them) refuse to grant what the actor
does not hold, to change one's own flags, or to touch a superuser unless a superuser.
"""

from __future__ import annotations

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import Group, Permission, User
from django.test import Client
from django.urls import reverse

from accounts import services
from celticsite.errors import Conflict, DomainError, NotPermitted
from moderation.models import AuditEntry
from moderation.roles import MODERATOR_PERMISSIONS, MODERATORS_GROUP
from moderation.services import moderators_group_sync
from tests.accounts.factories import make_staff, make_superuser, make_user

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:auth_user_changelist")
FLAGS = ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")


def change_form_data(user: User, **overrides: object) -> dict[str, object]:
    """What the user change form posts, with the inline management forms."""
    profile = getattr(user, "profile", None)  # createsuperuser makes none
    data: dict[str, object] = {
        "username": user.username,
        "email": user.email,
        "first_name": "",
        "last_name": "",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "00:00:00",
        "profile-TOTAL_FORMS": "1",
        "profile-INITIAL_FORMS": "1" if profile else "0",
        "profile-MIN_NUM_FORMS": "0",
        "profile-MAX_NUM_FORMS": "1",
        "profile-0-id": str(profile.pk) if profile else "",
        "profile-0-user": str(user.pk),
        "profile-0-time_zone": "UTC",
        "api_tokens-TOTAL_FORMS": "0",
        "api_tokens-INITIAL_FORMS": "0",
        "api_tokens-MIN_NUM_FORMS": "0",
        "api_tokens-MAX_NUM_FORMS": "1000",
        "moderation-auditentry-target_content_type-target_object_id-TOTAL_FORMS": "0",
        "moderation-auditentry-target_content_type-target_object_id-INITIAL_FORMS": "0",
        "moderation-auditentry-target_content_type-target_object_id-MIN_NUM_FORMS": "0",
        "moderation-auditentry-target_content_type-target_object_id-MAX_NUM_FORMS": "1000",
    }
    data.update(overrides)
    return data


# --- The change form ----------------------------------------------------------------------


def test_staff_who_may_change_users_cannot_make_themselves_superuser():
    staff = make_staff("staff", "auth.view_user", "auth.change_user")
    client = Client()
    client.force_login(staff)
    url = reverse("admin:auth_user_change", args=[staff.pk])

    client.post(url, change_form_data(staff, is_staff="on", is_superuser="on", is_active="on"))

    staff.refresh_from_db()
    assert staff.is_superuser is False


def test_the_change_form_shows_flags_read_only_even_to_superusers():
    root = make_superuser()
    alice = make_user("alice")
    client = Client()
    client.force_login(root)

    page = client.get(reverse("admin:auth_user_change", args=[alice.pk]))
    client.post(
        reverse("admin:auth_user_change", args=[alice.pk]),
        change_form_data(alice, is_staff="on", is_superuser="on"),
    )

    form_fields = set(page.context["adminform"].form.fields)
    assert form_fields.isdisjoint(FLAGS)
    alice.refresh_from_db()
    assert (alice.is_staff, alice.is_superuser, alice.is_active) == (False, False, True)


def test_staff_cannot_deactivate_a_superuser_through_the_form():
    staff = make_staff("staff", "auth.view_user", "auth.change_user")
    root = make_superuser()
    client = Client()
    client.force_login(staff)

    response = client.post(
        reverse("admin:auth_user_change", args=[root.pk]), change_form_data(root)
    )

    assert response.status_code == 403
    root.refresh_from_db()
    assert root.is_active is True


def test_staff_cannot_change_a_superusers_password():
    staff = make_staff("staff", "auth.view_user", "auth.change_user")
    root = make_superuser()
    client = Client()
    client.force_login(staff)

    response = client.post(
        reverse("admin:auth_user_password_change", args=[root.pk]),
        {"password1": "taken-over-123", "password2": "taken-over-123"},
    )

    assert response.status_code == 403
    root.refresh_from_db()
    assert root.check_password("taken-over-123") is False


# --- Staff status -------------------------------------------------------------------------


def test_grant_and_revoke_staff_are_audited():
    admin = make_staff("admin", "accounts.grant_staff")
    alice = make_user("alice")

    services.user_staff_grant(user=alice, actor=admin, reason="  New moderator  ")
    alice.refresh_from_db()
    assert alice.is_staff is True
    services.user_staff_revoke(user=alice, actor=admin, reason="Stepped down")

    alice.refresh_from_db()
    assert alice.is_staff is False
    assert [(e.action, e.actor, e.target, e.reason) for e in AuditEntry.objects.order_by("id")] == [
        ("user_staff_grant", admin, alice, "New moderator"),
        ("user_staff_revoke", admin, alice, "Stepped down"),
    ]


def test_staff_status_needs_the_permission_a_reason_and_someone_else():
    plain_staff = make_staff("staff", "auth.change_user")
    admin = make_staff("admin", "accounts.grant_staff")
    alice = make_user("alice")

    with pytest.raises(NotPermitted, match="Only moderators"):
        services.user_staff_grant(user=alice, actor=plain_staff, reason="x")
    with pytest.raises(NotPermitted, match="yourself"):
        services.user_staff_revoke(user=admin, actor=admin, reason="x")
    with pytest.raises(DomainError, match="Give a reason") as caught:
        services.user_staff_grant(user=alice, actor=admin, reason=" ")
    assert caught.value.code == "reason_required"
    with pytest.raises(Conflict, match="alice is not staff"):
        services.user_staff_revoke(user=alice, actor=admin, reason="x")
    assert not AuditEntry.objects.exists()


def test_only_superusers_touch_superusers():
    admin = make_staff("admin", "accounts.grant_staff", "accounts.suspend_user")
    root, other_root = make_superuser(), make_superuser("other")

    with pytest.raises(NotPermitted, match="Only a superuser may change the staff status of root"):
        services.user_staff_revoke(user=root, actor=admin, reason="x")
    services.user_staff_revoke(user=other_root, actor=root, reason="Role change")

    other_root.refresh_from_db()
    assert other_root.is_staff is False


def test_superuser_status_only_by_superusers():
    admin = make_staff("admin", "accounts.grant_staff", "accounts.change_user_groups")
    root = make_superuser()
    alice = make_user("alice")

    with pytest.raises(NotPermitted, match="Only a superuser"):
        services.user_superuser_grant(user=alice, actor=admin, reason="x")
    with pytest.raises(NotPermitted, match="yourself"):
        services.user_superuser_revoke(user=root, actor=root, reason="x")
    services.user_superuser_grant(user=alice, actor=root, reason="Second admin")

    alice.refresh_from_db()
    assert (alice.is_superuser, alice.is_staff) == (True, True)
    assert AuditEntry.objects.get().action == "user_superuser_grant"


# --- Groups -------------------------------------------------------------------------------


def test_adding_to_a_group_needs_every_permission_of_the_group():
    moderators = moderators_group_sync()
    grouper = make_staff("grouper", "accounts.change_user_groups")
    alice = make_user("alice")

    with pytest.raises(NotPermitted, match="you do not hold") as caught:
        services.user_group_add(user=alice, group=moderators, actor=grouper, reason="x")

    assert "games.annul_game" in caught.value.detail
    assert not alice.groups.exists()


def test_a_moderator_with_the_groups_permission_adds_a_peer_and_it_is_audited():
    moderators = moderators_group_sync()
    lead = make_staff("lead", "accounts.change_user_groups")
    lead.groups.add(moderators)
    lead = User.objects.get(pk=lead.pk)
    alice = make_user("alice")

    services.user_group_add(user=alice, group=moderators, actor=lead, reason="Volunteer")
    with pytest.raises(Conflict, match="alice is already in Moderators"):
        services.user_group_add(user=alice, group=moderators, actor=lead, reason="again")
    services.user_group_remove(user=alice, group=moderators, actor=lead, reason="Left")
    with pytest.raises(Conflict, match="alice is not in Moderators"):
        services.user_group_remove(user=alice, group=moderators, actor=lead, reason="again")

    assert not alice.groups.exists()
    assert [(e.action, e.data) for e in AuditEntry.objects.order_by("id")] == [
        ("user_group_add", {"group": "Moderators", "group_id": moderators.pk}),
        ("user_group_remove", {"group": "Moderators", "group_id": moderators.pk}),
    ]


def test_nobody_changes_their_own_groups():
    root = make_superuser()
    with pytest.raises(NotPermitted, match="yourself"):
        services.user_group_add(user=root, group=moderators_group_sync(), actor=root, reason="x")


def test_group_actions_in_the_admin_ask_for_group_and_reason():
    moderators = moderators_group_sync()
    root = make_superuser()
    alice = make_user("alice")
    client = Client()
    client.force_login(root)
    selected = {"action": "add_to_group", ACTION_CHECKBOX_NAME: [alice.pk]}

    ask = client.post(CHANGELIST, selected)
    done = client.post(
        CHANGELIST, {**selected, "apply": "1", "group": moderators.pk, "reason": "Helps out"}
    )

    assert ask.status_code == 200 and "group" in ask.context["form"].fields
    assert done.status_code == 302
    assert list(alice.groups.all()) == [moderators]
    assert AuditEntry.objects.get().reason == "Helps out"


def test_the_groups_editor_is_for_superusers_only():
    staff = make_staff(
        "staff", "auth.view_group", "auth.change_group", "auth.add_group", "auth.delete_group"
    )
    group = moderators_group_sync()
    client = Client()
    client.force_login(staff)

    response = client.post(
        reverse("admin:auth_group_change", args=[group.pk]),
        {
            "name": "Moderators",
            "permissions": list(Permission.objects.values_list("pk", flat=True)),
        },
    )

    assert response.status_code == 403
    assert group.permissions.count() == len(MODERATOR_PERMISSIONS)


# --- The moderators group -----------------------------------------------------------------


def test_the_moderators_group_exists_after_migrate_with_exactly_its_permissions():
    group = Group.objects.get(name=MODERATORS_GROUP)
    held = {
        f"{p.content_type.app_label}.{p.codename}"
        for p in group.permissions.select_related("content_type")
    }
    assert held == set(MODERATOR_PERMISSIONS)


def test_sync_puts_back_what_was_removed_and_removes_extras():
    group = moderators_group_sync()
    group.permissions.remove(*group.permissions.filter(codename="annul_game"))
    group.permissions.add(Permission.objects.get(codename="delete_user"))

    moderators_group_sync()

    codenames = set(group.permissions.values_list("codename", flat=True))
    assert "annul_game" in codenames and "delete_user" not in codenames


def test_sync_names_a_permission_that_does_not_exist_and_changes_nothing(monkeypatch):
    from moderation import services as moderation_services

    group = moderators_group_sync()
    monkeypatch.setattr(
        moderation_services, "MODERATOR_PERMISSIONS", ("games.annul_game", "games.fly_game")
    )

    with pytest.raises(LookupError, match=r"moderators group: games\.fly_game\.$"):
        moderators_group_sync()

    assert group.permissions.count() == len(MODERATOR_PERMISSIONS)
