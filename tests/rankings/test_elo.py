"""Elo updates checked against arithmetic done by hand (shown in the comments)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rankings.rating.elo import EloParams, EloState, elo_update, expected_score, k_factor

PARAMS = EloParams()


def test_new_players_win_and_loss_at_equal_ratings():
    # E = 1 / (1 + 10^0) = 0.5, K = 40 (no games yet)
    # winner: 1500 + 40 * (1 - 0.5) = 1520; loser: 1500 + 40 * (0 - 0.5) = 1480
    new = EloState.new(PARAMS)
    winner = elo_update(player=new, opponent_rating=1500.0, score=1.0, params=PARAMS)
    loser = elo_update(player=new, opponent_rating=1500.0, score=0.0, params=PARAMS)
    assert winner.rating == 1520.0
    assert loser.rating == 1480.0
    assert winner.games == loser.games == 1
    assert winner.peak == 1520.0
    assert loser.peak == 1480.0


def test_draw_between_unequal_established_players():
    # 1600 v 1400, both with 40 games: K = 20.
    # E(1600) = 1 / (1 + 10^(-200/400)) = 1 / (1 + 0.31622777) = 0.75974693
    # 1600 + 20 * (0.5 - 0.75974693) = 1600 - 5.1949385 = 1594.8050615
    # E(1400) = 1 / (1 + 10^(200/400)) = 1 / (1 + 3.16227766) = 0.24025307
    # 1400 + 20 * (0.5 - 0.24025307) = 1400 + 5.1949385 = 1405.1949385
    strong = EloState(rating=1600.0, games=40)
    weak = EloState(rating=1400.0, games=40)
    strong_after = elo_update(player=strong, opponent_rating=1400.0, score=0.5, params=PARAMS)
    weak_after = elo_update(player=weak, opponent_rating=1600.0, score=0.5, params=PARAMS)
    assert strong_after.rating == pytest.approx(1594.8050615, abs=1e-6)
    assert weak_after.rating == pytest.approx(1405.1949385, abs=1e-6)
    # Elo is zero-sum when both have the same K.
    assert strong_after.rating + weak_after.rating == pytest.approx(3000.0, abs=1e-9)


def test_rating_difference_is_clipped_at_400():
    # 2000 v 1500 is a difference of 500, clipped to 400:
    # E(2000) = 1 / (1 + 10^(-400/400)) = 1 / 1.1 = 0.90909091 (unclipped it would be 0.94676)
    # 2000 wins, K 20: 2000 + 20 * (1 - 10/11) = 2000 + 20/11 = 2001.8181818
    # 1500 loses, K 20: 1500 + 20 * (0 - 1/11) = 1500 - 20/11 = 1498.1818182
    assert expected_score(own=2000.0, opponent=1500.0) == pytest.approx(10 / 11)
    assert expected_score(own=1500.0, opponent=2000.0) == pytest.approx(1 / 11)
    assert expected_score(own=2000.0, opponent=1500.0) == expected_score(
        own=2400.0, opponent=1500.0
    )
    strong = elo_update(
        player=EloState(rating=2000.0, games=100), opponent_rating=1500.0, score=1.0, params=PARAMS
    )
    weak = elo_update(
        player=EloState(rating=1500.0, games=100), opponent_rating=2000.0, score=0.0, params=PARAMS
    )
    assert strong.rating == pytest.approx(2001.8181818, abs=1e-6)
    assert weak.rating == pytest.approx(1498.1818182, abs=1e-6)


def test_underdog_win_at_the_clip():
    # 1500 beats 2100 (difference 600 clipped to 400), both established, K 20:
    # E(1500) = 1/11; 1500 + 20 * (1 - 1/11) = 1500 + 200/11 = 1518.1818182
    after = elo_update(
        player=EloState(rating=1500.0, games=30), opponent_rating=2100.0, score=1.0, params=PARAMS
    )
    assert after.rating == pytest.approx(1518.1818182, abs=1e-6)


def test_k_is_40_before_the_30th_game_and_20_from_it():
    # 29 games before this one: K 40; 1500 beats 1500: 1500 + 40 * 0.5 = 1520
    # 30 games before this one: K 20; 1500 beats 1500: 1500 + 20 * 0.5 = 1510
    assert k_factor(state=EloState(rating=1500.0, games=29), params=PARAMS) == 40
    assert k_factor(state=EloState(rating=1500.0, games=30), params=PARAMS) == 20
    at_29 = elo_update(
        player=EloState(rating=1500.0, games=29), opponent_rating=1500.0, score=1.0, params=PARAMS
    )
    at_30 = elo_update(
        player=EloState(rating=1500.0, games=30), opponent_rating=1500.0, score=1.0, params=PARAMS
    )
    assert at_29.rating == 1520.0
    assert at_29.games == 30
    assert at_30.rating == 1510.0
    # The 30th game itself was still at K 40; the next one is at K 20.
    assert k_factor(state=at_29, params=PARAMS) == 20


def test_k_is_10_for_good_once_the_rating_reached_2400():
    # 2390 (50 games) beats 2390: 2390 + 20 * 0.5 = 2400 exactly -> K is 10 from now on
    player = EloState(rating=2390.0, games=50)
    assert k_factor(state=player, params=PARAMS) == 20
    player = elo_update(player=player, opponent_rating=2390.0, score=1.0, params=PARAMS)
    assert player.rating == 2400.0
    assert player.master
    assert k_factor(state=player, params=PARAMS) == 10
    # loses to 2400: 2400 + 10 * (0 - 0.5) = 2395, below 2400 again ...
    player = elo_update(player=player, opponent_rating=2400.0, score=0.0, params=PARAMS)
    assert player.rating == 2395.0
    # ... and K stays 10: loses to 2395: 2395 - 10 * 0.5 = 2390
    assert k_factor(state=player, params=PARAMS) == 10
    player = elo_update(player=player, opponent_rating=2395.0, score=0.0, params=PARAMS)
    assert player.rating == 2390.0
    assert player.peak == 2400.0


def test_just_below_2400_is_not_master():
    # 2380 (50 games) beats 2380: 2380 + 20 * 0.5 = 2390 < 2400, K stays 20
    player = elo_update(
        player=EloState(rating=2380.0, games=50), opponent_rating=2380.0, score=1.0, params=PARAMS
    )
    assert player.rating == 2390.0
    assert not player.master
    assert k_factor(state=player, params=PARAMS) == 20


def test_master_k_takes_precedence_over_new_player_k():
    assert k_factor(state=EloState(rating=2410.0, games=5, master=True), params=PARAMS) == 10


def test_parameters_come_from_params():
    params = EloParams(start=1200.0, k_new=32.0, new_games=5, max_diff=350.0)
    new = EloState.new(params)
    assert new.rating == 1200.0
    assert elo_update(player=new, opponent_rating=1200.0, score=1.0, params=params).rating == 1216.0
    # difference 500 clipped to 350: E = 1 / (1 + 10^(350/400)) = 1 / (1 + 7.4989421) = 0.1176617
    assert expected_score(own=1000.0, opponent=1500.0, max_diff=350.0) == pytest.approx(
        0.1176617, abs=1e-7
    )


def test_a_score_other_than_win_draw_loss_is_refused():
    with pytest.raises(ValueError, match="score"):
        elo_update(player=EloState.new(PARAMS), opponent_rating=1500.0, score=0.7, params=PARAMS)


@given(
    own=st.floats(min_value=0, max_value=4000),
    opponent=st.floats(min_value=0, max_value=4000),
    games=st.integers(min_value=0, max_value=200),
    score=st.sampled_from([0.0, 0.5, 1.0]),
)
def test_equal_k_updates_are_zero_sum_and_expectations_within_the_clip(own, opponent, games, score):
    expected = expected_score(own=own, opponent=opponent)
    assert 1 / 11 - 1e-12 <= expected <= 10 / 11 + 1e-12
    assert expected + expected_score(own=opponent, opponent=own) == pytest.approx(1.0)
    a = EloState(rating=own, games=games)
    b = EloState(rating=opponent, games=games)
    a_after = elo_update(player=a, opponent_rating=opponent, score=score, params=PARAMS)
    b_after = elo_update(player=b, opponent_rating=own, score=1.0 - score, params=PARAMS)
    assert a_after.rating + b_after.rating == pytest.approx(own + opponent, abs=1e-9)
