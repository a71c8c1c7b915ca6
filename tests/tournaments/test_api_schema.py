"""The tournaments part of the OpenAPI document: every operation has a summary, its request
body and every answer it can give (errors as ``{code, detail}``)."""

from __future__ import annotations

import io

import pytest
import yaml
from django.core.management import call_command

T = "/api/v1/tournaments"
# path -> {method: the statuses documented}
OPERATIONS = {
    f"{T}/": {"get": {"200", "400"}, "post": {"201", "400", "401", "403"}},
    f"{T}/import-trf/": {"post": {"201", "400", "401", "403"}},
    f"{T}/{{tournament_id}}/": {
        "get": {"200", "404"},
        "patch": {"200", "400", "401", "403", "404", "409"},
    },
    f"{T}/{{tournament_id}}/standings/": {"get": {"200", "404"}},
    f"{T}/{{tournament_id}}/crosstable/": {"get": {"200", "404"}},
    f"{T}/{{tournament_id}}/trf/": {"get": {"200", "404", "409"}},
    f"{T}/{{tournament_id}}/register/": {"post": {"201", "400", "401", "403", "404", "409"}},
    f"{T}/{{tournament_id}}/withdraw/": {"post": {"200", "401", "404", "409"}},
    f"{T}/{{tournament_id}}/open-registration/": {
        "post": {"200", "400", "401", "403", "404", "409"}
    },
    f"{T}/{{tournament_id}}/start/": {"post": {"200", "401", "403", "404", "409"}},
    f"{T}/{{tournament_id}}/cancel/": {"post": {"200", "400", "401", "403", "404", "409"}},
    f"{T}/{{tournament_id}}/invite/": {"post": {"201", "400", "401", "403", "404", "409"}},
    f"{T}/{{tournament_id}}/entries/{{entry_id}}/approve/": {
        "post": {"200", "401", "403", "404", "409"}
    },
    f"{T}/{{tournament_id}}/entries/{{entry_id}}/decline/": {
        "post": {"200", "401", "403", "404", "409"}
    },
    f"{T}/{{tournament_id}}/entries/{{entry_id}}/remove/": {
        "post": {"200", "400", "401", "403", "404", "409"}
    },
    f"{T}/{{tournament_id}}/pairings/": {"post": {"201", "400", "401", "403", "404", "409"}},
    f"{T}/{{tournament_id}}/byes/": {"post": {"201", "400", "401", "404", "409"}},
    f"{T}/{{tournament_id}}/byes/{{round_number}}/": {"delete": {"204", "401", "404", "409"}},
    f"{T}/{{tournament_id}}/entries/{{entry_id}}/bye/": {
        "post": {"201", "400", "401", "403", "404", "409"}
    },
    f"{T}/{{tournament_id}}/forbidden-pairs/": {"put": {"200", "400", "401", "403", "404", "409"}},
    f"{T}/{{tournament_id}}/games/{{tournament_game_id}}/adjudicate/": {
        "post": {"200", "400", "401", "403", "404", "409"}
    },
    f"{T}/{{tournament_id}}/games/{{tournament_game_id}}/fix-result/": {
        "post": {"200", "400", "401", "403", "404", "409"}
    },
    f"{T}/{{tournament_id}}/matches/{{match_id}}/decide/": {
        "post": {"200", "400", "401", "403", "404", "409"}
    },
}


@pytest.fixture(scope="module")
def schema() -> dict:
    out = io.StringIO()
    call_command("spectacular", "--validate", "--fail-on-warn", stdout=out, stderr=io.StringIO())
    return yaml.safe_load(out.getvalue())


def test_every_tournaments_operation_is_documented(schema):
    documented = {path for path in schema["paths"] if path.startswith(f"{T}/")}
    assert documented == set(OPERATIONS)
    for path, methods in OPERATIONS.items():
        assert set(schema["paths"][path]) - {"parameters"} == set(methods), path
        for method, statuses in methods.items():
            operation = schema["paths"][path][method]
            assert operation["summary"] and operation["tags"] == ["tournaments"], (path, method)
            assert set(operation["responses"]) == statuses, (path, method)
            for status in statuses - {"200", "201", "204"}:  # 204: no body
                body = operation["responses"][status]["content"]["application/json"]["schema"]
                assert body == {"$ref": "#/components/schemas/Error"}, (path, method, status)


def test_the_standings_and_the_trf_download_are_described(schema):
    row = schema["components"]["schemas"]["StandingsRow"]["properties"]
    assert {"best_place", "worst_place", "clinched", "eliminated", "tiebreaks"} <= set(row)
    trf = schema["paths"][f"{T}/{{tournament_id}}/trf/"]["get"]["responses"]["200"]
    assert list(trf["content"]) == ["text/plain"]
    listing = schema["paths"][f"{T}/"]["get"]
    [status] = [p for p in listing["parameters"] if p["name"] == "status"]
    assert sorted(status["schema"]["enum"]) == ["finished", "open", "running"]
