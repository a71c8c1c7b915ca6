"""What the permission matrix (tests/security/matrix/ladders.py) leaves out: staff holding
``ladders.manage_ladder_players`` remove players from any ladder (audited) but may not
create ladders, for which the organiser permission is needed."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from ladders import services
from ladders.audit import LADDER_REMOVE
from moderation.models import AuditEntry
from tests.accounts.factories import make_user
from tests.games.conftest import token_client
from tests.ladders.conftest import grant, names

pytestmark = pytest.mark.django_db

A = "/api/v1/ladders"


@pytest.fixture
def manager() -> User:
    user = make_user("manager")
    user.is_staff = True
    user.save()
    return grant(user, "manage_ladder_players")


def test_a_manager_removes_a_player_from_a_ladder_not_theirs(make_ladder, manager):
    ladder = make_ladder()
    for name in ("top", "player"):
        services.ladder_join(ladder_id=ladder.pk, user=make_user(name))

    answer = token_client(manager).post(
        f"{A}/{ladder.pk}/remove/",
        {"player": "player", "reason": "left the club"},
        format="json",
    )

    assert (answer.status_code, answer.json()["kind"]) == (200, "removed")
    assert names(ladder) == ["top"]
    entry = AuditEntry.objects.get(action=LADDER_REMOVE)
    assert (entry.actor, entry.reason) == (manager, "left the club")


def test_a_manager_may_not_create_a_ladder(manager):
    answer = token_client(manager).post(f"{A}/", {"name": "Another"}, format="json")

    assert (answer.status_code, answer.json()["code"]) == (403, "organiser_permission_required")
