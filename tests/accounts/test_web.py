"""The accounts web pages: sign-up, login/logout, password reset, profile, tokens."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import ApiToken, Profile
from accounts.services import api_token_create, user_suspend
from notifications.models import OutboxEmail
from notifications.services import outbox_email_send
from tests.accounts.factories import PASSWORD, make_superuser

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _site_url(settings):
    settings.SITE_URL = "https://celtic.example"


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


def _confirm_link(message) -> str:
    return re.search(r"https://celtic\.example(/accounts/signup/confirm/\S+/)", message.body).group(
        1
    )


def test_signup_asks_to_confirm_the_address_then_logs_in(
    client, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("accounts:signup"), signup_data())

    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:signup_sent")
    assert "_auth_user_id" not in client.session
    user = User.objects.get(username="carol")
    assert user.profile.display_name == "Carol"
    assert user.profile.country == "FR"
    assert user.profile.time_zone == "Europe/Paris"
    # Until the address is confirmed, the password does not work.
    assert not client.login(username="carol", password=PASSWORD)
    assert [m.to for m in mailoutbox] == [["carol@example.org"]]
    assert mailoutbox[0].subject == "Confirm your Celtic! account"

    link = _confirm_link(mailoutbox[0])
    page = client.get(link)
    assert page.status_code == 200
    assert b"Confirm and log in" in page.content
    assert "_auth_user_id" not in client.session  # a GET (a mail scanner) changes nothing
    response = client.post(link)

    assert response.status_code == 302
    assert response["Location"] == reverse("games:home")
    assert int(client.session["_auth_user_id"]) == user.pk
    client.post(reverse("accounts:logout"))
    assert client.login(username="carol", password=PASSWORD)
    again = client.post(link)
    assert again.status_code == 400
    assert b"This link is invalid or has already been used." in again.content


def test_signup_with_a_taken_address_looks_the_same_and_tells_the_owner(
    client, alice, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        new = client.post(reverse("accounts:signup"), signup_data())
    with django_capture_on_commit_callbacks(execute=True):
        taken = client.post(
            reverse("accounts:signup"),
            signup_data(username="mallory", email="Alice@Example.org"),
        )

    assert (taken.status_code, taken["Location"]) == (new.status_code, new["Location"])
    assert not User.objects.filter(username="mallory").exists()
    assert User.objects.filter(email__iexact="alice@example.org").count() == 1
    assert [m.to for m in mailoutbox] == [["carol@example.org"], ["alice@example.org"]]
    notice = mailoutbox[1]
    assert notice.subject == "Someone tried to sign up with your address"
    assert "You already have a Celtic! account: alice" in notice.body
    assert "https://celtic.example/accounts/password-reset/" in notice.body
    assert "/signup/confirm/" not in notice.body


def test_the_signup_sent_page_says_to_check_the_email(client):
    page = client.get(reverse("accounts:signup_sent"))

    assert page.status_code == 200
    assert b"Check your email" in page.content


def test_a_confirmation_link_with_a_bad_token_is_refused(
    client, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("accounts:signup"), signup_data())
    link = _confirm_link(mailoutbox[0])
    bad = link.rstrip("/").rsplit("/", 1)[0] + "/not-the-token/"

    response = client.post(bad)

    assert response.status_code == 400
    assert b"This link is invalid or has already been used." in response.content
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"password_confirm": "something-else-1"}, "password_confirm", "The two passwords differ."),
        ({"username": "ALICE"}, "username", "This username is taken (usernames ignore case)."),
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


def test_password_reset_by_email(client, alice, mailoutbox, django_capture_on_commit_callbacks):
    assert client.get(reverse("accounts:password_reset")).status_code == 200

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("accounts:password_reset"), {"email": "alice@example.org"})

    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert client.get(response["Location"]).status_code == 200
    assert len(mailoutbox) == 1
    row = OutboxEmail.objects.get(event="password_reset")
    assert (row.recipient, row.status) == (alice, "sent")
    path = re.search(r"https://celtic\.example(/accounts/reset/\S+/)", mailoutbox[0].body).group(1)

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


def test_password_reset_for_unknown_email_looks_the_same(
    client, alice, mailoutbox, django_capture_on_commit_callbacks
):
    """Same answer, same work in the request, which never looks the address up (only the
    throttle's count in the cache); a worker finds later whether an account uses it."""
    answers, tables = [], []
    for email in ("alice@example.org", "who@example.org"):
        with (
            django_capture_on_commit_callbacks() as callbacks,
            CaptureQueriesContext(connection) as queries,
        ):
            response = client.post(reverse("accounts:password_reset"), {"email": email})
        answers.append((response.status_code, response["Location"], len(callbacks)))
        tables.append([re.findall(r'FROM "(\w+)"', query["sql"]) for query in queries])

    assert answers[0] == answers[1] == (302, reverse("accounts:password_reset_done"), 1)
    assert tables[0] == tables[1] == []  # the throttle counts in the file cache or Redis
    assert mailoutbox == []  # nothing is sent until the callbacks run after commit


def test_password_reset_mail_waits_in_the_outbox_while_smtp_is_down(
    client, alice, mailoutbox, django_capture_on_commit_callbacks, monkeypatch
):
    def smtp_down(*args, **kwargs):
        raise ConnectionRefusedError("SMTP is down")

    monkeypatch.setattr("notifications.services.enqueue_send", lambda outbox_id: None)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("accounts:password_reset"), {"email": "alice@example.org"})
    row = OutboxEmail.objects.get(event="password_reset")
    with monkeypatch.context() as patch:
        patch.setattr("django.core.mail.backends.locmem.EmailBackend.send_messages", smtp_down)
        assert outbox_email_send(outbox_id=row.pk).status == "retry"

    row.refresh_from_db()
    assert (row.status, row.attempts) == ("pending", 1)
    assert "SMTP is down" in row.last_error
    assert mailoutbox == []
    assert outbox_email_send(outbox_id=row.pk).status == "sent"  # SMTP is back
    assert [m.to for m in mailoutbox] == [["alice@example.org"]]
    assert "https://celtic.example/accounts/reset/" in mailoutbox[0].body


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


def test_signup_page_refuses_look_alike_and_invisible_names(client, bob):
    response = client.post(
        reverse("accounts:signup"),
        signup_data(username="b\u043eb", display_name="Carol\u202e"),  # Cyrillic o; RTL override
    )

    assert response.status_code == 200
    errors = response.context["form"].errors
    assert "mixes scripts whose letters look alike (Cyrillic, Latin)" in errors["username"][0]
    assert "an invisible formatting character (U+202E)" in errors["display_name"][0]
    assert not User.objects.filter(email="carol@example.org").exists()


def test_profile_page_refuses_an_invisible_display_name(client, alice):
    client.force_login(alice)

    response = client.post(
        reverse("accounts:profile"),
        {
            "email": "alice@example.org",
            "display_name": "A\u200dlice",
            "country": "",
            "time_zone": "UTC",
        },
    )

    assert response.status_code == 200
    assert (
        "an invisible formatting character (U+200D)"
        in response.context["form"].errors["display_name"][0]
    )
    alice.refresh_from_db()
    assert alice.profile.display_name == "Alice A."
