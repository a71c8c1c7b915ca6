"""Placement, promotion and relegation as pure functions (no database)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from leagues.placement import (
    DivisionRules,
    FinalTable,
    How,
    Movement,
    Newcomer,
    Outcome,
    Returning,
    division_sizes,
    season_moves,
    season_placement,
)

TWO_UP_TWO_DOWN = DivisionRules(
    target_size=6, min_size=4, promotion=Movement(count=2), relegation=Movement(count=2)
)


def ids(divisions):
    return [[seat.player_id for seat in division] for division in divisions]


# --- Movement and sizes ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("movement", "size", "expected"),
    [
        (Movement(count=2), 6, 2),
        (Movement(count=2), 1, 1),
        (Movement(count=0), 6, 0),
        (Movement(share=Fraction(1, 4)), 8, 2),
        (Movement(share=Fraction(1, 4)), 6, 2),  # 1.5 rounds half up
        (Movement(share=Fraction(1, 4)), 5, 1),
        (Movement(share=Fraction(1, 10)), 3, 1),  # at least one
        (Movement(share=Fraction(0)), 8, 0),
    ],
)
def test_movement_counts(movement, size, expected):
    assert movement.of(size) == expected


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "either a count or a share"),
        ({"count": 1, "share": Fraction(1, 4)}, "either a count or a share"),
        ({"count": -1}, "0 or more"),
        ({"share": Fraction(1)}, "below 1"),
    ],
)
def test_bad_movements_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Movement(**kwargs)


def test_bad_sizes_are_refused():
    with pytest.raises(ValueError, match="at least 2 players"):
        DivisionRules(
            target_size=6, min_size=1, promotion=Movement(count=1), relegation=Movement(count=1)
        )
    with pytest.raises(
        ValueError, match="target size \\(3\\) must be at least the minimum \\(4\\)"
    ):
        DivisionRules(
            target_size=3, min_size=4, promotion=Movement(count=1), relegation=Movement(count=1)
        )


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (0, []),
        (1, []),
        (3, [3]),
        (6, [6]),
        (10, [6, 4]),
        (14, [6, 8]),
        (15, [6, 9]),
        (16, [6, 6, 4]),
    ],
)
def test_division_sizes_fill_top_down(players, expected):
    assert division_sizes(players, TWO_UP_TWO_DOWN) == expected


def test_promotion_and_relegation_never_overlap():
    rules = DivisionRules(
        target_size=4, min_size=2, promotion=Movement(count=2), relegation=Movement(count=2)
    )
    assert rules.movers(3, top=False, bottom=False) == (2, 1)
    assert rules.movers(3, top=True, bottom=False) == (0, 2)
    assert rules.movers(3, top=False, bottom=True) == (2, 0)


# --- Season end ----------------------------------------------------------------------------


def test_season_moves_between_three_tiers():
    tables = [
        FinalTable(tier=1, players=(1, 2, 3, 4, 5, 6)),
        FinalTable(tier=2, players=(11, 12, 13, 14, 15, 16)),
        FinalTable(tier=3, players=(21, 22, 23, 24)),
    ]
    moves = season_moves(tables, TWO_UP_TWO_DOWN)
    summary = {pid: (m.place, m.outcome, m.next_tier) for pid, m in moves.items()}
    assert summary == {
        1: (1, Outcome.STAYED, 1),
        2: (2, Outcome.STAYED, 1),
        3: (3, Outcome.STAYED, 1),
        4: (4, Outcome.STAYED, 1),
        5: (5, Outcome.RELEGATED, 2),
        6: (6, Outcome.RELEGATED, 2),
        11: (1, Outcome.PROMOTED, 1),
        12: (2, Outcome.PROMOTED, 1),
        13: (3, Outcome.STAYED, 2),
        14: (4, Outcome.STAYED, 2),
        15: (5, Outcome.RELEGATED, 3),
        16: (6, Outcome.RELEGATED, 3),
        21: (1, Outcome.PROMOTED, 2),
        22: (2, Outcome.PROMOTED, 2),
        23: (3, Outcome.STAYED, 3),
        24: (4, Outcome.STAYED, 3),
    }


def test_rookies_promote_into_the_bottom_tier_and_the_rest_join_below_it():
    tables = [
        FinalTable(tier=1, players=(1, 2, 3, 4)),
        FinalTable(tier=2, players=(31, 32, 33, 34, 35), rookie=True),
    ]
    moves = season_moves(tables, TWO_UP_TWO_DOWN)
    assert [(m.outcome, m.next_tier) for m in (moves[1], moves[3], moves[4])] == [
        (Outcome.STAYED, 1),
        (Outcome.STAYED, 1),  # the only regular tier relegates nobody
        (Outcome.STAYED, 1),
    ]
    assert [(moves[p].outcome, moves[p].next_tier) for p in (31, 32, 33, 35)] == [
        (Outcome.PROMOTED, 1),
        (Outcome.PROMOTED, 1),
        (Outcome.STAYED, 2),
        (Outcome.STAYED, 2),
    ]


def test_season_moves_refuse_gaps_and_doubles():
    with pytest.raises(ValueError, match=r"Regular tiers must be 1\.\.n"):
        season_moves([FinalTable(tier=2, players=(1, 2))], TWO_UP_TWO_DOWN)
    with pytest.raises(ValueError, match="Player 2 is in two final tables"):
        season_moves(
            [FinalTable(tier=1, players=(1, 2)), FinalTable(tier=2, players=(2, 3))],
            TWO_UP_TWO_DOWN,
        )


# --- Season start --------------------------------------------------------------------------


def test_first_season_places_everyone_by_rating_top_down():
    newcomers = [
        Newcomer(player_id=pid, rating=rating, order=pid)
        for pid, rating in [
            (1, 1500),
            (2, 1700),
            (3, None),
            (4, 1600),
            (5, 1650),
            (6, 1500),
            (7, 1400),
            (8, 1800),
            (9, None),
            (10, 1550),
        ]
    ]
    divisions = season_placement([], newcomers, TWO_UP_TWO_DOWN)
    assert ids(divisions) == [[8, 2, 5, 4, 10, 1], [6, 7, 3, 9]]
    assert {seat.how for division in divisions for seat in division} == {How.NEWCOMER}
    assert [seat.tier for seat in divisions[1]] == [2, 2, 2, 2]


def _returning_after(tables):
    return [
        Returning(m.player_id, m.next_tier, m.tier, m.place)
        for m in season_moves(tables, TWO_UP_TWO_DOWN).values()
    ]


def test_everyone_back_keeps_the_tier_earned():
    tables = [
        FinalTable(tier=1, players=(1, 2, 3, 4, 5, 6)),
        FinalTable(tier=2, players=(11, 12, 13, 14, 15, 16)),
    ]
    divisions = season_placement(_returning_after(tables), [], TWO_UP_TWO_DOWN)
    assert ids(divisions) == [[1, 2, 3, 4, 11, 12], [13, 14, 15, 16, 5, 6]]
    assert {seat.how for division in divisions for seat in division} == {How.RETURNING}


def test_a_place_left_empty_is_filled_by_an_extra_promotion_and_newcomers_fill_the_bottom():
    tables = [
        FinalTable(tier=1, players=(1, 2, 3, 4, 5, 6)),
        FinalTable(tier=2, players=(11, 12, 13, 14, 15, 16)),
    ]
    back = [r for r in _returning_after(tables) if r.player_id != 3]  # 3 did not return
    newcomer = Newcomer(player_id=40, rating=2100, order=1)
    divisions = season_placement(back, [newcomer], TWO_UP_TWO_DOWN)
    assert ids(divisions) == [[1, 2, 4, 11, 12, 13], [14, 15, 16, 5, 6, 40]]
    how = {seat.player_id: seat.how for division in divisions for seat in division}
    assert how[13] is How.EXTRA_PROMOTION
    assert how[40] is How.NEWCOMER  # even a strong newcomer starts at the bottom


def test_newcomers_play_in_the_rookie_division():
    rules = DivisionRules(
        target_size=6,
        min_size=4,
        promotion=Movement(count=2),
        relegation=Movement(count=2),
        rookie_division=True,
    )
    tables = [FinalTable(tier=1, players=(1, 2, 3, 4, 5, 6))]
    back = [
        Returning(m.player_id, m.next_tier, m.tier, m.place)
        for m in season_moves(tables, rules).values()
    ]
    rookies = [Newcomer(player_id=30 + i, rating=1500 + i, order=i) for i in range(4)]
    divisions = season_placement(back, rookies, rules)
    assert ids(divisions) == [[1, 2, 3, 4, 5, 6], [33, 32, 31, 30]]
    assert all(seat.rookie and seat.tier == 2 and seat.how is How.ROOKIE for seat in divisions[1])
    # too few newcomers for a rookie division of their own: they join the bottom by rating
    divisions = season_placement(back, rookies[:2], rules)
    assert ids(divisions) == [[1, 2, 3, 4, 5, 6, 31, 30]]


def test_fewer_divisions_than_last_season_moves_the_last_of_a_full_tier_down():
    tables = [
        FinalTable(tier=1, players=(1, 2, 3, 4, 5, 6)),
        FinalTable(tier=2, players=(11, 12, 13, 14, 15, 16)),
        FinalTable(tier=3, players=(21, 22, 23, 24)),
    ]
    back = [r for r in _returning_after(tables) if r.player_id not in (13, 14, 23, 24)]
    divisions = season_placement(back, [], TWO_UP_TWO_DOWN)
    # 12 players: two divisions; tier 2 earned by 5, 6, 21, 22 and tier 3 by 15, 16
    assert ids(divisions) == [[1, 2, 3, 4, 11, 12], [21, 22, 5, 6, 15, 16]]
    how = {seat.player_id: seat.how for division in divisions for seat in division}
    assert how[15] is how[16] is How.EXTRA_PROMOTION


def test_a_player_placed_twice_is_refused():
    with pytest.raises(ValueError, match=r"Players placed twice: \[7\]"):
        season_placement(
            [Returning(7, 1, 1, 1)], [Newcomer(player_id=7, rating=None, order=1)], TWO_UP_TWO_DOWN
        )


def test_more_players_earned_a_tier_than_it_holds_the_last_move_down():
    top = [Returning(pid, 1, 1, pid) for pid in range(1, 8)]  # seven earned tier 1
    second = [Returning(pid, 2, 2, pid - 10) for pid in range(11, 15)]
    divisions = season_placement(top + second, [], TWO_UP_TWO_DOWN)
    assert ids(divisions) == [[1, 2, 3, 4, 5, 6], [7, 11, 12, 13, 14]]
    how = {seat.player_id: seat.how for division in divisions for seat in division}
    assert how[7] is How.MOVED_DOWN
    assert {how[p] for p in (11, 12, 13, 14)} == {How.RETURNING}
