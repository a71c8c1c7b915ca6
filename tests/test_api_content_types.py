"""The API reads JSON bodies only: any other content type is refused with 415 and the
project's JSON error body, before anything is read or changed."""

from __future__ import annotations

import base64
import re

import pytest
from rest_framework.test import APIClient

from accounts.models import Profile
from games import services
from games.models import Challenge, GameMessage
from tests.accounts.factories import PASSWORD, make_user
from tests.games.conftest import token_client
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

FORM = "application/x-www-form-urlencoded"
TOKENS = "/api/v1/accounts/tokens/"


@pytest.fixture
def alice_api() -> APIClient:
    return token_client(make_user("alice"))


def assert_refused_as_not_json(response, content_type: str) -> None:
    assert response.status_code == 415, response.content
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "code": "unsupported_media_type",
        "detail": f'Unsupported media type "{content_type}" in request.',
    }


def test_a_form_encoded_profile_change_is_refused_and_changes_nothing(alice_api):
    response = alice_api.patch("/api/v1/accounts/me/", "display_name=Alice", content_type=FORM)

    assert_refused_as_not_json(response, FORM)
    profile = Profile.objects.get(user__username="alice")
    assert profile.display_name == ""
    assert (profile.notify_turn, profile.notify_challenge, profile.notify_message) == (
        True,
        True,
        True,
    )


def test_a_multipart_challenge_is_refused_and_creates_nothing(alice_api):
    make_user("bob")
    response = alice_api.post(
        "/api/v1/challenges/",
        {"opponent": "bob", "time_control.kind": "none"},
        format="multipart",
    )

    assert response.status_code == 415, response.content
    assert response.json()["code"] == "unsupported_media_type"
    assert "multipart/form-data" in response.json()["detail"]
    assert not Challenge.objects.exists()


def test_the_same_change_sent_as_json_is_applied(alice_api):
    response = alice_api.patch("/api/v1/accounts/me/", {"display_name": "Alice"}, format="json")

    assert response.status_code == 200, response.json()
    assert response.json()["display_name"] == "Alice"
    assert response.json()["notify_turn"] is True


def test_a_token_is_created_with_http_basic_and_a_json_body(api_client):
    make_user("alice")
    basic = base64.b64encode(f"alice:{PASSWORD}".encode()).decode()
    api_client.credentials(HTTP_AUTHORIZATION=f"Basic {basic}")

    form = api_client.post(TOKENS, "name=cli", content_type=FORM)
    json_body = api_client.post(TOKENS, {"name": "cli"}, format="json")

    assert_refused_as_not_json(form, FORM)
    assert json_body.status_code == 201, json_body.json()


def test_every_request_body_in_the_openapi_document_is_json_only(client):
    document = client.get("/api/schema/?format=json").json()
    bodies = {
        f"{method.upper()} {path}": set(operation["requestBody"]["content"])
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if "requestBody" in operation
    }

    assert bodies  # the document has write operations with bodies
    assert {media for media in bodies.values() if media != {"application/json"}} == set()
    for name, operation in _operations_with_bodies(document):
        assert "415" in operation["responses"], name


def test_every_write_operation_refuses_a_form_body(alice_api, client):
    """Each operation of the document that takes a body, called with a form: refused before
    any lookup, so every path parameter (of any app) may name an object that does not exist."""
    document = client.get("/api/schema/?format=json").json()

    operations = _operations_with_bodies(document)
    for name, _ in operations:
        method, path = name.split(" ")
        response = alice_api.generic(method, _with_ids(path), "x=1", content_type=FORM)
        assert_refused_as_not_json(response, FORM)
    names = {name for name, _ in operations}
    assert {"POST /api/v1/games/{game_id}/moves/", "POST /api/v1/tournaments/import-trf/"} <= names
    assert "POST /api/v1/tournaments/{tournament_id}/matches/{match_id}/decide/" in names
    assert not Tournament.objects.exists()


def test_a_form_body_is_refused_even_where_the_object_exists(alice_api):
    """The game and the message are real: the answer is still 415, and nothing is posted."""
    bob = make_user("bob")
    alice = Profile.objects.get(user__username="alice").user
    challenge = services.challenge_create(challenger=alice, opponent=bob)
    game = services.challenge_accept(challenge_id=challenge.pk, user=bob)

    response = alice_api.post(f"/api/v1/games/{game.pk}/messages/", "body=hi", content_type=FORM)

    assert_refused_as_not_json(response, FORM)
    assert not GameMessage.objects.filter(game=game).exists()


def test_an_operation_without_a_body_refuses_one_it_cannot_read(alice_api):
    """A form sent where no body is expected is not ignored: 415, the event is not left."""
    response = alice_api.post("/api/v1/tournaments/1/withdraw/", "x=1", content_type=FORM)

    assert_refused_as_not_json(response, FORM)


def test_the_trf_import_takes_the_file_as_json_text_not_as_an_upload(alice_api):
    """TRF import is no exception to JSON only: the file travels as the ``trf`` string."""
    document = alice_api.get("/api/schema/?format=json").json()
    operation = document["paths"]["/api/v1/tournaments/import-trf/"]["post"]
    body = operation["requestBody"]["content"]

    assert list(body) == ["application/json"]
    upload = alice_api.post("/api/v1/tournaments/import-trf/", "012 Cup", content_type="text/plain")
    assert_refused_as_not_json(upload, "text/plain")


def _with_ids(path: str) -> str:
    """The path with a number for each of its parameters (``{game_id}``, ``{pk}``, ...)."""
    return re.sub(r"\{[^}]+\}", "1", path)


def _operations_with_bodies(document: dict) -> list[tuple[str, dict]]:
    return [
        (f"{method.upper()} {path}", operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if "requestBody" in operation
    ]
