"""Large events: the page and the API show the standings a page at a time, a round's boards a
page at a time, no crosstable for big sections, and a finished event's final places."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.accounts.factories import make_user
from tests.tournaments.conftest import imported
from tournaments import services, standings, standings_memo
from tournaments.models import Entry

pytestmark = pytest.mark.django_db
DASH = "\N{EN DASH}"


def ranks(html: str) -> list[int]:
    found = re.findall(r'<tr id="entry-\d+"[^>]*>\s*<td class="places">(\d+)</td>', html)
    return [int(rank) for rank in found]


def test_a_finished_event_shows_final_places_without_the_bounds_mark(organiser):
    """Players level on points in a finished Swiss used to show "1-2 ≈" (bounds): the page
    now shows the final standings without a places column, the API exact places."""
    tournament = imported(organiser, players=4, rounds=1)
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Final standings" in page
    assert "≈" not in page and ">Places<" not in page
    rows = Client().get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()["rows"]
    assert {(r["best_place"], r["worst_place"], r["places_exact"]) for r in rows} == {
        (1, 2, True),
        (3, 4, True),
    }


def test_the_page_shows_the_standings_a_hundred_rows_at_a_time(organiser):
    tournament = imported(organiser, players=150)
    url = f"/tournaments/{tournament.pk}/"
    first = Client().get(url).content.decode()
    assert len(ranks(first)) == 100
    assert f"Places 1{DASH}100 of 150" in first and 'href="?page=2#standings-h"' in first
    second = Client().get(url + "?page=2").content.decode()
    assert len(ranks(second)) == 50
    assert f"Places 101{DASH}150 of 150" in second and 'href="?page=1#standings-h"' in second
    assert ranks(second)[0] >= ranks(first)[-1]


def test_a_player_finds_their_own_row_on_another_page(organiser):
    tournament = imported(organiser, players=150)
    last = Entry.objects.get(tournament=tournament, seed=150)
    last.player = make_user("far")
    last.save(update_fields=["player"])
    client = Client()
    client.force_login(last.player)
    api = Client().get(f"/api/v1/tournaments/{tournament.pk}/standings/?page=2").json()
    assert last.pk in [row["entry_id"] for row in api["rows"]]
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f'href="?page=2#entry-{last.pk}">Your row (page 2)</a>' in page
    assert (
        f'id="entry-{last.pk}"'
        in client.get(f"/tournaments/{tournament.pk}/?page=2").content.decode()
    )


def test_the_api_gives_the_standings_in_numbered_pages(organiser):
    tournament = imported(organiser, players=150)
    url = f"/api/v1/tournaments/{tournament.pk}/standings/"
    first = Client().get(url).json()
    assert first["count"] == 150 and len(first["rows"]) == 100
    assert first["previous"] is None and first["next"].endswith(f"{url}?page=2")
    second = Client().get(url, {"page": 2}).json()
    assert [row["rank"] for row in second["rows"]] == [
        row["rank"] for row in Client().get(url, {"page_size": 100, "page": 2}).json()["rows"]
    ]
    assert len(second["rows"]) == 50 and second["next"] is None
    assert second["rows"][0]["rank"] >= first["rows"][-1]["rank"]
    assert second["tiebreaks"] == ["bh"]
    small = Client().get(url, {"page_size": 10, "page": 11}).json()
    assert [row["entry_id"] for row in small["rows"]] == [
        row["entry_id"] for row in second["rows"][:10]
    ]
    assert Client().get(url, {"page": 3}).status_code == 404
    refused = Client().get(url, {"page_size": 101})
    assert refused.status_code == 400 and "page_size" in refused.json()["detail"]


def test_a_large_section_has_no_crosstable_and_a_small_one_has(organiser):
    large = imported(organiser, players=42)
    page = Client().get(f"/tournaments/{large.pk}/").content.decode()
    assert "No crosstable" in page and 'class="crosstable"' not in page
    small = imported(organiser, players=40)
    page = Client().get(f"/tournaments/{small.pk}/").content.decode()
    assert "No crosstable" not in page and 'class="crosstable"' in page


def test_the_crosstable_api_refuses_a_large_section(organiser):
    """A 5,000-player section would be 25 million cells: refused before any is made."""
    large = imported(organiser, players=42)
    refused = Client().get(f"/api/v1/tournaments/{large.pk}/crosstable/")
    assert refused.status_code == 409
    assert refused.json()["code"] == "crosstable_too_large"
    assert (
        "A section has 42 players: a crosstable is given for sections of up to 40"
        in (refused.json()["detail"])
    )
    small = imported(organiser, players=40)
    answer = Client().get(f"/api/v1/tournaments/{small.pk}/crosstable/").json()
    assert len(answer[0]["rows"]) == 40


def test_the_round_table_is_left_out_above_a_hundred_players(organiser):
    large = imported(organiser, players=102)
    page = Client().get(f"/tournaments/{large.pk}/").content.decode()
    assert "No round table" in page and 'class="round-table"' not in page
    refused = Client().get(f"/api/v1/tournaments/{large.pk}/rounds-table/")
    assert refused.status_code == 409
    assert refused.json()["code"] == "round_table_too_large"
    small = imported(organiser, players=100)
    page = Client().get(f"/tournaments/{small.pk}/").content.decode()
    assert "No round table" not in page and 'class="round-table"' in page
    answer = Client().get(f"/api/v1/tournaments/{small.pk}/rounds-table/").json()
    assert len(answer[0]["rows"]) == 100


def test_standings_are_ranked_once_per_result(organiser, monkeypatch):
    """The same results are ranked once, whoever asks and in whichever process (the answer
    is shared through the cache); a result fixed after the event finished changes the
    answer straight away (the memory is keyed by the results)."""
    ranked = []
    rank = standings.compute_standings
    monkeypatch.setattr(
        standings, "compute_standings", lambda *a, **k: ranked.append(1) or rank(*a, **k)
    )
    tournament = imported(organiser, players=4, rounds=1, name="Fixed")
    url = f"/api/v1/tournaments/{tournament.pk}/standings/"
    before = {row["name"]: row["points"] for row in Client().get(url).json()["rows"]}
    standings_memo.forget()  # another process
    Client().get(f"/tournaments/{tournament.pk}/")
    standings_memo.forget()
    assert Client().get(url).json()["rows"] and len(ranked) == 1
    game = tournament.games.get(board=1)
    services.tournament_result_fix(
        tournament_game_id=game.pk, actor=organiser, result="1/2-1/2", reason="Misread sheet"
    )
    after = {row["name"]: row["points"] for row in Client().get(url).json()["rows"]}
    standings_memo.forget()
    Client().get(url)
    assert before[game.orange.name] + before[game.blue.name] == 1
    assert after[game.orange.name] == after[game.blue.name] == 0.5
    assert len(ranked) == 2  # once more, for the new results


def test_one_round_lists_its_boards_a_hundred_at_a_time(organiser):
    """The last round started is listed; another is a link until asked for."""
    tournament = imported(organiser, players=300, rounds=2)
    url = f"/tournaments/{tournament.pk}/"
    first = Client().get(url).content.decode()
    assert f"Games 1{DASH}100 of 150" in first
    assert 'href="?round=2&amp;boards=2#round-2"' in first
    assert '<a href="?round=1#round-1">Show its 150 games</a>' in first
    second = Client().get(url, {"round": 1, "boards": 2}).content.decode()
    assert f"Games 101{DASH}150 of 150" in second
    assert 'href="?round=1&amp;boards=1#round-1"' in second
    assert '<a href="?round=2#round-2">Show its 150 games</a>' in second
