"""Challenges in the admin: browsable, never edited or added there (their services change
them); superusers may delete one (the security matrix pins who)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.models import Challenge
from tests.accounts.factories import make_superuser, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def challenge() -> Challenge:
    return services.challenge_create(
        challenger=make_user("ann"), opponent=make_user("ben"), message="A game?"
    )


def test_a_superuser_sees_challenges_but_cannot_add_or_change_them(client, challenge):
    client.force_login(make_superuser())
    change_url = reverse("admin:games_challenge_change", args=[challenge.pk])
    listing = client.get(reverse("admin:games_challenge_changelist"))
    page = client.get(change_url)

    assert listing.status_code == 200 and b"ann" in listing.content
    assert page.status_code == 200 and b'name="_save"' not in page.content
    assert client.post(change_url, {"status": "accepted"}).status_code == 403
    assert client.get(reverse("admin:games_challenge_add")).status_code == 403
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.OPEN
