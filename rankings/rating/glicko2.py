"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013).

`rate_period` is the paper's algorithm for one rating period, steps 2 to 8, with the
Illinois algorithm of step 5 for the new volatility. `inactive_periods` applies step 6
alone to a player who played in none of some number of periods.

How the world ranking uses it (see `history.rate_game`): every rated game is its own rating
period for its two players, and every whole calendar month in which a player played no rated
game counts as an empty period in which only the rating deviation grows. The deviation never
grows past the starting deviation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: The factor between the Glicko scale (1500, RD 350) and the Glicko-2 scale (0, phi 2.0147).
SCALE = 173.7178


@dataclass(frozen=True, slots=True)
class GlickoParams:
    start_rating: float = 1500.0
    start_rd: float = 350.0
    start_volatility: float = 0.06
    tau: float = 0.5
    epsilon: float = 0.000001


@dataclass(frozen=True, slots=True)
class GlickoState:
    """Rating and rating deviation on the Glicko scale, and volatility."""

    rating: float
    rd: float
    volatility: float

    @classmethod
    def new(cls, params: GlickoParams) -> GlickoState:
        return cls(params.start_rating, params.start_rd, params.start_volatility)


@dataclass(frozen=True, slots=True)
class GlickoOutcome:
    """One game of a rating period: the opponent's rating and RD, and the score (1, 0.5, 0)."""

    opponent_rating: float
    opponent_rd: float
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


def _new_volatility(
    *, phi: float, sigma: float, delta: float, v: float, tau: float, epsilon: float
) -> float:
    """Step 5: solve for sigma' with the Illinois algorithm, as in the paper."""
    a = math.log(sigma * sigma)
    delta2 = delta * delta
    phi2 = phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > epsilon:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate_period(
    *, player: GlickoState, outcomes: Sequence[GlickoOutcome], params: GlickoParams
) -> GlickoState:
    """The player's state after one rating period in which they played `outcomes`.

    With no outcomes only the rating deviation grows (step 6 alone).
    """
    if not outcomes:
        return inactive_periods(player=player, periods=1, params=params)
    mu = (player.rating - 1500.0) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility

    v_inv = 0.0
    delta_sum = 0.0
    for outcome in outcomes:
        if outcome.score not in (0.0, 0.5, 1.0):
            raise ValueError(f"score must be 0, 0.5 or 1, not {outcome.score!r}")
        mu_j = (outcome.opponent_rating - 1500.0) / SCALE
        g_j = _g(outcome.opponent_rd / SCALE)
        e_j = _expected(mu, mu_j, g_j)
        v_inv += g_j * g_j * e_j * (1.0 - e_j)
        delta_sum += g_j * (outcome.score - e_j)
    v = 1.0 / v_inv
    delta = v * delta_sum

    sigma_new = _new_volatility(
        phi=phi, sigma=sigma, delta=delta, v=v, tau=params.tau, epsilon=params.epsilon
    )
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    return GlickoState(rating=SCALE * mu_new + 1500.0, rd=SCALE * phi_new, volatility=sigma_new)


def inactive_periods(*, player: GlickoState, periods: int, params: GlickoParams) -> GlickoState:
    """The state after `periods` rating periods without a game: phi grows as
    sqrt(phi^2 + n * sigma^2), capped at the starting deviation."""
    if periods <= 0:
        return player
    phi = player.rd / SCALE
    phi_new = math.sqrt(phi * phi + periods * player.volatility * player.volatility)
    rd = min(SCALE * phi_new, params.start_rd)
    if rd <= player.rd:
        return player
    return GlickoState(rating=player.rating, rd=rd, volatility=player.volatility)
