"""Glicko-2 against the worked example of Glickman's paper, and the empty-period step."""

import math

import pytest

from rankings.rating.glicko2 import (
    SCALE,
    GlickoOutcome,
    GlickoParams,
    GlickoState,
    inactive_periods,
    rate_period,
)


def test_paper_example():
    # Glickman, "Example of the Glicko-2 system": 1500/200/0.06, tau 0.5, beats 1400/30,
    # loses to 1550/100 and 1700/300 -> 1464.06, RD 151.52, volatility 0.05999.
    after = rate_period(
        player=GlickoState(rating=1500.0, rd=200.0, volatility=0.06),
        outcomes=[
            GlickoOutcome(opponent_rating=1400.0, opponent_rd=30.0, score=1.0),
            GlickoOutcome(opponent_rating=1550.0, opponent_rd=100.0, score=0.0),
            GlickoOutcome(opponent_rating=1700.0, opponent_rd=300.0, score=0.0),
        ],
        params=GlickoParams(tau=0.5),
    )
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.rd == pytest.approx(151.52, abs=0.02)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_an_empty_period_only_grows_the_deviation():
    # In RD terms: RD' = sqrt(RD^2 + (173.7178 * sigma)^2) = sqrt(50^2 + 10.423068^2)
    #                  = sqrt(2500 + 108.64035) = sqrt(2608.64035) = 51.07485
    state = GlickoState(rating=1700.0, rd=50.0, volatility=0.06)
    after = rate_period(player=state, outcomes=[], params=GlickoParams())
    assert after.rating == 1700.0
    assert after.volatility == 0.06
    assert after.rd == pytest.approx(51.07485, abs=1e-5)
    # n empty periods at once: phi' = sqrt(phi^2 + n sigma^2)
    three = inactive_periods(player=state, periods=3, params=GlickoParams())
    assert three.rd == pytest.approx(SCALE * math.sqrt((50 / SCALE) ** 2 + 3 * 0.06**2))


def test_the_deviation_never_grows_past_the_start():
    state = GlickoState(rating=1500.0, rd=340.0, volatility=0.06)
    assert inactive_periods(player=state, periods=100, params=GlickoParams()).rd == 350.0
    assert inactive_periods(player=state, periods=0, params=GlickoParams()) is state


def test_a_win_raises_and_a_loss_lowers_the_rating_and_both_shrink_rd():
    params = GlickoParams()
    new = GlickoState.new(params)
    win = rate_period(player=new, outcomes=[GlickoOutcome(1500.0, 350.0, 1.0)], params=params)
    loss = rate_period(player=new, outcomes=[GlickoOutcome(1500.0, 350.0, 0.0)], params=params)
    draw = rate_period(player=new, outcomes=[GlickoOutcome(1500.0, 350.0, 0.5)], params=params)
    assert win.rating > 1500.0 > loss.rating
    assert win.rating - 1500.0 == pytest.approx(1500.0 - loss.rating)
    assert draw.rating == pytest.approx(1500.0)
    assert win.rd < 350.0
    assert loss.rd == pytest.approx(win.rd)


def test_the_volatility_search_handles_a_surprising_result():
    # Delta^2 > phi^2 + v takes the other branch of step 5 (B = ln(Delta^2 - phi^2 - v)).
    player = GlickoState(rating=1500.0, rd=30.0, volatility=0.06)
    after = rate_period(
        player=player, outcomes=[GlickoOutcome(2500.0, 30.0, 1.0)] * 10, params=GlickoParams()
    )
    assert after.volatility > 0.06
    assert after.rating > 1500.0
