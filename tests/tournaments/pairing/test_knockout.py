"""Knockout: seeded brackets with byes, the next rounds, and the rules of a match."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.pairing.base import Pair, PairingError
from tournaments.pairing.knockout import (
    BracketMatch,
    KnockoutPlace,
    MatchDecision,
    MatchGame,
    MatchPolicy,
    MatchState,
    TieDecider,
    bracket_order,
    decide_match,
    knockout_bracket,
    knockout_next_round,
    knockout_places,
    knockout_round_name,
    knockout_rounds,
)

WIN, DRAW, LOSS = Fraction(1), Fraction(1, 2), Fraction(0)
HIGH, LOW = 3, 14  # the two players of the match under test (seed 3 v seed 14)
FIRST_PAIR = (Pair(orange=HIGH, blue=LOW), Pair(orange=LOW, blue=HIGH))


def test_bracket_of_five_gives_byes_to_seeds_1_2_3() -> None:
    assert knockout_bracket(5) == (
        BracketMatch(1, None),
        BracketMatch(4, 5),
        BracketMatch(2, None),
        BracketMatch(3, None),
    )


def test_bracket_of_eight() -> None:
    assert knockout_bracket(8) == (
        BracketMatch(1, 8),
        BracketMatch(4, 5),
        BracketMatch(2, 7),
        BracketMatch(3, 6),
    )


def test_bracket_of_thirteen_gives_byes_to_seeds_1_2_3() -> None:
    assert knockout_bracket(13) == (
        BracketMatch(1, None),
        BracketMatch(8, 9),
        BracketMatch(4, 13),
        BracketMatch(5, 12),
        BracketMatch(2, None),
        BracketMatch(7, 10),
        BracketMatch(3, None),
        BracketMatch(6, 11),
    )
    assert [m.higher_seed for m in knockout_bracket(13) if m.is_bye] == [1, 2, 3]


def test_bracket_of_two_is_the_final() -> None:
    assert knockout_bracket(2) == (BracketMatch(1, 2),)


def test_bracket_order_of_sixteen() -> None:
    assert bracket_order(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)


@pytest.mark.parametrize("size", [0, 1, 3, 12])
def test_bracket_order_needs_a_power_of_two(size: int) -> None:
    with pytest.raises(PairingError, match=f"power of two places.*not {size}"):
        bracket_order(size)


@pytest.mark.parametrize(
    ("entrants", "rounds"), [(2, 1), (3, 2), (4, 2), (5, 3), (8, 3), (9, 4), (13, 4), (16, 4)]
)
def test_number_of_rounds(entrants: int, rounds: int) -> None:
    assert knockout_rounds(entrants) == rounds


@pytest.mark.parametrize("entrants", [1, 0])
def test_a_knockout_needs_two_players(entrants: int) -> None:
    with pytest.raises(PairingError, match=f"at least 2 players, not {entrants}"):
        knockout_bracket(entrants)


def test_next_round_pairs_the_winners_of_neighbouring_matches() -> None:
    # 13 players, first round: the byes go through, 9, 13, 5, 10 and 11 win their matches.
    winners = [1, 9, 13, 5, 2, 10, 3, 11]
    assert knockout_next_round(winners) == (
        BracketMatch(1, 9),
        BracketMatch(5, 13),
        BracketMatch(2, 10),
        BracketMatch(3, 11),
    )
    assert knockout_next_round([5, 2]) == (BracketMatch(2, 5),)


@pytest.mark.parametrize("entrants", range(2, 40))
def test_when_the_higher_seed_always_wins_the_last_four_are_the_top_four(entrants: int) -> None:
    """Standard placement: 1 and 2 only meet in the final, 1 to 4 in the semi-finals."""
    matches = knockout_bracket(entrants)
    rounds = [matches]
    while len(matches) > 1:
        matches = knockout_next_round([m.higher_seed for m in matches])
        rounds.append(matches)
    assert len(rounds) == knockout_rounds(entrants)
    assert rounds[-1] == (BracketMatch(1, 2),)
    if entrants >= 4:
        assert rounds[-2] == (BracketMatch(1, 4), BracketMatch(2, 3))
    seeds_in_round_one = [s for m in rounds[0] for s in (m.higher_seed, m.lower_seed) if s]
    assert sorted(seeds_in_round_one) == list(range(1, entrants + 1))


@pytest.mark.parametrize("winners", [[], [1], [1, 2, 3]])
def test_next_round_needs_an_even_number_of_winners(winners: list[int]) -> None:
    with pytest.raises(PairingError, match=f"even number .* not {len(winners)}"):
        knockout_next_round(winners)


def test_next_round_refuses_a_repeated_winner() -> None:
    with pytest.raises(PairingError, match="cannot win twice"):
        knockout_next_round([1, 4, 1, 3])


def _game(orange: int, blue: int, orange_points: Fraction | None = None) -> MatchGame:
    """A game of the match; ``orange_points`` None while it runs."""
    if orange_points is None:
        return MatchGame(orange, blue)
    return MatchGame(orange, blue, orange_points, 1 - orange_points)


def _decide(*games: MatchGame, policy: MatchPolicy | None = None) -> MatchState:
    return decide_match(
        higher_seed=HIGH, lower_seed=LOW, games=games, policy=policy or MatchPolicy()
    )


def test_a_new_match_starts_a_pair_one_game_with_each_colour() -> None:
    assert _decide() == MatchState(LOSS, LOSS, games_to_start=FIRST_PAIR)


def test_won_two_nil() -> None:
    state = _decide(_game(HIGH, LOW, WIN), _game(LOW, HIGH, LOSS))
    assert state == MatchState(Fraction(2), LOSS, winner=HIGH, decided_by=MatchDecision.GAMES)


def test_won_one_and_a_half_to_a_half_by_the_lower_seed() -> None:
    state = _decide(_game(HIGH, LOW, DRAW), _game(LOW, HIGH, WIN))
    assert state == MatchState(DRAW, Fraction(3, 2), winner=LOW, decided_by=MatchDecision.GAMES)


def test_one_game_over_and_one_running_is_not_decided_yet() -> None:
    assert _decide(_game(HIGH, LOW, WIN), _game(LOW, HIGH)) == MatchState(
        WIN, LOSS, games_running=1
    )
    # The same when only the finished game of the pair is given.
    assert _decide(_game(LOW, HIGH, DRAW)) == MatchState(DRAW, DRAW, games_running=1)


def test_a_tied_pair_starts_an_extra_pair() -> None:
    state = _decide(_game(HIGH, LOW, WIN), _game(LOW, HIGH, WIN))
    assert state == MatchState(WIN, WIN, games_to_start=FIRST_PAIR)


def test_tied_then_decided_by_the_extra_games() -> None:
    games = (
        _game(HIGH, LOW, DRAW),
        _game(LOW, HIGH, DRAW),
        _game(LOW, HIGH, WIN),  # the extra pair, given in either order
        _game(HIGH, LOW, DRAW),
    )
    state = _decide(*games, policy=MatchPolicy(max_extra_pairs=2))
    assert state == MatchState(
        Fraction(3, 2), Fraction(5, 2), winner=LOW, decided_by=MatchDecision.GAMES
    )


FIRST_PAIR_GAMES_RUNNING = (_game(HIGH, LOW), _game(LOW, HIGH))
TIED_TWICE = (
    _game(HIGH, LOW, WIN),
    _game(LOW, HIGH, WIN),
    _game(HIGH, LOW, DRAW),
    _game(LOW, HIGH, DRAW),
)


def test_still_tied_after_the_extra_pairs_the_higher_seed_goes_through() -> None:
    policy = MatchPolicy(max_extra_pairs=1, decider=TieDecider.HIGHER_SEED)
    assert _decide(*TIED_TWICE, policy=policy) == MatchState(
        Fraction(2), Fraction(2), winner=HIGH, decided_by=MatchDecision.HIGHER_SEED
    )


def test_still_tied_after_the_extra_pairs_more_games_until_a_pair_is_won() -> None:
    policy = MatchPolicy(max_extra_pairs=1, decider=TieDecider.MORE_GAMES)
    assert _decide(*TIED_TWICE, policy=policy) == MatchState(
        Fraction(2), Fraction(2), games_to_start=FIRST_PAIR
    )
    tied_thrice = (*TIED_TWICE, _game(HIGH, LOW, LOSS), _game(LOW, HIGH, LOSS))
    assert _decide(*tied_thrice, policy=policy).games_to_start == FIRST_PAIR
    decided = (*tied_thrice, _game(HIGH, LOW, WIN), _game(LOW, HIGH, DRAW))
    assert _decide(*decided, policy=policy) == MatchState(
        Fraction(9, 2), Fraction(7, 2), winner=HIGH, decided_by=MatchDecision.GAMES
    )


def test_still_tied_after_the_extra_pairs_the_organiser_decides() -> None:
    policy = MatchPolicy(max_extra_pairs=1, decider=TieDecider.ORGANISER)
    assert _decide(*TIED_TWICE, policy=policy) == MatchState(
        Fraction(2), Fraction(2), awaiting_organiser=True
    )


def test_no_extra_pairs_a_tied_pair_goes_to_the_higher_seed_at_once() -> None:
    policy = MatchPolicy(max_extra_pairs=0, decider="higher_seed")  # type: ignore[arg-type]
    state = _decide(*TIED_TWICE[:2], policy=policy)
    assert state.winner == HIGH
    assert state.decided_by is MatchDecision.HIGHER_SEED
    assert policy.decider is TieDecider.HIGHER_SEED


def test_a_double_forfeit_scores_nothing_for_either() -> None:
    games = (MatchGame(HIGH, LOW, LOSS, LOSS), _game(LOW, HIGH, DRAW))
    assert _decide(*games) == MatchState(DRAW, DRAW, games_to_start=FIRST_PAIR)


def test_games_after_the_match_was_won_are_refused() -> None:
    games = (_game(HIGH, LOW, WIN), _game(LOW, HIGH, DRAW), *FIRST_PAIR_GAMES_RUNNING)
    with pytest.raises(PairingError, match="settled after pair 1; pair 2 does not belong"):
        _decide(*games)


def test_games_after_the_higher_seed_went_through_are_refused() -> None:
    with pytest.raises(PairingError, match="settled after pair 2; pair 3 does not belong"):
        _decide(*TIED_TWICE, *FIRST_PAIR_GAMES_RUNNING)


def test_a_pair_started_before_the_previous_one_ended_is_refused() -> None:
    games = (_game(HIGH, LOW, WIN), _game(LOW, HIGH), *FIRST_PAIR_GAMES_RUNNING)
    with pytest.raises(PairingError, match="Pair 1 is not over, yet pair 2 was started"):
        _decide(*games)


def test_a_game_of_other_players_is_refused() -> None:
    with pytest.raises(PairingError, match="Game 2 is 14 v 5, not a game of the match 3 v 14"):
        _decide(_game(HIGH, LOW, WIN), _game(LOW, 5, WIN))


def test_a_pair_with_the_same_colours_twice_is_refused() -> None:
    with pytest.raises(PairingError, match=r"Games 1 and 2 .* opposite colours"):
        _decide(_game(HIGH, LOW, WIN), _game(HIGH, LOW, WIN))


@pytest.mark.parametrize(
    ("orange_points", "blue_points"),
    [(WIN, WIN), (DRAW, LOSS), (Fraction(2), Fraction(-1)), (Fraction(1, 3), Fraction(2, 3))],
)
def test_impossible_scores_are_refused(orange_points: Fraction, blue_points: Fraction) -> None:
    with pytest.raises(PairingError, match=r"Game 1 scores .* a game scores 1-0"):
        _decide(MatchGame(HIGH, LOW, orange_points, blue_points))


def test_points_for_one_side_only_are_refused() -> None:
    with pytest.raises(PairingError, match="Game 1 has points for one side only"):
        _decide(MatchGame(HIGH, LOW, WIN, None))


def test_a_match_against_oneself_is_refused() -> None:
    with pytest.raises(PairingError, match="two different players, not 3 twice"):
        decide_match(higher_seed=3, lower_seed=3, games=(), policy=MatchPolicy())


def test_policy_refuses_a_negative_number_of_extra_pairs() -> None:
    with pytest.raises(PairingError, match="0 or more, not -1"):
        MatchPolicy(max_extra_pairs=-1)


def test_policy_refuses_an_unknown_decider() -> None:
    with pytest.raises(
        PairingError, match="one of 'higher_seed', 'more_games', 'organiser', not 'coin'"
    ):
        MatchPolicy(decider="coin")  # type: ignore[arg-type]


def test_places_go_by_the_round_a_player_went_out_in_shared_within_a_round():
    exits = {1: None, 2: 3, 3: 2, 4: 2, 5: 1, 6: 1, 7: 1, 8: 1}
    places = knockout_places(exits)
    assert places[1] == KnockoutPlace(1, 1, None)
    assert places[2] == KnockoutPlace(2, 2, 3)
    assert places[3] == places[4] == KnockoutPlace(3, 4, 2)
    assert {places[n] for n in (5, 6, 7, 8)} == {KnockoutPlace(5, 8, 1)}


def test_players_still_in_share_the_top_places():
    places = knockout_places({1: None, 2: None, 3: 1})
    assert [(p.first, p.last) for p in places.values()] == [(1, 2), (1, 2), (3, 3)]
    with pytest.raises(PairingError, match="numbered from 1"):
        knockout_places({1: 0})


def test_round_names():
    assert [knockout_round_name(n, 5) for n in range(1, 6)] == [
        "Round 1",
        "Round 2",
        "Quarter-finals",
        "Semi-finals",
        "Final",
    ]
    with pytest.raises(PairingError, match="no round 3"):
        knockout_round_name(3, 2)
