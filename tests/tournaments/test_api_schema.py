"""The tournaments part of the OpenAPI document: every operation has a summary, its request
body and every answer it can give (errors as ``{code, detail}``): the statuses it documents
itself, plus those the project's schema class (``celticsite.schema.AutoSchema``) adds for the
plumbing every request goes through."""

from __future__ import annotations

import io

import pytest
import yaml
from django.core.management import call_command

T = "/api/v1/tournaments"
# path -> {method: the statuses the view documents itself}
OPERATIONS = {
    f"{T}/": {"get": {"200", "400"}, "post": {"201", "400", "401", "403"}},
    f"{T}/import-trf/": {"post": {"201", "400", "401", "403"}},
    f"{T}/{{tournament_id}}/": {
        "get": {"200", "404"},
        "patch": {"200", "400", "401", "403", "404", "409"},
    },
    f"{T}/{{tournament_id}}/entries/": {"get": {"200", "400", "404"}},
    f"{T}/{{tournament_id}}/games/": {"get": {"200", "400", "404"}},
    f"{T}/{{tournament_id}}/standings/": {"get": {"200", "400", "404"}},
    f"{T}/{{tournament_id}}/crosstable/": {"get": {"200", "404", "409"}},
    f"{T}/{{tournament_id}}/rounds-table/": {"get": {"200", "404", "409"}},
    f"{T}/{{tournament_id}}/bracket/": {"get": {"200", "404"}},
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


# What the views themselves say about their errors (tournaments.api.ERRORS): each of the
# operation's own statuses is documented with its own words, not the plumbing's.
OWN_DESCRIPTIONS = {
    "400": "The request is invalid; see detail.",
    "401": "Log in (or send a token) first.",
    "403": "You may not do this; see code.",
    "404": "No such tournament (or not visible).",
    "409": "Not in this state of the event.",
}
TAKES_A_BODY = (
    *("/register/", "/cancel/", "/invite/", "/remove/", "/pairings/"),
    *("/adjudicate/", "/fix-result/", "/decide/", "/byes/", "/bye/"),
)
WITH_BODY = {
    (f"{T}/", "post"),
    (f"{T}/import-trf/", "post"),
    (f"{T}/{{tournament_id}}/", "patch"),
    (f"{T}/{{tournament_id}}/forbidden-pairs/", "put"),
    *((path, "post") for path in OPERATIONS if path.endswith(TAKES_A_BODY)),
}
PAGINATED = {(f"{T}/", "get")}


def plumbing_statuses(path: str, method: str) -> set[str]:
    """The errors any such request can meet before the view runs: wrong credentials (401)
    and throttling (429) anywhere; no such object (404) on a path with ids or a paginated
    list; a body that is invalid, too large or not JSON (400, 413, 415); a browser session
    without its CSRF token on a write (403)."""
    statuses = {"401", "429"}
    if "{" in path or (path, method) in PAGINATED:
        statuses.add("404")
    if (path, method) in WITH_BODY:
        statuses |= {"400", "413", "415"}
    if (path, method) in PAGINATED:
        statuses.add("400")  # a page or page size that is not a number
    if method != "get":
        statuses.add("403")
    return statuses


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
            responses = operation["responses"]
            assert set(responses) == statuses | plumbing_statuses(path, method), (path, method)
            for status in statuses - {"200", "201", "204"}:
                description = responses[status]["description"]
                assert description == OWN_DESCRIPTIONS[status], (path, method, status)
            for status in set(responses) - {"200", "201", "204"}:
                body = responses[status]["content"]["application/json"]["schema"]
                assert body == {"$ref": "#/components/schemas/Error"}, (path, method, status)


def test_the_standings_and_the_trf_download_are_described(schema):
    row = schema["components"]["schemas"]["StandingsRow"]["properties"]
    assert {"best_place", "worst_place", "clinched", "eliminated", "tiebreaks"} <= set(row)
    trf = schema["paths"][f"{T}/{{tournament_id}}/trf/"]["get"]["responses"]["200"]
    assert list(trf["content"]) == ["text/plain"]
    listing = schema["paths"][f"{T}/"]["get"]
    [status] = [p for p in listing["parameters"] if p["name"] == "status"]
    assert sorted(status["schema"]["enum"]) == ["finished", "open", "running"]


def test_the_round_table_and_the_bracket_are_described(schema):
    components = schema["components"]["schemas"]
    table = schema["paths"][f"{T}/{{tournament_id}}/rounds-table/"]["get"]["responses"]["200"]
    assert table["content"]["application/json"]["schema"]["items"]["$ref"].endswith(
        "/RoundTableOutput"
    )
    cell = components["RoundCell"]["properties"]
    assert set(cell) == {"round", "opponent", "colour", "mark", "points", "pending", "game_id"}
    assert "½B" in cell["mark"]["description"]
    bracket = schema["paths"][f"{T}/{{tournament_id}}/bracket/"]["get"]["responses"]["200"]
    assert bracket["content"]["application/json"]["schema"]["items"]["$ref"].endswith(
        "/BracketRound"
    )
    side = components["BracketSide"]["properties"]
    assert {"entry_id", "score", "winner", "from_match"} <= set(side)
    assert "byes" in components["CrosstableRow"]["properties"]
