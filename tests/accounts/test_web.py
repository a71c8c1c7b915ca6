"""The accounts web pages: sign-up, login/logout, password reset, profile, tokens."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from accounts.models import ApiToken, Profile
from accounts.services import api_token_create, user_suspend
from tests.accounts.factories import PASSWORD, make_superuser

pytestmark = pytest.mark.django_db


def signup_data(**overrides):
    data = {
        "username": "carol",
        "email": "carol@example.org",
        "password": PASSWORD,
        "password_confirm": PASSWORD,
        "display_name": "Carol",
        "country": "FR",
        "time_zone": "Europe/Paris",
    }
    data.update(overrides)
    return data


# --- Sign-up ------------------------------------------------------------------------------


def test_signup_page_renders(client):
    response = client.get(reverse("accounts:signup"))

    assert response.status_code == 200
    assert b'name="password_confirm"' in response.content
    assert b'<option value="IE">Ireland</option>' in response.content
    assert b'<option value="UTC" selected>UTC</option>' in response.content


def test_signup_creates_the_account_and_logs_in(client):
    response = client.post(reverse("accounts:signup"), signup_data())

    assert response.status_code == 302
    assert response["Location"] == reverse("games:home")
    user = User.objects.get(username="carol")
    assert user.profile.display_name == "Carol"
    assert user.profile.country == "FR"
    assert user.profile.time_zone == "Europe/Paris"
    assert int(client.session["_auth_user_id"]) == user.pk


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"password_confirm": "something-else-1"}, "password_confirm", "The two passwords differ."),
        ({"username": "ALICE"}, "username", "This username is taken (usernames ignore case)."),
        (
            {"email": "Alice@Example.org"},
            "email",
            "An account with this email address already exists.",
        ),
        (
            {"password": "password", "password_confirm": "password"},
            "password",
            "This password is too common.",
        ),
        (
            {"time_zone": "Mars/Olympus"},
            "time_zone",
            "Select a valid choice. Mars/Olympus is not one of the available choices.",
        ),
    ],
)
def test_signup_errors_are_shown_next_to_the_field(client, alice, overrides, field, message):
    response = client.post(reverse("accounts:signup"), signup_data(**overrides))

    assert response.status_code == 200
    assert message in response.context["form"].errors[field]
    assert message.replace("'", "&#x27;").encode() in response.content
    assert not User.objects.filter(username="carol").exists()


def test_signup_redirects_a_logged_in_user(client, alice):
    client.force_login(alice)

    response = client.get(reverse("accounts:signup"))

    assert response.status_code == 302


# --- Login and logout ---------------------------------------------------------------------


def test_login_page_renders(client):
    response = client.get(reverse("accounts:login"))

    assert response.status_code == 200
    assert b'name="username"' in response.content
    assert reverse("accounts:password_reset").encode() in response.content


def test_login_and_logout(client, alice):
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD})

    assert response.status_code == 302
    assert response["Location"] == reverse("games:home")
    assert int(client.session["_auth_user_id"]) == alice.pk

    assert client.get(reverse("accounts:logout")).status_code == 405  # POST only
    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_login_follows_next(client, alice):
    response = client.post(
        reverse("accounts:login"),
        {"username": "alice", "password": PASSWORD, "next": reverse("accounts:tokens")},
    )

    assert response["Location"] == reverse("accounts:tokens")


def test_login_wrong_password(client, alice):
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": "nope"})

    assert response.status_code == 200
    assert b"Please enter a correct username and password" in response.content
    assert "_auth_user_id" not in client.session


def test_suspended_user_cannot_log_in_and_loses_their_session(client, alice):
    client.force_login(alice)
    user_suspend(user=alice, actor=make_superuser(), reason="Spam")

    assert client.get(reverse("accounts:profile")).status_code == 302  # session no longer works
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 200
    assert b"Please enter a correct username and password" in response.content
    assert not response.context["user"].is_authenticated


# --- Password reset -----------------------------------------------------------------------


def test_password_reset_by_email(client, alice, mailoutbox):
    assert client.get(reverse("accounts:password_reset")).status_code == 200

    response = client.post(reverse("accounts:password_reset"), {"email": "alice@example.org"})

    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert client.get(response["Location"]).status_code == 200
    assert len(mailoutbox) == 1
    path = re.search(r"http://testserver(/accounts/reset/\S+/)", mailoutbox[0].body).group(1)

    form_page = client.get(path, follow=True)
    assert form_page.context["validlink"] is True
    response = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "another-good-secret-3", "new_password2": "another-good-secret-3"},
        follow=True,
    )

    assert response.redirect_chain[-1][0] == reverse("accounts:password_reset_complete")
    assert b"Your new password is set." in response.content
    assert client.login(username="alice", password="another-good-secret-3")


def test_password_reset_with_a_bad_link(client, alice):
    response = client.get(reverse("accounts:password_reset_confirm", args=["MQ", "bad-token"]))

    assert response.status_code == 200
    assert b"This link is invalid or has already been used." in response.content


def test_password_reset_for_unknown_email_looks_the_same(client, mailoutbox):
    response = client.post(reverse("accounts:password_reset"), {"email": "who@example.org"})

    assert response["Location"] == reverse("accounts:password_reset_done")
    assert mailoutbox == []


# --- Profile ------------------------------------------------------------------------------


def test_profile_requires_login(client):
    response = client.get(reverse("accounts:profile"))

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('accounts:login')}?next={reverse('accounts:profile')}"


def test_profile_shows_and_saves(client, alice):
    client.force_login(alice)

    page = client.get(reverse("accounts:profile"))
    assert page.status_code == 200
    assert b"Alice A." in page.content
    assert page.context["form"]["email"].value() == "alice@example.org"

    response = client.post(
        reverse("accounts:profile"),
        {
            "email": "alice@example.com",
            "display_name": "Ally",
            "country": "",
            "time_zone": "Asia/Tokyo",
            "notify_turn": "on",
            "email_digest": "on",
        },
    )

    assert response.status_code == 302
    profile = Profile.objects.get(user=alice)
    assert profile.display_name == "Ally"
    assert profile.country == ""
    assert profile.time_zone == "Asia/Tokyo"
    assert profile.notify_turn is True
    assert profile.notify_challenge is False  # unticked boxes are off
    assert profile.email_digest is True
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_profile_email_taken(client, alice, bob):
    client.force_login(alice)

    response = client.post(
        reverse("accounts:profile"),
        {"email": "bob@example.org", "display_name": "", "country": "", "time_zone": "UTC"},
    )

    assert response.status_code == 200
    assert response.context["form"].errors["email"] == [
        "An account with this email address already exists."
    ]
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"


# --- Tokens -------------------------------------------------------------------------------


def test_tokens_page_shows_a_new_key_once(client, alice):
    client.force_login(alice)

    response = client.post(reverse("accounts:tokens"), {"name": "laptop"})

    assert response.status_code == 302
    page = client.get(reverse("accounts:tokens"))
    key = page.context["new_token"]["key"]
    token = ApiToken.objects.get(user=alice)
    assert token.key_prefix == key[:8]
    assert key.encode() in page.content
    again = client.get(reverse("accounts:tokens"))
    assert again.context["new_token"] is None
    assert key.encode() not in again.content
    assert f"{token.key_prefix}…".encode() in again.content


def test_tokens_page_duplicate_name(client, alice):
    api_token_create(user=alice, name="laptop")
    client.force_login(alice)

    response = client.post(reverse("accounts:tokens"), {"name": "laptop"})

    assert response.status_code == 200
    assert response.context["form"].errors["name"] == [
        "You already have an active token with this name; pick another."
    ]


def test_tokens_page_revoke(client, alice):
    token, _ = api_token_create(user=alice, name="laptop")
    client.force_login(alice)

    response = client.post(reverse("accounts:token_revoke", args=[token.pk]), follow=True)

    token.refresh_from_db()
    assert token.revoked_at is not None
    assert "Token “laptop” revoked: its key no longer works." in [
        str(m) for m in response.context["messages"]
    ]
    assert list(response.context["tokens"]) == []


def test_tokens_page_cannot_revoke_another_users_token(client, alice, bob):
    token, _ = api_token_create(user=bob, name="bobs")
    client.force_login(alice)

    response = client.post(reverse("accounts:token_revoke", args=[token.pk]), follow=True)

    token.refresh_from_db()
    assert token.revoked_at is None
    assert "You have no API token with this id." in [str(m) for m in response.context["messages"]]


def test_token_revoke_is_post_only(client, alice):
    token, _ = api_token_create(user=alice, name="laptop")
    client.force_login(alice)

    assert client.get(reverse("accounts:token_revoke", args=[token.pk])).status_code == 405
