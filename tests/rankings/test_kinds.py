"""Rankings per game kind: a kind outside ELO_KINDS (Celtic Knot) is rated with openskill's
Plackett-Luce on finishing orders of 2..N players, in its own list, beside Celtic!'s Elo list.
The games are stand-ins with the seat interface the ranking reads (a Knot game needs the
games app's seats)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import datetime
from io import StringIO
from typing import Any

import pytest
import time_machine
from django.core.management import CommandError, call_command
from django.urls import reverse
from openskill.models import PlackettLuce

from rankings.models import PlayerRating, RatedPlacing, RatedResult, RatingSnapshot
from rankings.selectors import (
    player_history,
    player_kinds,
    ranking_list,
    rating_change_for_game,
    rating_changes_for_game,
)
from rankings.services import rating_game_changed, rating_game_finished, ratings_recompute
from tests.rankings.conftest import at, finished_game, make_user

pytestmark = pytest.mark.django_db

KIND = "knot"
NAME = "Celtic Knot"
NOW = "2025-06-15T12:00:00Z"


@dataclass
class FakeGame:
    """What the ranking reads of a game (games.models.Game's seat interface)."""

    pk: int
    finished_at: datetime | None
    seats: list[tuple[Any, int]]
    kind: str = KIND
    rated: bool = True
    status: str = "finished"
    tournament: Any = None
    names: list[str] = field(default_factory=list)

    def seat_users(self) -> list[Any]:
        return [user for user, _ in self.seats]

    def placings(self) -> list[tuple[Any, int]]:
        return list(self.seats) if self.status == "finished" else []


@pytest.fixture
def people(db) -> dict[str, Any]:
    return {name: make_user(name) for name in ("ann", "bob", "cy", "dee", "eve")}


def knot(people: dict[str, Any], order: dict[str, int], when: datetime) -> FakeGame:
    """A finished Knot game of the players named in ``order`` (seat order) with their places.
    A real game row backs it (the result refers to it); the fake carries the seats."""
    names = list(order)
    row = finished_game(people[names[0]], people[names[1]], "1-0", when)
    return FakeGame(
        pk=row.pk, finished_at=when, seats=[(people[n], order[n]) for n in names], names=names
    )


def _skill() -> dict[str, tuple[float, float, int]]:
    return {
        r.player.name: (r.mu, r.sigma, r.games)
        for r in PlayerRating.objects.filter(kind=KIND).select_related("player")
    }


def _openskill(games: list[dict[str, int]]) -> dict[str, tuple[float, float, int]]:
    """The same games rated by calling openskill directly, in order."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    played: dict[str, int] = {}
    for order in games:
        names = list(order)
        teams = [[ratings.get(name) or model.rating()] for name in names]
        rated = model.rate(teams, ranks=[order[name] for name in names])
        for name, team in zip(names, rated, strict=True):
            ratings[name] = team[0]
            played[name] = played.get(name, 0) + 1
    return {name: (r.mu, r.sigma, played[name]) for name, r in ratings.items()}


FIRST = {"ann": 2, "bob": 1, "cy": 3}
SECOND = {"cy": 1, "dee": 2, "ann": 2, "bob": 4}


def test_a_three_player_finish_is_rated_as_openskill_rates_it(people):
    game = knot(people, FIRST, at(2025, 3, 1))
    result = rating_game_finished(game=game)
    assert result is not None
    assert (result.kind, result.player1_id, result.player2_id, result.score1) == (
        KIND, None, None, None,
    )  # fmt: skip
    placings = RatedPlacing.objects.filter(result=result).order_by("seat")
    assert [(p.player.name, p.seat, p.place) for p in placings] == [
        ("ann", 1, 2), ("bob", 2, 1), ("cy", 3, 3),
    ]  # fmt: skip
    assert _skill() == _openskill([FIRST])
    ann = PlayerRating.objects.get(player__name="ann", kind=KIND)
    assert (ann.elo, ann.glicko_rating, ann.last_played) == (None, None, at(2025, 3, 1).date())


def test_a_four_player_finish_with_a_tie_follows_the_players_states(people):
    rating_game_finished(game=knot(people, FIRST, at(2025, 3, 1)))
    rating_game_finished(game=knot(people, SECOND, at(2025, 3, 2)))
    assert _skill() == _openskill([FIRST, SECOND])
    rows = {
        s.player.name: s
        for s in RatingSnapshot.objects.filter(result__finished_at=at(2025, 3, 2)).select_related(
            "player"
        )
    }
    assert {name: (s.place, s.players, s.score) for name, s in rows.items()} == {
        "cy": (1, 4, 1.0), "dee": (2, 4, 0.5), "ann": (2, 4, 0.5), "bob": (4, 4, 0.0),
    }  # fmt: skip
    cy_mu, cy_sigma, _ = _openskill([FIRST, SECOND])["cy"]
    assert (rows["cy"].mu, rows["cy"].sigma) == (cy_mu, cy_sigma)
    assert rows["cy"].rating_after == pytest.approx(1500 + 40 * (cy_mu - 3 * cy_sigma))
    assert rows["dee"].rating_before == pytest.approx(1500.0)  # her first game
    assert rows["cy"].elo_before is None and rows["cy"].opponent_id is None


def test_a_result_that_finishes_before_another_of_its_players_replays_the_kind(people):
    rating_game_finished(game=knot(people, SECOND, at(2025, 3, 2)))
    rating_game_finished(game=knot(people, FIRST, at(2025, 3, 1)))  # committed late
    assert _skill() == _openskill([FIRST, SECOND])
    in_order = list(
        RatingSnapshot.objects.order_by("finished_at", "player_id").values_list(
            "player_id", "mu", "sigma", "rating_before", "rating_after"
        )
    )
    ratings_recompute()
    assert (
        list(
            RatingSnapshot.objects.order_by("finished_at", "player_id").values_list(
                "player_id", "mu", "sigma", "rating_before", "rating_after"
            )
        )
        == in_order
    )


def test_two_seat_games_of_the_kind_are_rated_with_plackett_luce_too(people):
    result = rating_game_finished(game=knot(people, {"ann": 1, "bob": 1}, at(2025, 3, 1)))
    assert result is not None
    assert (result.player1.name, result.player2.name, result.score1) == ("ann", "bob", 0.5)
    assert _skill() == _openskill([{"ann": 1, "bob": 1}])
    assert not PlayerRating.objects.filter(kind=KIND, elo__isnull=False).exists()


def test_kinds_keep_their_own_ratings(people):
    celtic = finished_game(people["ann"], people["bob"], "1-0", at(2025, 3, 1))
    rating_game_finished(game=celtic)
    rating_game_finished(game=knot(people, FIRST, at(2025, 3, 2)))
    ann = {r.kind: r for r in PlayerRating.objects.filter(player__name="ann")}
    assert (ann["celtic"].elo, ann["celtic"].games, ann["celtic"].mu) == (1520.0, 1, None)
    assert (ann[KIND].games, ann[KIND].elo) == (1, None)
    assert [e.name for e in ranking_list(kind=KIND, now=at(2025, 3, 3))] == ["bob", "ann", "cy"]
    assert [e.name for e in ranking_list(now=at(2025, 3, 3))] == ["ann", "bob"]
    player = PlayerRating.objects.get(player__name="ann", kind="celtic").player
    assert player_kinds(player=player) == ["celtic", KIND]
    assert [h.kind for h in player_history(player=player, kind=KIND)] == [KIND]
    assert [h.opponent_name for h in player_history(player=player)] == ["bob"]


def test_an_adjudicated_finishing_order_re_rates_the_kind(people):
    first = knot(people, FIRST, at(2025, 3, 1))
    rating_game_finished(game=first)
    rating_game_finished(game=knot(people, SECOND, at(2025, 3, 2)))
    celtic = finished_game(people["ann"], people["eve"], "0-1", at(2025, 3, 3))
    rating_game_finished(game=celtic)
    celtic_before = list(PlayerRating.objects.filter(kind="celtic").values_list())

    changed = {"ann": 1, "bob": 3, "cy": 2}
    result = rating_game_changed(
        game=replace(first, seats=[(people[n], p) for n, p in changed.items()])
    )
    assert result is not None
    assert list(result.placings.order_by("seat").values_list("player__name", "place")) == [
        ("ann", 1), ("bob", 3), ("cy", 2),
    ]  # fmt: skip
    assert _skill() == _openskill([changed, SECOND])
    assert list(PlayerRating.objects.filter(kind="celtic").values_list()) == celtic_before


def test_an_annulled_game_no_longer_counts_for_any_of_its_players(people):
    first = knot(people, FIRST, at(2025, 3, 1))
    rating_game_finished(game=first)
    rating_game_finished(game=knot(people, {"ann": 1, "bob": 2}, at(2025, 3, 2)))
    result = rating_game_changed(game=replace(first, status="annulled"))
    assert result is not None and result.annulled
    assert _skill() == _openskill([{"ann": 1, "bob": 2}])  # cy played only the annulled one
    assert not RatingSnapshot.objects.filter(result=result).exists()
    assert rating_change_for_game(game_id=first.pk, user_id=people["ann"].pk) is None
    rating_game_changed(game=first)  # reinstated
    assert _skill() == _openskill([FIRST, {"ann": 1, "bob": 2}])


def test_an_unrated_or_unfinished_game_is_not_rated(people):
    game = knot(people, FIRST, at(2025, 3, 1))
    assert rating_game_finished(game=replace(game, rated=False)) is None
    assert rating_game_finished(game=replace(game, status="active", finished_at=None)) is None
    assert not RatedResult.objects.exists()


def test_a_finishing_order_with_a_player_twice_is_refused(people):
    game = knot(people, FIRST, at(2025, 3, 1))
    twice = replace(game, seats=[(people["ann"], 1), (people["ann"], 2)])
    with pytest.raises(ValueError, match="a player cannot finish twice in one game"):
        rating_game_finished(game=twice)
    assert not RatedResult.objects.exists()


def test_the_rating_change_of_each_player_of_a_game(people):
    rating_game_finished(game=knot(people, FIRST, at(2025, 3, 1)))
    game = knot(people, SECOND, at(2025, 3, 2))
    rating_game_finished(game=game)
    changes = rating_changes_for_game(game_id=game.pk)
    assert set(changes) == {people[name].pk for name in SECOND}
    for name in SECOND:
        snapshot = RatingSnapshot.objects.get(result__game_id=game.pk, player__name=name)
        change = rating_change_for_game(game_id=game.pk, user_id=people[name].pk)
        assert change == changes[people[name].pk]
        assert (change.before, change.after) == (
            round(snapshot.rating_before),
            round(snapshot.rating_after),
        )
    assert changes[people["cy"].pk].delta > 0 > changes[people["bob"].pk].delta


def test_recompute_of_one_kind_leaves_the_others(people):
    rating_game_finished(game=finished_game(people["ann"], people["bob"], "1-0", at(2025, 3, 1)))
    rating_game_finished(game=knot(people, FIRST, at(2025, 3, 2)))
    PlayerRating.objects.filter(kind="celtic").update(elo=1.0)
    summary = ratings_recompute(kind=KIND)
    assert (summary.results, summary.players, summary.changed) == (1, 3, 0)
    assert set(PlayerRating.objects.filter(kind="celtic").values_list("elo", flat=True)) == {1.0}
    everything = ratings_recompute()
    assert (everything.results, everything.players, everything.changed) == (2, 5, 2)
    assert PlayerRating.objects.get(player__name="ann", kind="celtic").elo == 1520.0


# --- the list per kind: API, CSV and pages ----------------------------------------------------


@pytest.fixture
def two_lists(people):
    rating_game_finished(game=finished_game(people["dee"], people["eve"], "1-0", at(2025, 6, 1)))
    rating_game_finished(game=knot(people, FIRST, at(2025, 6, 2)))
    rating_game_finished(game=knot(people, SECOND, at(2025, 6, 3)))
    with time_machine.travel(NOW, tick=False):
        yield


def test_the_api_lists_one_kind_at_a_time(api_client, two_lists):
    url = reverse("rankings_api:list")
    celtic = api_client.get(url).json()["results"]
    assert [(r["name"], r["kind"], r["rating_system"]) for r in celtic] == [
        ("dee", "celtic", "elo"), ("eve", "celtic", "elo"),
    ]  # fmt: skip
    assert celtic[0]["skill"] is None and celtic[0]["glicko"]["rd_display"] > 0
    rows = api_client.get(url, {"kind": KIND}).json()["results"]
    expected = _openskill([FIRST, SECOND])
    by_rating = sorted(expected, key=lambda n: -(expected[n][0] - 3 * expected[n][1]))
    assert [r["name"] for r in rows] == by_rating
    top = rows[0]
    mu, sigma, games = expected[top["name"]]
    assert (top["kind"], top["rating_system"], top["games"]) == (KIND, "openskill-pl", games)
    assert (top["skill"]["mu"], top["skill"]["sigma"]) == (mu, sigma)
    assert top["rating"] == top["skill"]["rating_display"] == round(1500 + 40 * (mu - 3 * sigma))
    assert (top["elo"], top["elo_display"], top["glicko"]) == (None, None, None)


@pytest.mark.parametrize("value", ["chess", "", "CELTIC"])
def test_an_unknown_kind_is_a_400_naming_the_known_ones(api_client, two_lists, value):
    for name in ("rankings_api:list", "rankings_api:export"):
        response = api_client.get(reverse(name), {"kind": value})
        assert response.status_code == 400, response.content
        body = response.json()
        assert body["code"] == "invalid"
        assert body["detail"].startswith("kind:")
        if value:
            assert (
                f"'{value}' is not a game kind: expected one of celtic, {KIND}." in body["detail"]
            )


def test_the_csv_of_a_kind(api_client, two_lists):
    response = api_client.get(reverse("rankings_api:export"), {"kind": KIND})
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{KIND}-ranking.csv"'
    lines = response.content.decode().splitlines()
    assert len(lines) == 1 + 4
    cells = lines[1].split(",")
    assert cells[0] == "1" and cells[5:8] == ["", "", ""]  # no Elo or Glicko-2 in this kind


def test_the_player_api_answers_per_kind(api_client, two_lists):
    ann = PlayerRating.objects.get(player__name="ann", kind=KIND).player_id
    url = reverse("rankings_api:player", args=[ann])
    data = api_client.get(url, {"kind": KIND}).json()
    assert data["kind"] == KIND
    assert [(h["place"], h["players"], h["opponent"]) for h in data["history"]] == [
        (2, 3, None), (2, 4, None),
    ]  # fmt: skip
    assert data["ranking"]["skill"]["mu"] == _openskill([FIRST, SECOND])["ann"][0]
    assert data["tournaments"] == []
    assert api_client.get(url).json()["ranking"] is None  # ann has no Celtic! game
    assert api_client.get(url, {"kind": "nope"}).status_code == 400


def test_the_ranking_page_offers_the_kinds_with_results(client, two_lists):
    html = client.get(reverse("rankings:list")).content.decode()
    assert f'href="?kind={KIND}">{NAME}</a>' in html
    assert "dee" in html and ">cy<" not in html
    knot_page = client.get(reverse("rankings:list"), {"kind": KIND})
    assert knot_page.context["kind"] == KIND
    expected = _openskill([FIRST, SECOND])
    by_rating = sorted(expected, key=lambda n: -(expected[n][0] - 3 * expected[n][1]))
    assert [e.name for e in knot_page.context["entries"]] == by_rating
    text = knot_page.content.decode()
    assert f"World ranking of {NAME}" in text and "Plackett-Luce" in text
    assert f'value="{KIND}"' in text  # the filters keep the kind
    unknown = client.get(reverse("rankings:list"), {"kind": "nope"})
    assert unknown.context["kind"] == "celtic"


def test_the_player_pages_show_each_kind_played(client, people, two_lists):
    response = client.get(reverse("players:detail", args=["dee"]))
    summaries = response.context["ratings"]
    assert [(s.kind, s.kind_name) for s in summaries] == [("celtic", "Celtic!"), (KIND, NAME)]
    assert summaries[1].entry.skill is not None and summaries[1].chart is None
    html = response.content.decode()
    assert f"{NAME}</h3>" in html and "&mu;" in html
    ann = PlayerRating.objects.get(player__name="ann", kind=KIND)
    assert client.get(reverse("players:detail", args=["ann"])).context["ratings"][0].kind == KIND
    ranking_page = client.get(reverse("rankings:player", args=[ann.player_id]), {"kind": KIND})
    assert ranking_page.context["chart"] is not None  # two games: a line
    assert "2 of 4" in ranking_page.content.decode()
    assert "The rating history" not in ranking_page.content.decode()  # the template's comment


# --- commands ---------------------------------------------------------------------------------


def test_recompute_command_takes_a_kind(people):
    rating_game_finished(game=knot(people, FIRST, at(2025, 3, 2)))
    out = StringIO()
    call_command("ratings_recompute", "--kind", KIND, stdout=out)
    assert "Recomputed 1 results" in out.getvalue()
    with pytest.raises(CommandError, match="'chess' is not a game kind: expected one of"):
        call_command("ratings_recompute", "--kind", "chess")


def test_replay_command_rates_a_file_as_a_kind_does(tmp_path):
    path = tmp_path / "results.csv"
    path.write_text("2025-01-01,ann,bob,1-0\n2025-01-02,bob,cy,1/2-1/2\n")
    out = StringIO()
    call_command("ratings_replay", str(path), "--kind", KIND, "--json", stdout=out)
    players = json.loads(out.getvalue())["players"]
    expected = _openskill([{"ann": 1, "bob": 2}, {"bob": 1, "cy": 1}])
    assert {name: (p["mu"], p["sigma"], p["games"]) for name, p in players.items()} == expected
    table = StringIO()
    call_command("ratings_replay", str(path), "--kind", KIND, stdout=table)
    assert table.getvalue().splitlines()[0].split() == ["player", "rating", "games", "mu", "sigma"]
    with pytest.raises(CommandError, match="'chess' is not a game kind"):
        call_command("ratings_replay", str(path), "--kind", "chess")
