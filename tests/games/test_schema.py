"""The OpenAPI document: generated without warnings, valid, complete, and served."""

from __future__ import annotations

import io
from typing import Any

import pytest
import yaml
from django.core.management import call_command
from openapi_schema_validator import OAS30ReadValidator
from openapi_spec_validator import validate
from rest_framework.test import APIClient

from games import services
from tests.accounts.factories import make_user
from tests.games.conftest import API, submit, token_client

GAME_PATHS = {
    "/api/v1/challenges/": {"get", "post"},
    "/api/v1/challenges/{challenge_id}/": {"get"},
    "/api/v1/challenges/{challenge_id}/accept/": {"post"},
    "/api/v1/challenges/{challenge_id}/decline/": {"post"},
    "/api/v1/challenges/{challenge_id}/cancel/": {"post"},
    "/api/v1/games/": {"get"},
    "/api/v1/games/{game_id}/": {"get"},
    "/api/v1/games/{game_id}/moves/": {"get", "post"},
    "/api/v1/games/{game_id}/legal-moves/": {"get"},
    "/api/v1/games/{game_id}/positions/{ply}/": {"get"},
    "/api/v1/games/{game_id}/resign/": {"post"},
    "/api/v1/games/{game_id}/record/": {"get"},
    "/api/v1/game-kinds/": {"get"},
    "/api/v1/game-kinds/{kind_id}/": {"get"},
}


@pytest.fixture(scope="module")
def schema(tmp_path_factory) -> dict:
    path = tmp_path_factory.mktemp("schema") / "openapi.yaml"
    out, err = io.StringIO(), io.StringIO()
    call_command(
        "spectacular",
        "--validate",
        "--fail-on-warn",
        "--file",
        str(path),
        stdout=out,
        stderr=err,
    )
    assert err.getvalue() == ""  # drf-spectacular prints its warnings and errors here
    assert "Warning" not in out.getvalue() and "Error" not in out.getvalue()
    return yaml.safe_load(path.read_text())


def test_the_schema_generates_without_warnings_and_validates(schema):
    validate(schema)  # openapi-spec-validator: raises on any problem
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "Celtic! correspondence API"


def test_every_games_operation_is_documented(schema):
    for path, methods in GAME_PATHS.items():
        assert set(schema["paths"][path]) >= methods, path
        for method in methods:
            operation = schema["paths"][path][method]
            assert operation["summary"], (path, method)
            assert "404" in operation["responses"] or path in {
                "/api/v1/challenges/",
                "/api/v1/games/",
                "/api/v1/game-kinds/",
            }


def test_the_move_submission_is_fully_described(schema):
    post = schema["paths"]["/api/v1/games/{game_id}/moves/"]["post"]
    assert {"201", "400", "403", "404", "409"} <= set(post["responses"])
    assert any(p["name"] == "Idempotency-Key" and p["in"] == "header" for p in post["parameters"])
    error = schema["components"]["schemas"]["Error"]["properties"]
    assert {"code", "detail", "rule", "current_ply", "expected"} <= set(error)
    move_input = schema["components"]["schemas"]["MoveInputRequest"]
    assert move_input["required"] == ["move", "ply"]


def test_a_position_is_one_of_the_kinds_shapes(schema):
    """Celtic!'s keeps its component name (generated clients use it); Celtic Knot's is added."""
    components = schema["components"]["schemas"]
    kinds = {"oneOf": [{"$ref": f"#/components/schemas/{name}"} for name in POSITIONS.values()]}
    assert components["GamePosition"] == kinds
    game = components["GameDetail"]["properties"]["position"]
    assert game["allOf"] == [{"$ref": "#/components/schemas/GamePosition"}]
    replay = schema["paths"]["/api/v1/games/{game_id}/positions/{ply}/"]["get"]["responses"]
    ok = replay["200"]["content"]["application/json"]["schema"]
    assert ok == {"$ref": "#/components/schemas/GamePosition"}


def test_every_key_of_a_knot_position_is_required_and_explained(schema):
    knot = schema["components"]["schemas"]["KnotPosition"]
    assert set(knot["required"]) == set(knot["properties"]) >= {"phase", "flips", "coins"}
    assert all(spec.get("description") for spec in knot["properties"].values())
    phases = schema["components"]["schemas"]["KnotPhaseEnum"]["enum"]
    assert phases == ["square", "route", "extra", "over"]


POSITIONS = {"celtic": "Position", "knot": "KnotPosition"}
"""The schema component of each kind's position."""


def validator(schema: dict[str, Any], component: str) -> OAS30ReadValidator:
    """Checks an answer against ``component`` of the document (its references resolved)."""
    return OAS30ReadValidator(
        {"components": schema["components"], "$ref": f"#/components/schemas/{component}"}
    )


def positions_of_a_game(kind: str) -> list[dict[str, Any]]:
    """A game of ``kind`` for two, two choices into it: its positions as the API answers them
    (the detail's, and each ply's replay)."""
    ann, ben = make_user(f"ann_{kind}"), make_user(f"ben_{kind}")
    challenge = services.challenge_create(challenger=ann, opponent=ben, kind=kind, seat_choice=1)
    game_id = services.challenge_accept(challenge_id=challenge.pk, user=ben).pk
    by_seat = {1: token_client(ann), 2: token_client(ben)}
    for ply in range(2):
        legal = APIClient().get(f"{API}/games/{game_id}/legal-moves/").json()
        answer = submit(by_seat[legal["seat_to_move"]], game_id, ply, legal["moves"][0])
        assert answer.status_code == 201, answer.json()
    detail = APIClient().get(f"{API}/games/{game_id}/").json()
    replays = [APIClient().get(f"{API}/games/{game_id}/positions/{ply}/") for ply in range(3)]
    assert all(replay.status_code == 200 for replay in replays)
    return [detail["position"], *(replay.json() for replay in replays)]


@pytest.mark.django_db
@pytest.mark.parametrize("kind", sorted(POSITIONS))
def test_a_real_games_positions_match_their_kinds_component_only(schema, kind):
    positions = positions_of_a_game(kind)
    own, game_position = validator(schema, POSITIONS[kind]), validator(schema, "GamePosition")
    others = [validator(schema, name) for other, name in POSITIONS.items() if other != kind]
    for position in positions:
        own.validate(position)  # raises, saying which key is wrong
        game_position.validate(position)  # exactly one of the shapes
        assert not any(other.is_valid(position) for other in others)
    if kind == "knot":  # before and after the square: both phases of a turn
        assert (positions[1]["phase"], positions[2]["phase"]) == ("square", "route")


@pytest.mark.django_db
def test_a_knot_position_off_its_shape_is_refused(schema):
    position = positions_of_a_game("knot")[2]  # after the square: its flips, destinations
    knot = validator(schema, "KnotPosition")
    assert position["phase"] == "route" and position["flips"] and position["destinations"]
    for key, wrong in (("phase", "flip"), ("flips", 2), ("coins", {"1": "six"})):
        assert not knot.is_valid({**position, key: wrong}), key
    missing = {key: value for key, value in position.items() if key != "destinations"}
    assert not knot.is_valid(missing)


DEPRECATED = {
    "GameSummary": {"orange", "blue", "to_move", "orange_seconds_left", "blue_seconds_left"},
    "GameDetail": {
        "orange", "blue", "to_move", "orange_seconds_left", "blue_seconds_left", "your_side",
    },
    "Clock": {"side"},
    "Turn": {"side"},
    "LiveStatus": {"to_move"},
    "LegalMoves": {"to_move"},
    "ChallengeOutput": {"colour"},
    "ChallengeInputRequest": {"colour"},
}  # fmt: skip


def test_the_colour_fields_are_deprecated_and_the_seat_fields_are_not(schema):
    components = schema["components"]["schemas"]
    for name, fields in DEPRECATED.items():
        properties = components[name]["properties"]
        deprecated = {field for field, spec in properties.items() if spec.get("deprecated")}
        assert deprecated == fields, name
    game = components["GameDetail"]["properties"]
    assert {"kind", "seat_count", "seats", "seat_to_move", "your_seat"} <= set(game)
    assert set(components["GameSeat"]["properties"]) == {
        "seat", "name", "user", "seconds_left", "place", "left_at_ply",
    }  # fmt: skip
    assert {"kind", "seat_count", "seat"} <= set(components["ChallengeInputRequest"]["properties"])


def test_accepting_is_documented_with_both_answers(schema):
    accept = schema["paths"]["/api/v1/challenges/{challenge_id}/accept/"]["post"]["responses"]
    ref = accept["201"]["content"]["application/json"]["schema"]["$ref"]
    assert ref == "#/components/schemas/GameDetail"
    ref = accept["200"]["content"]["application/json"]["schema"]["$ref"]
    assert ref == "#/components/schemas/ChallengeOutput"


def test_lists_are_documented_as_pages(schema):
    listing = schema["paths"]["/api/v1/games/"]["get"]
    ok = listing["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok["$ref"] == "#/components/schemas/PaginatedGameSummaryList"
    assert {"cursor", "page_size", "mine", "my_turn", "player", "status"} <= {
        p["name"] for p in listing["parameters"]
    }
    page = schema["components"]["schemas"]["PaginatedGameSummaryList"]
    assert page["required"] == ["results"]
    assert set(page["properties"]) == {"next", "previous", "results"}  # no count
    assert page["properties"]["next"]["nullable"] is True


def test_both_authentications_are_declared(schema):
    schemes = schema["components"]["securitySchemes"]
    assert any(s.get("type") == "apiKey" and s.get("in") == "cookie" for s in schemes.values())
    assert any(
        s.get("type") == "apiKey" and s.get("name") == "Authorization" for s in schemes.values()
    ), schemes


@pytest.mark.django_db
def test_the_schema_and_the_docs_are_served(client):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    served = yaml.safe_load(response.content)
    assert "/api/v1/games/{game_id}/moves/" in served["paths"]
    validate(served)
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger-ui" in docs.content
    # Swagger UI's start-up script is a file of its own (the CSP allows no inline script).
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200
    assert b"/api/schema/" in script.content
