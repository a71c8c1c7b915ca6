"""The ladders admin: every list opens read-only; removing a player is an action that needs
the permission and a reason, and is audited (the admin rows of the permission matrix)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client
from django.urls import reverse

from ladders import services
from ladders.audit import LADDER_REMOVE
from moderation.models import AuditEntry
from tests.accounts.factories import make_superuser, make_user
from tests.ladders.conftest import grant, names

pytestmark = pytest.mark.django_db
CHANGELIST = "admin:ladders_ladderplayer_changelist"


def staff(name: str, *ladder_perms: str) -> User:
    user = make_user(name)
    user.is_staff = True
    user.save()
    user.user_permissions.add(
        Permission.objects.get(codename="view_ladderplayer", content_type__app_label="ladders")
    )
    return grant(user, *ladder_perms)


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def ladder(make_ladder):
    ladder = make_ladder()
    for name in ("ann", "bob", "cat"):
        services.ladder_join(ladder_id=ladder.pk, user=make_user(name))
    return ladder


def remove(client: Client, ladder, username: str, reason: str):
    row = ladder.players.get(player__username=username)
    return client.post(
        reverse(CHANGELIST),
        {"action": "remove", "_selected_action": [row.pk], "reason": reason},
        follow=True,
    )


def test_every_list_opens_and_nothing_can_be_added_or_changed(ladder):
    client = logged_in(make_superuser())
    for model in ("ladder", "ladderplayer", "ladderchallenge", "ladderevent"):
        assert client.get(reverse(f"admin:ladders_{model}_changelist")).status_code == 200
        assert client.get(reverse(f"admin:ladders_{model}_add")).status_code == 403
    page = client.get(reverse("admin:ladders_ladder_change", args=[ladder.pk]))
    assert page.status_code == 200 and "bob" in page.content.decode()


@pytest.mark.parametrize(
    ("who", "removed"),
    [
        ("superuser", True),
        ("manager", True),  # staff holding manage_ladder_players
        ("viewer", False),  # staff who may only look: the action is not offered
    ],
)
def test_who_may_remove_a_player_in_the_admin(ladder, who, removed):
    user = {
        "superuser": lambda: make_superuser(),
        "manager": lambda: staff("manager", "manage_ladder_players"),
        "viewer": lambda: staff("viewer"),
    }[who]()
    answer = remove(logged_in(user), ladder, "bob", "asked to leave")
    assert answer.status_code == 200
    assert names(ladder) == (["ann", "cat"] if removed else ["ann", "bob", "cat"])
    assert AuditEntry.objects.filter(action=LADDER_REMOVE).count() == int(removed)


def test_an_organiser_of_another_ladder_and_a_missing_reason_are_refused(ladder, make_ladder):
    other = staff("other", "organise_ladder")
    answer = remove(logged_in(other), ladder, "bob", "asked to leave")
    assert [str(m) for m in answer.context["messages"]] == [
        "bob: Only the organiser of Club Ladder (or an administrator) may remove players."
    ]
    answer = remove(logged_in(make_superuser()), ladder, "bob", "  ")
    assert [str(m) for m in answer.context["messages"]] == [
        "bob: Give a reason for removing a player (it is kept in the audit log)."
    ]
    assert names(ladder) == ["ann", "bob", "cat"]
    assert not AuditEntry.objects.exists()


def test_staff_holding_the_permission_alone_open_the_list_the_action_is_on(ladder):
    manager = make_user("bare")
    manager.is_staff = True
    manager.save()
    client = logged_in(grant(manager, "manage_ladder_players"))

    assert client.get(reverse(CHANGELIST)).status_code == 200
    assert client.get(reverse("admin:ladders_ladderevent_changelist")).status_code == 403
    remove(client, ladder, "bob", "asked to leave")
    assert names(ladder) == ["ann", "cat"]
