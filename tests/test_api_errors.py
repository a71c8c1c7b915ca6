"""Every answer of the API is JSON and documented: unknown paths, bad pages, big bodies, and
the error responses the OpenAPI document lists for each operation."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from jsonschema import validate as validate_json

from tests.accounts.factories import make_user
from tests.games.conftest import token_client

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    """The OpenAPI document as /api/schema/?format=json serves it."""
    schema = SchemaGenerator().get_schema(public=True)
    return json.loads(OpenApiJsonRenderer().render(schema))


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
    ]


def error_schema(document: dict[str, Any]) -> dict[str, Any]:
    return {**document["components"]["schemas"]["Error"], "components": document["components"]}


# --- unknown paths ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/v1/nothing-here/"),
        ("post", "/api/v2/games/"),
        ("get", "/api/v1/games/not-a-number/"),
        ("delete", "/api/v1/accounts/tokens/-3/"),
        ("get", "/api/"),
    ],
)
def test_an_unknown_api_path_answers_a_json_404(client, document, method, path):
    response = getattr(client, method)(path)

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == "not_found"
    assert body["detail"].startswith(f"No API endpoint at {path!r}")
    validate_json(body, error_schema(document))


def test_a_missing_trailing_slash_is_pointed_out(client):
    body = client.get("/api/v1/games").json()
    assert body["detail"] == (
        "No API endpoint at '/api/v1/games'; the paths end with a slash: '/api/v1/games/'. "
        "The endpoints are listed at /api/docs/."
    )


def test_web_pages_keep_their_html_404(client):
    response = client.get("/games/not-a-number/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


# --- lists and pages --------------------------------------------------------------------------


def test_the_rankings_list_is_documented_as_the_page_it_answers(client, document):
    listing = document["paths"]["/api/v1/rankings/"]["get"]
    ok = listing["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok == {"$ref": "#/components/schemas/PaginatedRankingEntryOutputList"}
    assert {"cursor", "page_size"} <= {p["name"] for p in listing["parameters"]}
    assert "page" not in {p["name"] for p in listing["parameters"]}
    page = document["components"]["schemas"]["PaginatedRankingEntryOutputList"]
    assert set(page["properties"]) == {"next", "previous", "results"}

    body = client.get("/api/v1/rankings/").json()
    assert body == {"next": None, "previous": None, "results": []}


@pytest.mark.parametrize("size", ["abc", "0", "-1", "101", "2.5"])
def test_a_bad_page_size_is_refused_not_ignored(client, document, size):
    response = client.get(f"/api/v1/games/?page_size={size}")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert response.json()["detail"] == (
        f"page_size: {size!r} is not a page size: expected a whole number from 1 to 100."
    )
    validate_json(response.json(), error_schema(document))


def test_a_page_size_within_bounds_is_used(client):
    alice, bob = make_user("alice"), make_user("bob")
    from games import services

    for _ in range(3):
        services.challenge_create(challenger=alice, opponent=bob)
    body = client.get("/api/v1/challenges/?page_size=2").json()
    assert (body["count"], len(body["results"])) == (0, 0)  # addressed ones are not open seeks
    body = token_client(alice).get("/api/v1/challenges/?scope=outgoing&page_size=2").json()
    assert (body["count"], len(body["results"])) == (3, 2)


def test_page_parameters_are_documented_with_their_bounds(document):
    parameters = {p["name"]: p for p in document["paths"]["/api/v1/games/"]["get"]["parameters"]}
    assert parameters["page_size"]["schema"] == {"type": "integer", "minimum": 1, "maximum": 100}
    assert parameters["cursor"]["schema"] == {"type": "string"}
    assert "page" not in parameters
    listing = document["paths"]["/api/v1/challenges/"]["get"]["parameters"]
    parameters = {p["name"]: p for p in listing}
    assert parameters["page_size"]["schema"] == {"type": "integer", "minimum": 1, "maximum": 100}
    assert parameters["page"]["schema"] == {"type": "integer", "minimum": 1}


# --- bodies -----------------------------------------------------------------------------------


def test_a_body_over_the_limit_is_refused_unread(settings, document):
    settings.API_MAX_BODY_BYTES = 1000
    alice = token_client(make_user("alice"))
    body = '{"display_name": "' + "a" * 1000 + '"}'

    response = alice.generic("PATCH", "/api/v1/accounts/me/", body, "application/json")

    assert response.status_code == 413
    assert response.json() == {
        "code": "request_too_large",
        "detail": "The request body is larger than 1,000 bytes.",
    }
    validate_json(response.json(), error_schema(document))
    assert alice.get("/api/v1/accounts/me/").json()["display_name"] == ""


def test_malformed_json_is_a_400_with_the_error_body(document):
    alice = token_client(make_user("alice"))
    response = alice.generic("PATCH", "/api/v1/accounts/me/", "{nope", "application/json")

    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"
    validate_json(response.json(), error_schema(document))


# --- the document lists what the plumbing can answer ------------------------------------------


def test_every_operation_documents_the_errors_the_plumbing_can_give(document):
    for method, path, operation in operations(document):
        codes = set(operation["responses"])
        name = f"{method} {path}"
        assert "429" in codes, name
        if "{" in path:
            assert "404" in codes, name
        if "requestBody" in operation:
            assert {"400", "413", "415"} <= codes, name
        if any(p["name"] == "page" for p in operation.get("parameters", [])):
            assert {"400", "404"} <= codes, name
        if operation.get("security") != [{}] and path not in {
            "/api/v1/accounts/signup/",
            "/api/v1/accounts/password-reset/",
        }:
            assert "401" in codes, name


def test_every_documented_error_is_the_error_body(document):
    for method, path, operation in operations(document):
        for code, response in operation["responses"].items():
            if int(code) < 400:
                continue
            schema = response["content"]["application/json"]["schema"]
            assert schema == {"$ref": "#/components/schemas/Error"}, (method, path, code)


# --- the document states what the profile fields accept ---------------------------------------


@pytest.mark.parametrize("component", ["SignupInputRequest", "PatchedProfileUpdateInputRequest"])
def test_profile_fields_are_documented_with_the_values_they_accept(document, component):
    fields = document["components"]["schemas"][component]["properties"]

    zones = enum_values(document, fields["time_zone"])
    assert {"UTC", "Europe/Dublin"} <= zones and "0" not in zones
    countries = enum_values(document, fields["country"])
    assert {"", "IE", "ie", "FR"} <= countries and "UK" not in countries


def enum_values(document: dict[str, Any], schema: dict[str, Any]) -> set[str]:
    """Every value an enum schema allows, following $ref, oneOf and allOf."""
    if "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    values = set(schema.get("enum", []))
    for part in schema.get("oneOf", []) + schema.get("allOf", []):
        values |= enum_values(document, part)
    return values


def test_reminder_hours_are_documented_with_their_bounds(document):
    fields = document["components"]["schemas"]["PatchedProfileUpdateInputRequest"]["properties"]
    assert fields["reminder_hours"]["items"] == {"type": "integer", "minimum": 1, "maximum": 336}
    assert (fields["reminder_hours"]["maxItems"], fields["reminder_hours"]["uniqueItems"]) == (
        4,
        True,
    )


def test_a_documented_time_zone_and_country_are_accepted(document):
    alice = token_client(make_user("alice"))
    fields = document["components"]["schemas"]["PatchedProfileUpdateInputRequest"]["properties"]
    zone = sorted(enum_values(document, fields["time_zone"]))[0]
    body = {"time_zone": zone, "country": "ie", "reminder_hours": [336]}

    response = alice.patch("/api/v1/accounts/me/", body, format="json")

    assert response.status_code == 200, response.json()
    assert (response.json()["country"], response.json()["reminder_hours"]) == ("IE", [336])


def test_text_fields_are_documented_without_nul_characters(document):
    """DRF refuses a NUL character in any text field (PostgreSQL text cannot hold one)."""
    schemas = document["components"]["schemas"]
    for component, field in [
        ("MessageHideInputRequest", "reason"),
        ("MessageInputRequest", "body"),
        ("MoveInputRequest", "move"),
        ("SignupInputRequest", "username"),
        ("ApiTokenCreateInputRequest", "name"),
    ]:
        assert schemas[component]["properties"][field]["pattern"] == "^[^\\u0000]*$", component


def test_only_request_text_is_documented_without_nul_characters(document):
    """Answers and query parameters keep their plain strings: the rule is for what a client
    sends in a body (and DRF refuses there)."""
    schemas = document["components"]["schemas"]
    marked = sorted(
        name
        for name, schema in schemas.items()
        for field in schema.get("properties", {}).values()
        if field.get("pattern") == "^[^\\u0000]*$"
    )
    assert marked and all(name.endswith("Request") for name in marked), marked
    assert "pattern" not in schemas["ApiTokenOutput"]["properties"]["name"]
    for method, path, operation in operations(document):
        for parameter in operation.get("parameters", []):
            assert parameter["schema"].get("pattern") != "^[^\\u0000]*$", (method, path)


def test_a_nul_character_is_refused_as_documented():
    alice = token_client(make_user("alice"))
    response = alice.post("/api/v1/accounts/tokens/", {"name": "a\u0000b"}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == "name: Null characters are not allowed."


def test_a_field_with_its_own_pattern_keeps_it(document):
    parameters = document["paths"]["/api/v1/rankings/"]["get"]["parameters"]
    country = next(p for p in parameters if p["name"] == "country")
    assert country["schema"]["pattern"] == "^[A-Za-z]{2}$"


# --- unexpected errors --------------------------------------------------------------------


@pytest.fixture
def failing_view(monkeypatch):
    """An API view and a page view that raise, as a bug would, with DEBUG off (production)."""

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr("leagues.selectors.league_list", boom)  # the API's and the page's


def test_a_server_error_under_the_api_is_the_json_error_body(settings, document, failing_view):
    settings.DEBUG = False
    client = Client(raise_request_exception=False)

    response = client.get("/api/v1/leagues/")

    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == "server_error"
    assert "try again later" in body["detail"]
    assert "a bug" not in body["detail"]  # nothing of the failure leaks to the client
    validate_json(body, error_schema(document))


def test_a_server_error_on_a_page_stays_the_html_page(settings, failing_view):
    settings.DEBUG = False
    client = Client(raise_request_exception=False)

    response = client.get("/leagues/")

    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")
