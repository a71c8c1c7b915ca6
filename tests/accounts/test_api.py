"""The accounts API: sign-up, profile, tokens, password reset."""

from __future__ import annotations

import base64
import re
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.models import ApiToken, Profile, api_token_hash
from accounts.services import api_token_create, user_suspend
from tests.accounts.factories import PASSWORD, make_superuser, make_user

SIGNUP = "/api/v1/accounts/signup/"
ME = "/api/v1/accounts/me/"
TOKENS = "/api/v1/accounts/tokens/"
RESET = "/api/v1/accounts/password-reset/"

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _site_url(settings):
    settings.SITE_URL = "https://celtic.example"


def token_header(key: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Token {key}"}


def basic_header(username: str, password: str) -> dict[str, str]:
    raw = base64.b64encode(f"{username}:{password}".encode()).decode()
    return {"HTTP_AUTHORIZATION": f"Basic {raw}"}


# --- Sign-up ------------------------------------------------------------------------------


SIGNUP_ANSWER = {
    "detail": "Check your email: we have sent a link to finish signing up. If the address "
    "already has an account, the email says so instead."
}


def test_signup_creates_a_pending_account_and_emails_a_link(
    api_client, client, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(
            SIGNUP,
            {
                "username": "carol",
                "email": "Carol@Example.ORG",
                "password": PASSWORD,
                "display_name": "  Carol C. ",
                "country": "fr",
                "time_zone": "Europe/Paris",
            },
        )

    assert response.status_code == 202, response.json()
    assert response.json() == SIGNUP_ANSWER
    user = User.objects.get(username="carol")
    assert user.email == "Carol@example.org"  # the domain part is lower-cased
    assert user.profile.display_name == "Carol C."
    assert user.profile.country == "FR"
    assert user.profile.time_zone == "Europe/Paris"
    assert not user.has_usable_password()  # no login until the address is confirmed
    assert api_client.get(TOKENS, **basic_header("carol", PASSWORD)).status_code == 401
    assert [m.to for m in mailoutbox] == [["Carol@example.org"]]

    link = re.search(r"https://celtic\.example(/accounts/signup/confirm/\S+/)", mailoutbox[0].body)
    assert client.post(link.group(1)).status_code == 302
    user.refresh_from_db()
    assert user.check_password(PASSWORD)
    assert api_client.get(TOKENS, **basic_header("carol", PASSWORD)).status_code == 200


def test_signup_with_a_taken_address_answers_the_same(
    api_client, alice, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(
            SIGNUP, {"username": "mallory", "email": "ALICE@example.org", "password": PASSWORD}
        )

    assert response.status_code == 202
    assert response.json() == SIGNUP_ANSWER
    assert not User.objects.filter(username="mallory").exists()
    assert [m.to for m in mailoutbox] == [["alice@example.org"]]
    assert mailoutbox[0].subject == "Someone tried to sign up with your address"


def test_signup_defaults(api_client):
    response = api_client.post(
        SIGNUP, {"username": "dan", "email": "dan@example.org", "password": PASSWORD}
    )

    assert response.status_code == 202
    profile = User.objects.get(username="dan").profile
    assert (profile.time_zone, profile.country, profile.display_name) == ("UTC", "", "")


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("username", "ALICE", "This username is taken"),
        ("username", "no spaces", "Enter a valid username"),
        ("email", "not-an-email", "Enter a valid email address."),
        ("password", "password", "This password is too common."),
        ("password", "short", "This password is too short."),
        ("password", "83749120384756", "This password is entirely numeric."),
        ("country", "XX", "'XX' is not an ISO 3166-1 alpha-2 country code: expected two letters"),
        ("country", "USA", "'USA' is not an ISO 3166-1 alpha-2 country code"),
        ("time_zone", "Mars/Olympus", "'Mars/Olympus' is not an IANA time zone name"),
    ],
)
def test_signup_errors_name_the_field_and_what_is_expected(
    api_client, alice, field, value, expected
):
    data = {"username": "carol", "email": "carol@example.org", "password": PASSWORD}
    data[field] = value

    response = api_client.post(SIGNUP, data)

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert list(body["errors"]) == [field]
    assert any(message.startswith(expected) for message in body["errors"][field])
    assert body["detail"].startswith(f"{field}: {expected}")
    assert not User.objects.filter(username="carol").exists()


def test_signup_reports_every_bad_field_at_once(api_client):
    response = api_client.post(
        SIGNUP,
        {
            "username": "carol",
            "email": "carol@example.org",
            "password": "carol123",
            "country": "ZZ",
            "time_zone": "Nowhere",
        },
    )

    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"password", "country", "time_zone"}


def test_signup_password_too_similar_to_username(api_client):
    response = api_client.post(
        SIGNUP,
        {"username": "longusername", "email": "x@example.org", "password": "longusername1"},
    )

    assert response.status_code == 400
    assert response.json()["errors"]["password"] == ["The password is too similar to the username."]


def test_signup_missing_fields(api_client):
    response = api_client.post(SIGNUP, {"username": "carol"})

    assert response.status_code == 400
    assert response.json()["errors"] == {
        "email": ["This field is required."],
        "password": ["This field is required."],
    }


def test_signup_ignores_a_logged_in_session(api_client, alice):
    api_client.force_login(alice)

    response = api_client.post(
        SIGNUP, {"username": "carol", "email": "carol@example.org", "password": PASSWORD}
    )

    assert response.status_code == 202


# --- Profile ------------------------------------------------------------------------------


def test_me_requires_authentication(api_client):
    response = api_client.get(ME)

    assert response.status_code == 401
    assert response.json() == {
        "code": "not_authenticated",
        "detail": "Authentication credentials were not provided.",
    }
    assert response["WWW-Authenticate"] == "Token"


def test_me_get(api_client, alice):
    _, key = api_token_create(user=alice, name="cli")

    response = api_client.get(ME, **token_header(key))

    assert response.status_code == 200
    assert response.json() == {
        "username": "alice",
        "email": "alice@example.org",
        "date_joined": response.json()["date_joined"],
        "display_name": "Alice A.",
        "country": "IE",
        "time_zone": "Europe/Dublin",
        "notify_turn": True,
        "notify_challenge": True,
        "notify_game_end": True,
        "notify_message": True,
        "email_digest": False,
        "push_turn": True,
        "push_challenge": True,
        "push_game_end": True,
        "push_message": True,
        "reminder_hours": [24, 2],
        "confirm_moves": True,
    }


def test_me_get_creates_a_missing_profile(api_client):
    root = make_superuser()
    assert not Profile.objects.filter(user=root).exists()
    api_client.force_login(root)

    response = api_client.get(ME)

    assert response.status_code == 200
    assert response.json()["time_zone"] == "UTC"
    assert Profile.objects.filter(user=root).exists()


def test_me_patch_changes_only_the_given_fields(api_client, alice):
    api_client.force_login(alice)

    response = api_client.patch(
        ME,
        {
            "time_zone": "America/New_York",
            "notify_turn": False,
            "email_digest": True,
            "email": "alice.new@example.org",
            "username": "mallory",
        },
    )

    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["time_zone"] == "America/New_York"
    assert body["notify_turn"] is False
    assert body["email_digest"] is True
    assert body["email"] == "alice.new@example.org"
    assert body["username"] == "alice"  # read-only
    assert body["display_name"] == "Alice A."
    assert body["country"] == "IE"
    alice.refresh_from_db()
    assert alice.email == "alice.new@example.org"
    assert alice.profile.notify_turn is False


def test_me_patch_can_clear_country(api_client, alice):
    api_client.force_login(alice)

    response = api_client.patch(ME, {"country": ""})

    assert response.status_code == 200
    assert Profile.objects.get(user=alice).country == ""


@pytest.mark.parametrize(
    ("data", "field", "expected"),
    [
        ({"time_zone": "Europe/Atlantis"}, "time_zone", "'Europe/Atlantis' is not an IANA"),
        ({"country": "UK"}, "country", "'UK' is not an ISO 3166-1 alpha-2 country code"),
        ({"email": "BOB@example.org"}, "email", "An account with this email address already"),
        ({"display_name": "x" * 51}, "display_name", "Ensure this field has no more than 50"),
        ({"notify_turn": "perhaps"}, "notify_turn", "Expected true or false, not a string."),
    ],
)
def test_me_patch_errors(api_client, alice, bob, data, field, expected):
    api_client.force_login(alice)

    response = api_client.patch(ME, data)

    assert response.status_code == 400
    assert list(response.json()["errors"]) == [field]
    assert response.json()["errors"][field][0].startswith(expected)
    assert Profile.objects.get(user=alice).time_zone == "Europe/Dublin"


# --- Tokens -------------------------------------------------------------------------------


def test_token_create_returns_the_key_once(api_client, alice):
    api_client.force_login(alice)

    response = api_client.post(TOKENS, {"name": "laptop"})

    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"id", "name", "key_prefix", "created_at", "last_used_at", "key"}
    assert body["name"] == "laptop"
    assert body["key_prefix"] == body["key"][:8]
    assert body["last_used_at"] is None
    token = ApiToken.objects.get(pk=body["id"])
    assert token.user == alice
    assert token.key_hash == api_token_hash(body["key"])
    assert body["key"] not in token.key_hash

    listing = api_client.get(TOKENS).json()
    assert listing == [{k: v for k, v in body.items() if k != "key"}]


def test_token_create_with_basic_auth(api_client, alice):
    """What ``curl -u alice:secret --json '{"name": "cli"}' .../tokens/`` sends (a form body
    is refused with 415: tests/test_api_content_types.py)."""
    response = api_client.post(
        TOKENS,
        '{"name": "cli"}',
        content_type="application/json",
        **basic_header("alice", PASSWORD),
    )

    assert response.status_code == 201, response.json()
    key = response.json()["key"]
    assert api_client.get(ME, **token_header(key)).json()["username"] == "alice"


def test_token_create_with_wrong_basic_password(api_client, alice):
    response = api_client.post(TOKENS, {"name": "cli"}, **basic_header("alice", "wrong"))

    assert response.status_code == 401
    assert response.json()["detail"] == "Invalid username/password."
    assert response["WWW-Authenticate"].startswith("Basic")
    assert not ApiToken.objects.exists()


def test_token_create_needs_a_unique_active_name(api_client, alice):
    api_client.force_login(alice)
    api_client.post(TOKENS, {"name": "cli"})

    response = api_client.post(TOKENS, {"name": "cli"})

    assert response.status_code == 400
    assert response.json()["errors"]["name"] == [
        "You already have an active token with this name; pick another."
    ]


def test_token_name_is_free_again_after_revoking(api_client, alice):
    token, _ = api_token_create(user=alice, name="cli")
    api_client.force_login(alice)
    api_client.delete(f"{TOKENS}{token.pk}/")

    response = api_client.post(TOKENS, {"name": "cli"})

    assert response.status_code == 201


def test_token_create_requires_a_name(api_client, alice):
    api_client.force_login(alice)

    response = api_client.post(TOKENS, {})

    assert response.status_code == 400
    assert response.json()["errors"] == {"name": ["This field is required."]}


def test_token_list_shows_only_own_active_tokens(api_client, alice, bob):
    api_token_create(user=alice, name="one")
    api_token_create(user=alice, name="two")
    revoked, _ = api_token_create(user=alice, name="old")
    api_token_create(user=bob, name="bobs")
    api_client.force_login(alice)
    api_client.delete(f"{TOKENS}{revoked.pk}/")

    response = api_client.get(TOKENS)

    assert [t["name"] for t in response.json()] == ["two", "one"]
    assert all("key" not in t for t in response.json())


def test_revoke_keeps_the_row_and_the_key_stops_working(api_client, alice):
    token, key = api_token_create(user=alice, name="cli")
    assert api_client.get(ME, **token_header(key)).status_code == 200

    response = api_client.delete(f"{TOKENS}{token.pk}/", **token_header(key))

    assert response.status_code == 204
    token.refresh_from_db()
    assert token.revoked_at is not None
    response = api_client.get(ME, **token_header(key))
    assert response.status_code == 401
    assert response.json() == {
        "code": "authentication_failed",
        "detail": "This API token has been revoked.",
    }


def test_revoke_another_users_token_is_404(api_client, alice, bob):
    bobs, bobs_key = api_token_create(user=bob, name="cli")
    api_client.force_login(alice)

    response = api_client.delete(f"{TOKENS}{bobs.pk}/")

    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "detail": "You have no API token with this id."}
    bobs.refresh_from_db()
    assert bobs.revoked_at is None
    assert api_client.get(ME, **token_header(bobs_key)).json()["username"] == "bob"


def test_unknown_token_is_401(api_client, alice):
    response = api_client.get(ME, **token_header("not-a-real-key"))

    assert response.status_code == 401
    assert response.json() == {"code": "authentication_failed", "detail": "Invalid API token."}


def test_malformed_token_header_is_401(api_client):
    response = api_client.get(ME, HTTP_AUTHORIZATION="Token two parts")

    assert response.status_code == 401
    assert "Malformed Authorization header" in response.json()["detail"]


def test_suspended_users_token_is_401_and_works_again_after_reactivation(api_client, alice):
    from accounts.services import user_reactivate

    _, key = api_token_create(user=alice, name="cli")
    root = make_superuser()
    user_suspend(user=alice, actor=root, reason="Abusive chat")

    response = api_client.get(ME, **token_header(key))

    assert response.status_code == 401
    assert response.json() == {
        "code": "authentication_failed",
        "detail": "This account is suspended.",
    }
    user_reactivate(user=alice, actor=root, reason="Appeal accepted")
    assert api_client.get(ME, **token_header(key)).status_code == 200


def test_suspended_user_cannot_get_a_token_with_basic_auth(api_client, alice):
    user_suspend(user=alice, actor=make_superuser(), reason="Spam")

    response = api_client.post(TOKENS, {"name": "cli"}, **basic_header("alice", PASSWORD))

    assert response.status_code == 401


def test_last_used_at_is_written_at_most_once_a_minute(api_client, alice):
    token, key = api_token_create(user=alice, name="cli")
    start = timezone.now()
    with time_machine.travel(start, tick=False) as traveller:
        api_client.get(ME, **token_header(key))
        token.refresh_from_db()
        assert token.last_used_at == start

        traveller.shift(timedelta(seconds=59))
        api_client.get(ME, **token_header(key))
        token.refresh_from_db()
        assert token.last_used_at == start

        traveller.shift(timedelta(seconds=2))
        api_client.get(ME, **token_header(key))
        token.refresh_from_db()
        assert token.last_used_at == start + timedelta(seconds=61)


# --- Password reset -----------------------------------------------------------------------


def test_password_reset_unknown_email_is_202_and_sends_nothing(api_client, mailoutbox):
    response = api_client.post(RESET, {"email": "nobody@example.org"})

    assert response.status_code == 202
    assert response.json()["detail"].startswith("If an account uses this address")
    assert mailoutbox == []


def test_password_reset_invalid_email_is_400(api_client):
    response = api_client.post(RESET, {"email": "nope"})

    assert response.status_code == 400
    assert response.json()["errors"] == {"email": ["Enter a valid email address."]}


def test_password_reset_suspended_user_gets_no_email(
    api_client, alice, mailoutbox, django_capture_on_commit_callbacks
):
    user_suspend(user=alice, actor=make_superuser(), reason="Spam")

    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(RESET, {"email": "alice@example.org"})

    assert response.status_code == 202
    assert mailoutbox == []


def test_password_reset_email_link_sets_a_new_password(
    api_client, client, alice, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(RESET, {"email": "ALICE@example.org"})

    assert response.status_code == 202
    assert len(mailoutbox) == 1
    message = mailoutbox[0]
    assert message.to == ["alice@example.org"]
    assert message.subject == "Reset your Celtic! password"
    link = re.search(r"https://celtic\.example(/accounts/reset/\S+/\S+/)", message.body)
    assert link, message.body

    page = client.get(link.group(1), follow=True)
    assert page.status_code == 200
    assert page.context["validlink"] is True
    form_url = page.redirect_chain[-1][0]
    done = client.post(
        form_url, {"new_password1": "a-brand-new-secret-7", "new_password2": "a-brand-new-secret-7"}
    )

    assert done.status_code == 302
    assert done["Location"] == "/accounts/reset/done/"
    alice.refresh_from_db()
    assert alice.check_password("a-brand-new-secret-7")
    assert client.get(link.group(1), follow=True).context["validlink"] is False


def test_password_reset_is_throttled_per_client(
    api_client, alice, mailoutbox, django_capture_on_commit_callbacks
):
    for _ in range(5):
        with django_capture_on_commit_callbacks(execute=True):
            assert api_client.post(RESET, {"email": "alice@example.org"}).status_code == 202

    response = api_client.post(RESET, {"email": "alice@example.org"})

    assert response.status_code == 429
    assert response.json()["code"] == "throttled"
    assert len(mailoutbox) == 5


# --- Schema -------------------------------------------------------------------------------


def test_openapi_schema_documents_the_endpoints_and_token_scheme():
    from django.urls import include, path
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator
    from openapi_spec_validator import validate

    GENERATOR_STATS.reset()
    generator = SchemaGenerator(patterns=[path("api/v1/accounts/", include("accounts.api_urls"))])
    schema = generator.get_schema(request=None, public=True)

    assert not GENERATOR_STATS._warn_cache, dict(GENERATOR_STATS._warn_cache)
    assert not GENERATOR_STATS._error_cache, dict(GENERATOR_STATS._error_cache)
    validate(schema)
    assert schema["components"]["securitySchemes"]["apiToken"] == {
        "type": "apiKey",
        "in": "header",
        "name": "Authorization",
        "description": (
            "A key from POST /api/v1/accounts/tokens/, sent as `Authorization: Token <key>`."
        ),
    }
    paths = schema["paths"]
    assert set(paths) == {
        "/api/v1/accounts/signup/",
        "/api/v1/accounts/me/",
        "/api/v1/accounts/tokens/",
        "/api/v1/accounts/tokens/{token_id}/",
        "/api/v1/accounts/password-reset/",
        "/api/v1/accounts/me/vacation/",
        "/api/v1/accounts/me/vacation/end/",
    }
    token_create = paths["/api/v1/accounts/tokens/"]["post"]
    assert {"basicAuth": []} in token_create["security"]
    assert {"apiToken": []} in token_create["security"]
    assert paths["/api/v1/accounts/signup/"]["post"]["summary"] == "Sign up"
    assert set(paths["/api/v1/accounts/signup/"]["post"]["responses"]) == {
        "202",
        "400",
        "413",  # the body is too large
        "415",  # the body is not JSON
        "429",  # throttled
    }
    for operations in paths.values():
        for operation in operations.values():
            assert operation["summary"]


# --- look-alike names (issue 27, item 10) ------------------------------------------------------


@pytest.mark.parametrize(
    ("existing", "username", "message"),
    [
        ("ra", "r\u0430", "The username mixes scripts whose letters look alike (Cyrillic, Latin)"),
        ("org1", "\u03bfrg1", "The username mixes scripts whose letters look alike (Greek, Latin)"),
        ("pa", "\u0440\u0430", "This username looks like 'pa', which is taken"),  # all Cyrillic
        ("ra", "\uff52\uff41", "This username is taken (usernames ignore case)."),  # full width
        ("ra", "r\u200da", "Enter a valid username."),  # a zero-width joiner
    ],
)
def test_signup_refuses_a_username_that_looks_like_another(api_client, existing, username, message):
    make_user(existing)

    response = api_client.post(
        SIGNUP, {"username": username, "email": "look@example.org", "password": PASSWORD}
    )

    assert response.status_code == 400
    assert message in response.json()["errors"]["username"][0]
    assert not User.objects.filter(email="look@example.org").exists()


@pytest.mark.parametrize(
    "username", ["\u0438\u0432\u0430\u043d", "Zo\u00eb", "org_1", "\u03b1\u03b8\u03b7\u03bd\u03ac"]
)
def test_signup_takes_a_name_in_one_script(api_client, username):
    """Cyrillic, Greek or accented Latin alone is fine: only a mix of look-alikes is refused."""
    make_user("ra")

    response = api_client.post(
        SIGNUP, {"username": username, "email": "one@example.org", "password": PASSWORD}
    )

    assert response.status_code == 202, response.json()
    assert User.objects.get(email="one@example.org").username == username


@pytest.mark.parametrize(
    ("display_name", "message"),
    [
        ("evil\u202egnp.exe", "an invisible formatting character (U+202E)"),  # RTL override
        ("Al\u200bice", "an invisible formatting character (U+200B)"),  # zero-width space
        ("Bell\x07", "a control character (U+0007)"),
        ("Z" + "\u0301" * 20, "more than 3 accents or other combining marks on one letter"),
    ],
)
def test_display_names_refuse_invisible_and_stacked_characters(
    api_client, alice, display_name, message
):
    created = api_client.post(
        SIGNUP,
        {
            "username": "dan",
            "email": "dan@example.org",
            "password": PASSWORD,
            "display_name": display_name,
        },
    )
    api_client.force_login(alice)
    changed = api_client.patch(ME, {"display_name": display_name})

    for answer in (created, changed):
        assert answer.status_code == 400
        assert message in answer.json()["errors"]["display_name"][0]
    assert Profile.objects.get(user=alice).display_name == "Alice A."


def test_a_display_name_keeps_its_accents(api_client, alice):
    api_client.force_login(alice)

    response = api_client.patch(ME, {"display_name": "Nguy\u1ec5n \u00c1o\u0301\u0323"})

    assert response.status_code == 200
    assert Profile.objects.get(user=alice).display_name == "Nguy\u1ec5n \u00c1o\u0301\u0323"
