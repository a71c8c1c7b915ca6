"""Ratings move in the transaction that records a result, and recomputing gives the same."""

from __future__ import annotations

import random
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command

from games.models import Game, GameSeat
from rankings.models import Player, PlayerRating, RatedResult, RatingSnapshot
from rankings.rating.history import GameRecord, RatingParams, replay
from rankings.services import player_for_user, rating_game_changed, rating_game_finished
from tests.rankings.conftest import at, finished_game, make_user

pytestmark = pytest.mark.django_db


def _ratings() -> dict[str, tuple]:
    return {
        r.player.name: (
            r.elo, r.games, r.elo_peak, r.elo_master,
            r.glicko_rating, r.glicko_rd, r.glicko_volatility, r.last_played,
        )
        for r in PlayerRating.objects.select_related("player")
    }  # fmt: skip


def _snapshots() -> list[tuple]:
    return list(
        RatingSnapshot.objects.order_by("result_id", "player_id").values_list(
            "result_id", "player_id", "opponent_id", "score", "games", "elo_before", "elo_after",
            "opponent_elo_before", "glicko_rating", "glicko_rd", "glicko_volatility",
        )
    )  # fmt: skip


def _replayed(games: list[tuple[str, str, float, object]]) -> dict[str, tuple[float, int]]:
    states = replay(
        [GameRecord(a, b, score, when.date()) for a, b, score, when in games],
        params=RatingParams(),
    )
    return {
        name: (s.elo.rating, s.games, s.glicko.rating, s.glicko.rd) for name, s in states.items()
    }


def test_a_finished_rated_game_moves_both_ratings(users):
    # Both new, Orange wins: E = 0.5, K = 40 -> 1520 and 1480.
    game = finished_game(users["ann"], users["bob"], "1-0", at(2025, 3, 1))
    result = rating_game_finished(game=game)
    assert result is not None
    assert (result.score1, result.source, result.game_id) == (1.0, "game", game.pk)
    ann = PlayerRating.objects.get(player__name="ann")
    bob = PlayerRating.objects.get(player__name="bob")
    assert (ann.elo, ann.games, bob.elo, bob.games) == (1520.0, 1, 1480.0, 1)
    assert ann.glicko_rating > 1500.0 > bob.glicko_rating
    assert ann.glicko_rd < 350.0
    snapshot = RatingSnapshot.objects.get(player__name="bob")
    assert (snapshot.elo_before, snapshot.elo_after, snapshot.score) == (1500.0, 1480.0, 0.0)
    assert snapshot.opponent.name == "ann"


def test_a_draw_and_blue_win_are_scored_from_orange(users):
    rating_game_finished(game=finished_game(users["ann"], users["bob"], "1/2-1/2", at(2025, 3, 1)))
    rating_game_finished(game=finished_game(users["cy"], users["dee"], "0-1", at(2025, 3, 2)))
    assert _ratings()["ann"][0] == 1500.0
    assert _ratings()["dee"][0] == 1520.0
    assert _ratings()["cy"][0] == 1480.0


def test_unrated_and_unfinished_games_are_ignored(users):
    unrated = finished_game(users["ann"], users["bob"], "1-0", at(2025, 3, 1), rated=False)
    assert rating_game_finished(game=unrated) is None
    assert not RatedResult.objects.exists()
    assert not PlayerRating.objects.exists()


def test_finishing_twice_rates_once(users):
    game = finished_game(users["ann"], users["bob"], "1-0", at(2025, 3, 1))
    first = rating_game_finished(game=game)
    second = rating_game_finished(game=game)
    assert first == second
    assert _ratings()["ann"][:2] == (1520.0, 1)


def test_a_result_finishing_before_others_is_rated_in_time_order(users):
    ann, bob, cy = users["ann"], users["bob"], users["cy"]
    rating_game_finished(game=finished_game(ann, bob, "1-0", at(2025, 3, 2)))
    rating_game_finished(game=finished_game(bob, cy, "1-0", at(2025, 3, 3)))
    # Reported late but finished first:
    rating_game_finished(game=finished_game(cy, ann, "1/2-1/2", at(2025, 3, 1)))
    expected = _replayed(
        [
            ("cy", "ann", 0.5, at(2025, 3, 1)),
            ("ann", "bob", 1.0, at(2025, 3, 2)),
            ("bob", "cy", 1.0, at(2025, 3, 3)),
        ]
    )
    got = {name: (v[0], v[1], v[4], v[5]) for name, v in _ratings().items()}
    assert got == expected  # exact floats


def test_partial_history_rewrites_match_a_full_recompute(users):
    """Out-of-order results, annulments and adjudications rewrite the rating history from the
    earliest affected result on; the outcome equals a rebuild of everything."""
    people = list(users.values())
    rng = random.Random(5)
    games = []
    for day in rng.sample(range(1, 60), 40):  # finishing out of order
        orange, blue = rng.sample(people, 2)
        when = at(2025, 1, 1) + timedelta(days=day)
        game = finished_game(orange, blue, rng.choice(["1-0", "0-1", "1/2-1/2"]), when)
        rating_game_finished(game=game)
        games.append(game)
    for game in games[:5]:
        game.status, game.result = Game.Status.ANNULLED, ""
        game.save()
        rating_game_changed(game=game)
    for game in games[5:10]:
        game.result = "1-0" if game.result != "1-0" else "0-1"
        game.save()
        rating_game_changed(game=game)
    ratings, snapshots = _ratings(), _snapshots()
    assert len(snapshots) == 2 * 35
    out = StringIO()
    call_command("ratings_recompute", stdout=out)
    assert "0 players' ratings and 0 rating history rows changed" in out.getvalue()
    assert _ratings() == ratings
    assert _snapshots() == snapshots


def test_an_earlier_result_between_other_players_is_rated_in_place(users, monkeypatch):
    """Games that finish together may commit in either order: a later result between
    other players commutes with this one, so no replay of the whole history is needed."""
    from rankings import services

    ann, bob, cy, dee = (users[name] for name in ("ann", "bob", "cy", "dee"))
    replays: list[object] = []
    replay_everything = services.ratings_recompute
    monkeypatch.setattr(
        services, "ratings_recompute", lambda **kw: replays.append(kw) or replay_everything(**kw)
    )
    rating_game_finished(game=finished_game(ann, bob, "1-0", at(2025, 3, 1)))
    rating_game_finished(game=finished_game(cy, dee, "0-1", at(2025, 3, 5)))
    rating_game_finished(game=finished_game(ann, bob, "0-1", at(2025, 3, 4)))
    assert replays == []  # only cy and dee played later
    rating_game_finished(game=finished_game(ann, cy, "1/2-1/2", at(2025, 3, 3)))
    assert replays == [{"since": at(2025, 3, 3), "kind": "celtic"}]  # cy played later: from then
    ratings, snapshots = _ratings(), _snapshots()
    out = StringIO()
    call_command("ratings_recompute", stdout=out)
    assert "0 players' ratings and 0 rating history rows changed" in out.getvalue()
    assert (_ratings(), _snapshots()) == (ratings, snapshots)


def test_annulling_a_game_takes_it_out_of_the_ratings(users):
    ann, bob, cy = users["ann"], users["bob"], users["cy"]
    first = finished_game(ann, bob, "1-0", at(2025, 3, 1))
    rating_game_finished(game=first)
    rating_game_finished(game=finished_game(ann, cy, "0-1", at(2025, 3, 2)))
    first.status, first.result = Game.Status.ANNULLED, ""
    first.save()
    result = rating_game_changed(game=first)
    assert result is not None and result.annulled
    assert RatedResult.objects.count() == 2  # kept for the record
    ratings = _ratings()
    assert "bob" not in ratings  # no game counts for bob any more
    # As if only cy beat ann: 1480 / 1520.
    assert (ratings["ann"][0], ratings["ann"][1], ratings["cy"][0]) == (1480.0, 1, 1520.0)
    assert not RatingSnapshot.objects.filter(result=result).exists()


def test_adjudicating_a_new_result_recomputes(users):
    ann, bob, cy = users["ann"], users["bob"], users["cy"]
    game = finished_game(ann, bob, "1-0", at(2025, 3, 1))
    rating_game_finished(game=game)
    rating_game_finished(game=finished_game(bob, cy, "1/2-1/2", at(2025, 3, 5)))
    game.result = "0-1"
    game.save()
    GameSeat.objects.filter(game=game, seat=1).update(place=2)
    GameSeat.objects.filter(game=game, seat=2).update(place=1)
    game = Game.objects.get(pk=game.pk)
    rating_game_changed(game=game)
    expected = _replayed([("ann", "bob", 0.0, at(2025, 3, 1)), ("bob", "cy", 0.5, at(2025, 3, 5))])
    got = {name: (v[0], v[1], v[4], v[5]) for name, v in _ratings().items()}
    assert got == expected
    # Un-annul: a game adjudicated back into the ranking counts again.
    assert RatedResult.objects.get(game=game).score1 == 0.0


def test_changing_an_annulled_active_game_does_nothing(users):
    game = Game.objects.create(
        status="annulled", result="", finished_at=at(2025, 3, 1),
        turn_started_at=at(2025, 3, 1), seat_to_move=None,
    )  # fmt: skip
    GameSeat.objects.create(game=game, seat=1, user=users["ann"])
    GameSeat.objects.create(game=game, seat=2, user=users["bob"])
    assert rating_game_changed(game=game) is None
    assert not RatedResult.objects.exists()


def test_an_adjudicated_active_game_is_rated_like_a_finished_one(users):
    game = finished_game(users["ann"], users["bob"], "1-0", at(2025, 3, 1))
    assert rating_game_changed(game=game) is not None
    assert _ratings()["ann"][0] == 1520.0


def test_recompute_gives_identical_numbers(users):
    people = list(users.values()) + [make_user(f"p{i}") for i in range(8)]
    rng = random.Random(11)
    when = at(2024, 1, 1)
    for _ in range(150):
        when += timedelta(hours=rng.randrange(1, 200))
        orange, blue = rng.sample(people, 2)
        game = finished_game(orange, blue, rng.choice(["1-0", "0-1", "1/2-1/2"]), when)
        rating_game_finished(game=game)
    ratings, snapshots = _ratings(), _snapshots()
    assert len(snapshots) == 300
    out = StringIO()
    call_command("ratings_recompute", stdout=out)
    assert "Recomputed 150 results (0 annulled left out) for 12 players" in out.getvalue()
    assert "0 players' ratings and 0 rating history rows changed" in out.getvalue()
    assert _ratings() == ratings
    assert _snapshots() == snapshots


def test_player_for_user_takes_the_name_and_country():
    from tests.accounts.factories import make_user as make_user_with_profile

    user = make_user_with_profile("eve", country="IE")
    player = player_for_user(user=user)
    assert (player.name, player.country, player.user) == ("eve", "IE", user)
    assert player_for_user(user=user) == player
    # An imported player already called "fay" is not taken over by the account "fay".
    imported = Player.objects.create(name="fay")
    fay = make_user("fay")
    assert player_for_user(user=fay).name == f"fay ({fay.pk})"
    assert Player.objects.get(pk=imported.pk).user is None


def test_recompute_after_a_parameter_change_rewrites_what_changed(users, settings):
    ann, bob, cy = users["ann"], users["bob"], users["cy"]
    rating_game_finished(game=finished_game(ann, bob, "1-0", at(2025, 3, 1)))
    rating_game_finished(game=finished_game(bob, cy, "1-0", at(2025, 3, 2)))
    settings.RATING_ELO_K_NEW = 32.0
    out = StringIO()
    call_command("ratings_recompute", stdout=out)
    assert "3 players' ratings and 4 rating history rows changed" in out.getvalue()
    # Both new, ann wins at K 32: 1500 + 32 * 0.5 = 1516
    assert _ratings()["ann"][0] == 1516.0
    assert RatingSnapshot.objects.get(player__name="ann").elo_after == 1516.0
    assert RatingSnapshot.objects.count() == 4
    out = StringIO()
    call_command("ratings_recompute", stdout=out)
    assert "0 players' ratings and 0 rating history rows changed" in out.getvalue()
