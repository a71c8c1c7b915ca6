"""Moderators can see and revoke API tokens in the admin, but not make or delete them."""

from __future__ import annotations

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse

from accounts.models import ApiToken
from accounts.services import api_token_create
from moderation.models import AuditEntry
from tests.accounts.factories import make_superuser

pytestmark = pytest.mark.django_db


def test_revoke_action_revokes_and_records(client, alice):
    active, _ = api_token_create(user=alice, name="laptop")
    root = make_superuser()
    client.force_login(root)

    response = client.post(
        reverse("admin:accounts_apitoken_changelist"),
        {"action": "revoke_tokens", ACTION_CHECKBOX_NAME: [active.pk]},
    )

    assert response.status_code == 302
    active.refresh_from_db()
    assert active.revoked_at is not None
    entry = AuditEntry.objects.get()
    assert entry.action == "api_token_revoke"
    assert entry.actor == root
    assert entry.target == alice
    assert entry.data == {
        "token_id": active.pk,
        "token_name": "laptop",
        "key_prefix": active.key_prefix,
    }


def test_token_admin_has_no_add_or_delete(client, alice):
    token, _ = api_token_create(user=alice, name="laptop")
    client.force_login(make_superuser())

    assert client.get(reverse("admin:accounts_apitoken_add")).status_code == 403
    assert client.get(reverse("admin:accounts_apitoken_delete", args=[token.pk])).status_code == 403
    listing = client.get(reverse("admin:accounts_apitoken_changelist"), {"status": "active"})
    assert list(listing.context["cl"].result_list) == [token]
    assert ApiToken.objects.count() == 1
