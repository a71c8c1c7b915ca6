"""Plackett-Luce ratings of finishing orders (pure, no database): the numbers are openskill's."""

from __future__ import annotations

from datetime import date

import pytest
from openskill.models import PlackettLuce

from rankings.rating.plackett_luce import (
    FinishRecord,
    SkillParams,
    SkillState,
    check_finish,
    rate_finish,
    replay_finish,
    replay_finish_steps,
    share_beaten,
)

DAY = date(2025, 6, 1)


def _openskill(ranks: list[int], ratings: list[tuple[float, float]] | None = None) -> list:
    """What openskill itself says, called directly: (mu, sigma) per player."""
    model = PlackettLuce()
    teams = [
        [model.rating(mu=mu, sigma=sigma)]
        for mu, sigma in (ratings or [(model.mu, model.sigma)] * len(ranks))
    ]
    return [(team[0].mu, team[0].sigma) for team in model.rate(teams, ranks=ranks)]


def test_a_new_player_starts_at_openskills_defaults_and_shows_1500():
    state = SkillState.new()
    assert (state.mu, state.sigma, state.games, state.last_played) == (25.0, 25 / 3, 0, None)
    assert state.display(SkillParams()) == pytest.approx(1500.0)


def test_the_shown_rating_is_the_scaled_ordinal():
    state = SkillState(mu=30.0, sigma=2.0)
    assert state.display(SkillParams()) == pytest.approx(1500.0 + 40.0 * 24.0)
    assert state.display(SkillParams(display_start=0.0, display_scale=1.0)) == 24.0


@pytest.mark.parametrize(
    "places",
    [(1, 2, 3), (3, 1, 2), (1, 2, 3, 4), (2, 4, 1, 3)],
    ids=["3 in seat order", "3 shuffled", "4 in seat order", "4 shuffled"],
)
def test_a_finishing_order_moves_each_player_as_openskill_does(places):
    after = rate_finish(states=[SkillState.new()] * len(places), places=places, played_on=DAY)
    assert [(s.mu, s.sigma) for s in after] == _openskill(list(places))
    assert all(s.games == 1 and s.last_played == DAY for s in after)
    winner = after[places.index(1)]
    last = after[places.index(len(places))]
    assert winner.mu > 25.0 > last.mu


def test_ties_share_a_place_and_move_alike():
    after = rate_finish(states=[SkillState.new()] * 4, places=(1, 2, 2, 4), played_on=DAY)
    assert [(s.mu, s.sigma) for s in after] == _openskill([1, 2, 2, 4])
    assert after[1] == after[2]
    everyone_tied = rate_finish(states=[SkillState.new()] * 3, places=(1, 1, 1), played_on=DAY)
    assert {round(s.mu, 9) for s in everyone_tied} == {25.0}


def test_players_start_from_their_ratings_before_the_game():
    before = [SkillState(30.0, 4.0, games=7), SkillState(22.0, 6.0, games=2), SkillState.new()]
    after = rate_finish(states=before, places=(3, 1, 2), played_on=DAY)
    assert [(s.mu, s.sigma) for s in after] == _openskill(
        [3, 1, 2], [(30.0, 4.0), (22.0, 6.0), (25.0, 25 / 3)]
    )
    assert [s.games for s in after] == [8, 3, 1]


def test_two_seats_are_rated_by_the_same_model():
    after = rate_finish(states=[SkillState.new()] * 2, places=(2, 1), played_on=DAY)
    assert [(s.mu, s.sigma) for s in after] == _openskill([2, 1])


def test_a_replay_chains_the_states_in_the_order_given():
    records = [
        FinishRecord(("ann", "bob", "cy"), (1, 2, 3), date(2025, 1, 1)),
        FinishRecord(("cy", "dee", "ann", "bob"), (1, 2, 2, 4), date(2025, 2, 1)),
    ]
    steps = list(replay_finish_steps(records))
    first = _openskill([1, 2, 3])
    assert [(s.mu, s.sigma) for s in steps[0].after] == first
    ann, bob, cy = first
    second = _openskill([1, 2, 2, 4], [cy, (25.0, 25 / 3), ann, bob])
    assert [(s.mu, s.sigma) for s in steps[1].after] == second
    assert steps[1].before[0] == steps[0].after[2]  # cy carries her first game's state
    states = replay_finish(records)
    assert (states["cy"].mu, states["cy"].sigma) == second[0]
    assert (states["cy"].games, states["dee"].games) == (2, 1)
    assert states["bob"].last_played == date(2025, 2, 1)


@pytest.mark.parametrize(
    ("players", "places", "message"),
    [
        (("ann",), (1,), "at least two players, not 1"),
        (("ann", "bob"), (1,), "2 players need 2 places, not 1"),
        (("ann", "ann"), (1, 2), "cannot finish twice"),
        (("ann", "bob"), (0, 1), "whole numbers from 1"),
    ],
)
def test_a_bad_finishing_order_is_refused_saying_why(players, places, message):
    with pytest.raises(ValueError, match=message):
        check_finish(players, places)
    with pytest.raises(ValueError, match=message):
        replay_finish([FinishRecord(players, places, DAY)])


def test_share_beaten_counts_ties_half():
    assert [share_beaten((1, 2, 2, 4), i) for i in range(4)] == [1.0, 0.5, 0.5, 0.0]
    assert [share_beaten((1, 2), i) for i in range(2)] == [1.0, 0.0]
    assert share_beaten((1, 1), 0) == 0.5
