"""Replaying a history of results: one code path, deterministic to the last bit."""

import random
from datetime import date

import pytest

from rankings.rating.elo import EloParams
from rankings.rating.glicko2 import GlickoOutcome, GlickoParams, GlickoState, rate_period
from rankings.rating.history import (
    GameRecord,
    PlayerState,
    RatingParams,
    empty_months_between,
    glicko_now,
    rate_game,
    replay,
    replay_steps,
)

PARAMS = RatingParams()


def test_both_players_update_from_their_ratings_before_the_game():
    # Game 1: A beats B, both new: A 1520, B 1480.
    # Game 2: B beats A: E(B) = 1 / (1 + 10^(40/400)) = 1 / (1 + 1.25892541) = 0.44268837
    #   B: 1480 + 40 * (1 - 0.44268837) = 1480 + 22.2924653 = 1502.2924653
    #   A: 1520 + 40 * (0 - 0.55731163) = 1520 - 22.2924653 = 1497.7075347
    # Game 3: A draws C (new, 1500): E(A) = 1 / (1 + 10^(2.2924653/400)) = 0.49670093
    #   A: 1497.7075347 + 40 * (0.5 - 0.49670093) = 1497.7075347 + 0.1319630 = 1497.8394976
    #   C: 1500 + 40 * (0.5 - 0.50329907) = 1500 - 0.1319630 = 1499.8680370
    records = [
        GameRecord("A", "B", 1.0, date(2024, 1, 5)),
        GameRecord("A", "B", 0.0, date(2024, 1, 6)),
        GameRecord("A", "C", 0.5, date(2024, 1, 7)),
    ]
    states = replay(records, params=PARAMS)
    assert states["A"].elo.rating == pytest.approx(1497.8394976, abs=1e-6)
    assert states["B"].elo.rating == pytest.approx(1502.2924653, abs=1e-6)
    assert states["C"].elo.rating == pytest.approx(1499.8680370, abs=1e-6)
    assert states["A"].games == 3
    assert states["B"].games == 2
    assert states["C"].games == 1
    assert states["A"].elo.peak == 1520.0
    assert states["A"].last_played == date(2024, 1, 7)


def test_glicko_of_one_game_is_one_rating_period():
    s1, s2 = rate_game(
        state1=PlayerState.new(PARAMS),
        state2=PlayerState.new(PARAMS),
        score1=1.0,
        played_on=date(2024, 3, 1),
        params=PARAMS,
    )
    expected = rate_period(
        player=GlickoState.new(PARAMS.glicko),
        outcomes=[GlickoOutcome(1500.0, 350.0, 1.0)],
        params=PARAMS.glicko,
    )
    assert s1.glicko == expected
    assert s2.glicko.rating == pytest.approx(3000.0 - expected.rating)


def test_empty_months_between():
    assert empty_months_between(None, date(2024, 5, 1)) == 0
    assert empty_months_between(date(2024, 1, 31), date(2024, 1, 31)) == 0
    assert empty_months_between(date(2024, 1, 31), date(2024, 2, 1)) == 0
    assert empty_months_between(date(2024, 1, 1), date(2024, 3, 31)) == 1
    assert empty_months_between(date(2023, 11, 15), date(2024, 2, 1)) == 2


def test_the_deviation_grows_for_months_without_games():
    one = [GameRecord("A", "B", 1.0, date(2024, 1, 5)), GameRecord("A", "C", 1.0, date(2024, 2, 5))]
    gap = [GameRecord("A", "B", 1.0, date(2024, 1, 5)), GameRecord("A", "C", 1.0, date(2024, 6, 5))]
    after_one = replay(one, params=PARAMS)["A"]
    after_gap = replay(gap, params=PARAMS)["A"]
    # Four empty months (Feb-May) before the second game: A's RD was larger going in.
    assert after_gap.glicko.rd > after_one.glicko.rd
    # Elo does not depend on time.
    assert after_gap.elo == after_one.elo
    # For display the deviation grows up to today; the stored state does not change.
    state = after_one
    assert glicko_now(state=state, today=date(2024, 2, 28), params=PARAMS) == state.glicko
    assert glicko_now(state=state, today=date(2024, 12, 1), params=PARAMS).rd > state.glicko.rd


def test_replay_steps_report_before_and_after_each_game():
    records = [GameRecord(1, 2, 1.0, date(2024, 1, 1)), GameRecord(2, 1, 0.5, date(2024, 1, 2))]
    steps = list(replay_steps(records, params=PARAMS))
    assert steps[0].before1 == PlayerState.new(PARAMS)
    assert steps[1].before1 == steps[0].after2  # player 2 is player1 of the second game
    assert steps[1].before2 == steps[0].after1


def test_replay_can_continue_from_stored_states():
    records = _random_history(seed=7, games=300)
    full = replay(records, params=PARAMS)
    states: dict[int, PlayerState] = {}
    for _ in replay_steps(records[:200], params=PARAMS, states=states):
        pass
    for _ in replay_steps(records[200:], params=PARAMS, states=states):
        pass
    assert states == full  # exact float equality: incremental == from scratch


def test_replay_is_bit_identical_on_repetition():
    records = _random_history(seed=3, games=2000)
    assert replay(records, params=PARAMS) == replay(records, params=PARAMS)


def test_a_player_cannot_play_themselves():
    with pytest.raises(ValueError, match="themselves"):
        replay([GameRecord("A", "A", 1.0, date(2024, 1, 1))], params=PARAMS)


def test_parameters_flow_through():
    params = RatingParams(elo=EloParams(start=1000.0), glicko=GlickoParams(start_rating=1200.0))
    state = PlayerState.new(params)
    assert state.elo.rating == 1000.0
    assert state.glicko.rating == 1200.0


def _random_history(*, seed: int, games: int) -> list[GameRecord[int]]:
    rng = random.Random(seed)
    records = []
    day = date(2020, 1, 1).toordinal()
    for _ in range(games):
        day += rng.randrange(0, 4)
        a, b = rng.sample(range(40), 2)
        records.append(GameRecord(a, b, rng.choice((0.0, 0.5, 1.0)), date.fromordinal(day)))
    return records
