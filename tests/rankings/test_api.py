"""The public ranking API and pages: list, filters, rank changes, player history, CSV."""

from __future__ import annotations

import csv
import io
from datetime import date

import pytest
import time_machine
from django.urls import reverse

from rankings.csvimport import ImportedResult
from rankings.models import Player, PlayerRating, RatedResult
from rankings.services import results_import

NOW = "2025-06-15T12:00:00Z"  # rank changes compare with 2025-05-16 12:00


def _row(line: int, day: str, player1: str, player2: str, result: str) -> ImportedResult:
    return ImportedResult(line, date.fromisoformat(day), player1, player2, result)


@pytest.fixture
def ranking(db):
    """Before 2025-05-16: ann beats bob (ann 1520 #1, bob 1480 #2).
    Since: bob beats cy (new) and then ann, so bob is #1 (+1), ann #2 (-1), cy #3 (new).
    dee and eve last played in 2023: inactive."""
    results_import(
        results=[
            _row(1, "2023-01-01", "dee", "eve", "1-0"),
            _row(2, "2025-04-01", "ann", "bob", "1-0"),
            _row(3, "2025-06-01", "bob", "cy", "1-0"),
            _row(4, "2025-06-05", "bob", "ann", "1-0"),
        ]
    )
    Player.objects.filter(name="ann").update(country="IE")
    Player.objects.filter(name__in=["bob", "dee"]).update(country="GB")
    RatedResult.objects.filter(finished_at__year=2025).exclude(player2__name="cy").update(
        tournament_name="Spring Cup"
    )
    with time_machine.travel(NOW, tick=False):
        yield {p.name: p for p in Player.objects.all()}


def _list(client, **params):
    response = client.get(reverse("rankings_api:list"), params)
    assert response.status_code == 200, response.content
    return response.json()


def test_list_ranks_active_players_with_rank_changes(api_client, ranking):
    data = _list(api_client)
    assert (data["next"], data["previous"]) == (None, None)
    rows = data["results"]
    assert [(r["name"], r["rank"], r["previous_rank"], r["rank_change"]) for r in rows] == [
        ("bob", 1, 2, 1),
        ("ann", 2, 1, -1),
        ("cy", 3, None, None),
    ]
    bob = rows[0]
    stored = PlayerRating.objects.get(player__name="bob")
    assert bob["elo"] == stored.elo  # full precision ...
    assert bob["elo_display"] == round(stored.elo) == bob["rating"]  # ... and rounded
    assert bob["rating_system"] == "elo"
    assert bob["glicko"]["rating"] == stored.glicko_rating
    assert bob["glicko"]["rd_display"] == round(bob["glicko"]["rd"])
    assert bob["games"] == 3
    assert bob["provisional"] is True
    assert bob["active"] is True
    assert bob["last_played"] == "2025-06-05"
    assert bob["country"] == "GB"


def test_provisional_follows_the_setting(api_client, ranking, settings):
    settings.RATING_PROVISIONAL_GAMES = 2
    rows = _list(api_client)["results"]
    assert {r["name"]: r["provisional"] for r in rows} == {"bob": False, "ann": False, "cy": True}


def test_inactive_players_on_request_without_rank(api_client, ranking):
    rows = _list(api_client, active="false")["results"]
    assert [(r["name"], r["rank"]) for r in rows] == [
        ("bob", 1), ("ann", 2), ("cy", 3), ("dee", None), ("eve", None),
    ]  # fmt: skip
    assert rows[3]["active"] is False


def test_active_window_is_a_setting(api_client, ranking, settings):
    settings.RATING_ACTIVE_DAYS = 5000
    # Elo: bob 1522.2, dee 1520, ann 1498.9, eve 1480, cy 1478.9
    names = [r["name"] for r in _list(api_client)["results"]]
    assert names == ["bob", "dee", "ann", "eve", "cy"]


def test_country_filter_keeps_world_ranks(api_client, ranking):
    rows = _list(api_client, country="ie")["results"]
    assert [(r["name"], r["rank"]) for r in rows] == [("ann", 2)]
    assert [r["name"] for r in _list(api_client, country="GB", active="false")["results"]] == [
        "bob",
        "dee",
    ]


def test_bad_filter_is_a_400(api_client, ranking):
    response = api_client.get(reverse("rankings_api:list"), {"country": "IRL"})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert response.json()["detail"].startswith("country:")


def test_list_is_paginated(api_client, ranking):
    data = _list(api_client, page_size=2)
    assert [r["name"] for r in data["results"]] == ["bob", "ann"]
    following = api_client.get(data["next"]).json()
    assert [r["name"] for r in following["results"]] == ["cy"]
    assert following["next"] is None
    back = api_client.get(following["previous"]).json()
    assert [r["name"] for r in back["results"]] == ["bob", "ann"]
    everyone = _list(api_client, active="false", page_size=2)
    names = [r["name"] for r in everyone["results"]]
    while everyone["next"]:  # the filters ride along in the link
        everyone = api_client.get(everyone["next"]).json()
        names += [r["name"] for r in everyone["results"]]
    assert names == ["bob", "ann", "cy", "dee", "eve"]


def test_a_malformed_ranking_cursor_is_refused(api_client, ranking):
    response = api_client.get(reverse("rankings_api:list"), {"cursor": "cD1hYmM="})  # p=abc
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_cursor"


def test_glicko_can_order_the_ranking(api_client, ranking, settings):
    settings.RATING_ORDER_BY = "glicko"
    rows = _list(api_client, active="false")["results"]
    assert rows[0]["rating_system"] == "glicko"
    ranked = [r for r in rows if r["rank"] is not None]
    assert [r["glicko"]["rating"] for r in ranked] == sorted(
        (r["glicko"]["rating"] for r in ranked), reverse=True
    )
    assert rows[0]["rating"] == rows[0]["glicko"]["rating_display"]


def test_csv_export(api_client, ranking):
    response = api_client.get(reverse("rankings_api:export"), {"country": "GB", "active": "false"})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == [
        "rank", "previous_rank", "name", "country", "rating", "elo", "glicko_rating",
        "glicko_rd", "games", "provisional", "last_played",
    ]  # fmt: skip
    bob = PlayerRating.objects.get(player__name="bob")
    assert rows[1][:5] == ["1", "2", "bob", "GB", str(round(bob.elo))]
    assert float(rows[1][5]) == bob.elo  # full precision survives the round trip
    assert rows[1][8:] == ["3", "yes", "2025-06-05"]
    assert rows[2][:4] == ["", "", "dee", "GB"]
    assert len(rows) == 3


def test_csv_export_when_asked_for_text_csv(api_client, ranking):
    response = api_client.get(reverse("rankings_api:export"), HTTP_ACCEPT="text/csv")
    assert response.status_code == 200
    assert response.content.decode().count("\n") == 4


def test_player_detail(api_client, ranking):
    ann = ranking["ann"]
    response = api_client.get(reverse("rankings_api:player", args=[ann.pk]))
    assert response.status_code == 200
    data = response.json()
    assert data["player"] == {"id": ann.pk, "name": "ann", "country": "IE"}
    assert data["ranking"]["rank"] == 2
    assert data["ranking"]["elo_peak"] == 1520.0
    history = data["history"]
    assert [(h["opponent"]["name"], h["score"]) for h in history] == [("bob", 1.0), ("bob", 0.0)]
    assert history[0]["elo_before"] == 1500.0
    assert history[0]["elo_after"] == 1520.0
    assert history[0]["elo_change"] == 20.0
    assert history[0]["game_id"] is None
    assert history[1]["tournament_name"] == "Spring Cup"
    # Spring Cup: beat bob (1500 before), lost to bob (1501.15 before): score 1 of 2, so the
    # performance is the opponents' mean: (1500 + 1501.1502) / 2 + 400 * (1 - 1) / 2 = 1500.575
    (cup,) = data["tournaments"]
    assert cup["tournament_name"] == "Spring Cup"
    assert (cup["games"], cup["score"]) == (2, 1.0)
    assert cup["performance"] == pytest.approx(cup["average_opponent_elo"])
    assert cup["performance"] == pytest.approx(1500.575, abs=0.001)


def test_player_without_games_and_missing_player(api_client, db):
    lone = Player.objects.create(name="lone")
    data = api_client.get(reverse("rankings_api:player", args=[lone.pk])).json()
    assert data["ranking"] is None
    assert data["history"] == []
    response = api_client.get(reverse("rankings_api:player", args=[lone.pk + 1]))
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_openapi_schema_has_no_warnings():
    from django.urls import include, path
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator
    from openapi_spec_validator import validate

    GENERATOR_STATS.reset()
    generator = SchemaGenerator(patterns=[path("api/v1/rankings/", include("rankings.urls"))])
    schema = generator.get_schema(request=None, public=True)
    assert not GENERATOR_STATS._warn_cache, dict(GENERATOR_STATS._warn_cache)
    assert not GENERATOR_STATS._error_cache, dict(GENERATOR_STATS._error_cache)
    validate(schema)
    assert set(schema["paths"]) == {
        "/api/v1/rankings/",
        "/api/v1/rankings/export.csv",
        "/api/v1/rankings/players/{player_id}/",
    }
    export = schema["paths"]["/api/v1/rankings/export.csv"]["get"]["responses"]["200"]
    assert "text/csv" in export["content"]


# --- Pages -----------------------------------------------------------------------------------


def test_ranking_page(client, ranking):
    response = client.get(reverse("rankings:list"))
    assert response.status_code == 200
    html = response.content.decode()
    assert html.index(">bob<") < html.index(">ann<") < html.index(">cy<")
    assert "dee" not in html
    assert reverse("rankings_api:export") in html
    assert "new" in html  # cy's rank change


def test_ranking_page_country_filter(client, ranking):
    html = client.get(reverse("rankings:list"), {"country": "IE"}).content.decode()
    assert ">ann<" in html and ">bob<" not in html
    assert "Ireland" in html
    assert reverse("rankings_api:export") + "?country=IE" in html


def test_player_page(client, ranking):
    response = client.get(reverse("rankings:player", args=[ranking["ann"].pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<svg" in html and "<polyline" in html
    assert "Spring Cup" in html
    assert "1520" in html  # the peak and the first result
    assert client.get(reverse("rankings:player", args=[999999])).status_code == 404


@pytest.mark.parametrize(
    ("name", "cell"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+1+cmd", "'+1+cmd"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tTab", "'\tTab"),
        ("\rReturn", "'\rReturn"),
        ("ann=1", "ann=1"),  # only the first character starts a formula
    ],
)
def test_csv_export_neutralises_formulas_in_names(api_client, ranking, name, cell):
    """OWASP's rule: a cell a spreadsheet would read as a formula starts with a quote."""
    Player.objects.filter(name="bob").update(name=name, country="=1")

    response = api_client.get(reverse("rankings_api:export"))

    rows = list(csv.reader(io.StringIO(response.content.decode(), newline="")))
    assert [row[2:4] for row in rows[1:]] == [[cell, "'=1"], ["ann", "IE"], ["cy", ""]]
