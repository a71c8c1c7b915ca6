"""The audit log in the admin: browsable, and read-only even for superusers."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.test import RequestFactory
from django.urls import reverse

from moderation.models import AuditEntry
from moderation.services import audit_record
from tests.accounts.factories import make_superuser

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:moderation_auditentry_changelist")


@pytest.fixture
def root():
    return make_superuser()


@pytest.fixture
def entries(alice, moderator):
    return [
        audit_record(actor=moderator, action="user_suspend", target=alice, reason="Spam links"),
        audit_record(actor=moderator, action="user_reactivate", target=alice, reason="Appeal"),
        audit_record(actor=None, action="game_annul", target=None, reason="Engine bug"),
    ]


def test_no_add_change_or_delete_permission_even_for_superusers(root):
    model_admin = admin.site._registry[AuditEntry]
    request = RequestFactory().get("/")
    request.user = root

    assert model_admin.has_view_permission(request) is True
    assert model_admin.has_add_permission(request) is False
    assert model_admin.has_change_permission(request) is False
    assert model_admin.has_delete_permission(request) is False


def test_changelist_search_and_filters(client, root, entries):
    client.force_login(root)

    everything = client.get(CHANGELIST)
    by_reason = client.get(CHANGELIST, {"q": "spam"})
    by_actor = client.get(CHANGELIST, {"q": "system"})
    by_target = client.get(CHANGELIST, {"q": "user alice"})
    by_action = client.get(CHANGELIST, {"action__exact": "game_annul"})

    assert everything.status_code == 200
    assert len(everything.context["cl"].result_list) == 3
    assert list(by_reason.context["cl"].result_list) == [entries[0]]
    assert list(by_actor.context["cl"].result_list) == [entries[2]]
    assert set(by_target.context["cl"].result_list) == {entries[0], entries[1]}
    assert list(by_action.context["cl"].result_list) == [entries[2]]
    assert b"delete_selected" not in everything.content
    assert reverse("admin:auth_user_change", args=[entries[0].target_object_id]).encode() in (
        everything.content
    )


def test_date_hierarchy(client, root, entries):
    client.force_login(root)
    year = entries[0].created_at.year

    response = client.get(CHANGELIST, {"created_at__year": year})

    assert len(response.context["cl"].result_list) == 3


def test_detail_page_is_read_only(client, root, entries):
    client.force_login(root)
    url = reverse("admin:moderation_auditentry_change", args=[entries[0].pk])

    page = client.get(url)
    response = client.post(url, {"reason": "Rewritten", "action": "other"})

    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    assert b"Spam links" in page.content
    assert response.status_code == 403
    assert AuditEntry.objects.get(pk=entries[0].pk).reason == "Spam links"


def test_add_and_delete_pages_are_forbidden(client, root, entries):
    client.force_login(root)

    assert client.get(reverse("admin:moderation_auditentry_add")).status_code == 403
    delete_url = reverse("admin:moderation_auditentry_delete", args=[entries[0].pk])
    assert client.post(delete_url, {"post": "yes"}).status_code == 403
    assert AuditEntry.objects.count() == 3


def test_staff_need_the_view_permission(client, moderator, entries):
    client.force_login(moderator)
    assert client.get(CHANGELIST).status_code == 403

    moderator.user_permissions.add(Permission.objects.get(codename="view_auditentry"))

    assert client.get(CHANGELIST).status_code == 200
