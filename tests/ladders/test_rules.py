"""The ladder's pure rules, without a database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ladders.rules import (
    ChallengeContext,
    LadderRules,
    challenge_refusal,
    inactive_players,
    order_after_drop,
    order_after_joining,
    order_after_leaving,
    order_after_result,
    place_of,
)

NOW = datetime(2026, 5, 4, 12, 0, tzinfo=UTC)
ORDER = (10, 20, 30, 40, 50, 60)  # place 1 is player 10 … place 6 is player 60
RULES = LadderRules(challenge_range=3, max_open_challenges=2, rematch_days=7)


def refusal(challenger: int, defender: int, context: ChallengeContext | None = None) -> str | None:
    found = challenge_refusal(
        ORDER,
        challenger=challenger,
        defender=defender,
        rules=RULES,
        context=context or ChallengeContext(),
        now=NOW,
    )
    return None if found is None else found.code


def test_places_are_one_based():
    assert place_of(ORDER, 10) == 1
    assert place_of(ORDER, 60) == 6
    assert place_of(ORDER, 99) is None


def test_a_player_may_challenge_up_to_the_range_above_and_no_further():
    assert [refusal(60, d) for d in (50, 40, 30)] == [None, None, None]
    assert refusal(60, 20) == "out_of_range"
    assert refusal(20, 10) is None


def test_the_range_message_names_the_places_allowed():
    found = challenge_refusal(
        ORDER, challenger=60, defender=10, rules=RULES, context=ChallengeContext(), now=NOW
    )
    assert found is not None
    assert "places 3 to 5" in found.message and "not place 1" in found.message


@pytest.mark.parametrize(
    ("challenger", "defender", "code"),
    [
        (30, 30, "self_challenge"),
        (99, 30, "not_on_ladder"),
        (30, 99, "opponent_not_on_ladder"),
        (30, 40, "not_above"),
        (10, 20, "not_above"),
    ],
)
def test_refusals_about_who(challenger, defender, code):
    assert refusal(challenger, defender) == code


def test_one_open_challenge_per_pair():
    assert refusal(40, 30, ChallengeContext(open_pairs=[frozenset((30, 40))])) == (
        "pair_already_playing"
    )


def test_open_challenges_are_limited_for_both_players():
    busy_challenger = ChallengeContext(open_pairs=[frozenset((60, 1)), frozenset((60, 2))])
    assert refusal(60, 50, busy_challenger) == "too_many_open_challenges"
    busy_defender = ChallengeContext(open_pairs=[frozenset((50, 1)), frozenset((50, 2))])
    assert refusal(60, 50, busy_defender) == "opponent_too_busy"
    one_each = ChallengeContext(open_pairs=[frozenset((60, 1)), frozenset((50, 2))])
    assert refusal(60, 50, one_each) is None


def test_a_rematch_waits_the_days_set():
    pair = frozenset((40, 30))
    recent = ChallengeContext(last_decided={pair: NOW - timedelta(days=7) + timedelta(seconds=1)})
    assert refusal(40, 30, recent) == "rematch_too_soon"
    long_ago = ChallengeContext(last_decided={pair: NOW - timedelta(days=7)})
    assert refusal(40, 30, long_ago) is None


def test_a_challenger_who_wins_takes_the_place_and_those_between_move_down():
    assert order_after_result(ORDER, challenger=50, defender=20, winner=50) == (
        10,
        50,
        20,
        30,
        40,
        60,
    )
    assert order_after_result(ORDER, challenger=20, defender=10, winner=20) == (
        20,
        10,
        30,
        40,
        50,
        60,
    )


def test_a_defender_win_or_a_draw_changes_nothing():
    assert order_after_result(ORDER, challenger=50, defender=20, winner=20) == ORDER
    assert order_after_result(ORDER, challenger=50, defender=20, winner=None) == ORDER


def test_a_challenger_who_is_already_above_by_then_stays():
    # 50 challenged 20, then climbed above 20 in another game before this one ended.
    order = (10, 50, 20, 30, 40, 60)
    assert order_after_result(order, challenger=50, defender=20, winner=50) == order


def test_a_drop_moves_the_player_down_and_stops_at_the_bottom():
    assert order_after_drop(ORDER, player=20, places=2) == (10, 30, 40, 20, 50, 60)
    assert order_after_drop(ORDER, player=50, places=5) == (10, 20, 30, 40, 60, 50)
    assert order_after_drop(ORDER, player=20, places=0) == ORDER
    with pytest.raises(ValueError, match="expected 0 or more"):
        order_after_drop(ORDER, player=20, places=-1)


def test_leaving_and_joining():
    assert order_after_leaving(ORDER, player=30) == (10, 20, 40, 50, 60)
    assert order_after_joining(ORDER, player=70) == (*ORDER, 70)
    with pytest.raises(ValueError, match="already on the ladder"):
        order_after_joining(ORDER, player=30)
    with pytest.raises(ValueError, match="not on the ladder"):
        order_after_leaving(ORDER, player=99)


def test_inactive_players_are_those_idle_for_the_days_set_and_not_busy():
    rules = LadderRules(inactivity_days=30)
    last = {
        1: NOW - timedelta(days=30),
        2: NOW - timedelta(days=29, hours=23),
        3: NOW - timedelta(days=40),
        4: NOW - timedelta(days=60),
    }
    assert inactive_players(last, busy={4}, rules=rules, now=NOW) == [3, 1]


def test_rules_out_of_bounds_are_named():
    bad = LadderRules(challenge_range=0, max_open_challenges=0, inactivity_days=3)
    assert set(bad.problems()) == {"challenge_range", "max_open_challenges", "inactivity_days"}
    assert LadderRules().problems() == {}
