"""A suspended user's open challenges and seeks close, and cannot be accepted meanwhile."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from accounts.services import user_suspend
from games import errors, selectors, services
from games.models import Challenge, Game
from moderation.models import AuditEntry
from moderation.services import moderators_group_sync
from tests.accounts.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator() -> User:
    user = make_user("mod")
    user.is_staff = True
    user.save()
    user.groups.add(moderators_group_sync())
    return User.objects.get(pk=user.pk)


def test_suspension_closes_the_users_seeks_and_challenges_and_records_them(moderator):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    seek = services.challenge_create(challenger=alice)
    direct = services.challenge_create(challenger=alice, opponent=bob)
    received = services.challenge_create(challenger=carol, opponent=alice)
    others = services.challenge_create(challenger=carol)

    user_suspend(user=alice, actor=moderator, reason="Spam")

    statuses = dict(Challenge.objects.values_list("pk", "status"))
    assert statuses == {
        seek.pk: "cancelled",
        direct.pk: "cancelled",
        received.pk: "cancelled",
        others.pk: "open",
    }
    assert list(selectors.challenge_list_open()) == [others]
    entry = AuditEntry.objects.get(action="challenges_close")
    assert (entry.actor, entry.target, entry.reason) == (moderator, alice, "Spam")
    assert entry.data == {"challenge_ids": sorted([seek.pk, direct.pk, received.pk])}


def test_no_record_of_closing_when_nothing_was_open(moderator):
    alice = make_user("alice")
    user_suspend(user=alice, actor=moderator, reason="Spam")
    assert list(AuditEntry.objects.values_list("action", flat=True)) == ["user_suspend"]


def test_a_suspended_challengers_seek_is_refused_at_accept_time():
    alice, bob = make_user("alice"), make_user("bob")
    seek = services.challenge_create(challenger=alice)
    User.objects.filter(pk=alice.pk).update(is_active=False)  # e.g. suspended by hand

    with pytest.raises(errors.ChallengerSuspended) as caught:
        services.challenge_accept(challenge_id=seek.pk, user=bob)

    assert (caught.value.status, caught.value.code) == (409, "challenger_suspended")
    assert caught.value.detail == (
        f"Challenge #{seek.pk} cannot be accepted: alice's account is suspended."
    )
    assert not Game.objects.exists()
    assert Challenge.objects.get().status == "open"


def test_a_suspended_acceptor_is_refused():
    alice, bob = make_user("alice"), make_user("bob")
    seek = services.challenge_create(challenger=alice)
    bob.is_active = False

    with pytest.raises(errors.AccountSuspended) as caught:
        services.challenge_accept(challenge_id=seek.pk, user=bob)

    assert (caught.value.status, caught.value.code) == (403, "account_suspended")
    assert not Game.objects.exists()


def test_the_api_answers_409_for_a_suspended_challengers_seek(client):
    from tests.games.conftest import token_client

    alice, bob = make_user("alice"), make_user("bob")
    seek = services.challenge_create(challenger=alice)
    User.objects.filter(pk=alice.pk).update(is_active=False)

    response = token_client(bob).post(f"/api/v1/challenges/{seek.pk}/accept/")

    assert response.status_code == 409
    assert response.json()["code"] == "challenger_suspended"
