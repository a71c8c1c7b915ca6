"""Each admin action needs its own permission, checked when offered and when POSTed.

A staff user who may only look at games must not annul or adjudicate them, even by posting
the action (and its reason page) by hand.
"""

from __future__ import annotations

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from accounts.services import api_token_create
from games import errors, services
from games.models import Game, GameMessage
from moderation.models import AuditEntry
from tests.accounts.factories import make_staff, make_user

pytestmark = pytest.mark.django_db


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def offered(client: Client, changelist: str) -> list[str]:
    page = client.get(changelist)
    assert page.status_code == 200
    form = page.context["action_form"]  # None when no action is offered
    return [] if form is None else [name for name, _ in form.fields["action"].choices if name]


@pytest.fixture
def game() -> Game:
    return services.game_start(players=[make_user("alice"), make_user("bob")])


GAMES = reverse("admin:games_game_changelist")


@pytest.mark.parametrize(
    "extra",
    [
        {},
        {"confirm": "yes", "reason": "Because I can"},
        {"confirm": "yes", "reason": "Because I can", "result": "1-0"},
    ],
)
@pytest.mark.parametrize("action", ["annul", "adjudicate"])
def test_viewing_games_is_not_enough_to_annul_or_adjudicate(game, action, extra):
    client = logged_in(make_staff("viewer", "games.view_game"))

    assert offered(client, GAMES) == []
    response = client.post(GAMES, {"action": action, ACTION_CHECKBOX_NAME: [game.pk], **extra})

    assert "admin/games/moderate.html" not in [t.name for t in response.templates]  # no reason page
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert not AuditEntry.objects.exists()


@pytest.mark.parametrize(
    ("perm", "action", "status"),
    [
        ("games.annul_game", "annul", "annulled"),
        ("games.adjudicate_game", "adjudicate", "finished"),
    ],
)
def test_each_game_action_needs_its_own_permission(game, perm, action, status):
    client = logged_in(make_staff("viewer", "games.view_game", perm))

    assert offered(client, GAMES) == [action]
    ask = client.post(GAMES, {"action": action, ACTION_CHECKBOX_NAME: [game.pk]})
    client.post(
        GAMES,
        {
            "action": action,
            ACTION_CHECKBOX_NAME: [game.pk],
            "confirm": "yes",
            "reason": "Reported cheating",
            "result": "0-1",
        },
    )

    assert ask.status_code == 200 and ask.templates[0].name == "admin/games/moderate.html"
    game.refresh_from_db()
    assert game.status == status
    assert AuditEntry.objects.get().reason == "Reported cheating"


def test_changing_messages_is_not_enough_to_hide_them(game):
    message = services.message_post(game_id=game.pk, author=game.user_at(1), body="Hello")
    client = logged_in(make_staff("viewer", "games.view_gamemessage", "games.change_gamemessage"))
    changelist = reverse("admin:games_gamemessage_changelist")

    assert offered(client, changelist) == []
    client.post(
        changelist,
        {"action": "hide", ACTION_CHECKBOX_NAME: [message.pk], "confirm": "yes", "reason": "x"},
    )

    assert GameMessage.objects.get().hidden_at is None


def test_hiding_messages_has_its_own_permission(game):
    message = services.message_post(game_id=game.pk, author=game.user_at(1), body="Hello")
    client = logged_in(make_staff("viewer", "games.view_gamemessage", "games.hide_gamemessage"))
    changelist = reverse("admin:games_gamemessage_changelist")

    assert offered(client, changelist) == ["hide"]
    client.post(
        changelist,
        {"action": "hide", ACTION_CHECKBOX_NAME: [message.pk], "confirm": "yes", "reason": "Rude"},
    )

    assert GameMessage.objects.get().hidden_reason == "Rude"


def test_changing_users_is_not_enough_to_suspend_them():
    alice = make_user("alice")
    client = logged_in(make_staff("viewer", "auth.view_user", "auth.change_user"))
    changelist = reverse("admin:auth_user_changelist")

    assert "suspend_users" not in offered(client, changelist)
    client.post(
        changelist,
        {"action": "suspend_users", ACTION_CHECKBOX_NAME: [alice.pk], "apply": "1", "reason": "x"},
    )

    alice.refresh_from_db()
    assert alice.is_active is True


@pytest.mark.parametrize(
    ("perm", "action"),
    [("accounts.suspend_user", "suspend_users"), ("accounts.reactivate_user", "reactivate_users")],
)
def test_suspend_and_reactivate_each_have_their_permission(perm, action):
    client = logged_in(make_staff("viewer", "auth.view_user", perm))

    assert offered(client, reverse("admin:auth_user_changelist")) == [action]


def test_changing_tokens_is_not_enough_to_revoke_them():
    token, _ = api_token_create(user=make_user("alice"), name="cli")
    client = logged_in(make_staff("viewer", "accounts.view_apitoken", "accounts.change_apitoken"))
    changelist = reverse("admin:accounts_apitoken_changelist")

    assert offered(client, changelist) == []
    client.post(changelist, {"action": "revoke_tokens", ACTION_CHECKBOX_NAME: [token.pk]})

    token.refresh_from_db()
    assert token.revoked_at is None


def test_revoking_tokens_has_its_own_permission():
    token, _ = api_token_create(user=make_user("alice"), name="cli")
    client = logged_in(make_staff("viewer", "accounts.view_apitoken", "accounts.revoke_apitoken"))
    changelist = reverse("admin:accounts_apitoken_changelist")

    assert offered(client, changelist) == ["revoke_tokens"]
    client.post(changelist, {"action": "revoke_tokens", ACTION_CHECKBOX_NAME: [token.pk]})

    token.refresh_from_db()
    assert token.revoked_at is not None


@pytest.mark.parametrize(
    ("service", "kwargs"),
    [
        (services.game_annul, {}),
        (services.game_adjudicate, {"result": "1-0"}),
    ],
)
def test_the_game_services_check_the_permission_too(game, service, kwargs):
    """Defence in depth: a caller other than the admin cannot skip the permission."""
    staff = make_staff("viewer", "games.view_game", "games.change_game")

    with pytest.raises(errors.NotPermitted) as caught:
        service(game_id=game.pk, actor=staff, reason="x", **kwargs)

    assert caught.value.code == "not_a_moderator"
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
