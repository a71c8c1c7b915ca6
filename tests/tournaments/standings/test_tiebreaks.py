"""Every tie-break on hand-made events, both C.07 editions, values worked out in comments."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from tests.tournaments.standings.builder import EventBuilder
from tournaments.standings import all_tiebreak_values
from tournaments.standings.records import Outcome, PlayerRecord, RoundRecord
from tournaments.standings.tiebreaks import Event, adjusted_score, rounds_played


def swiss_event() -> list[PlayerRecord]:
    """Six players, four rounds, with every kind of unplayed round.

    R1: 1-4 1-0, 2-5 ½-½, 3-6 0-1
    R2: 6-1 ½-½, 5-3 +- (3 forfeits), 4 half-point bye, 2 full-point bye
    R3: 1-2 0-1, 4-6 1-0, 5 pairing-allocated bye, 3 has withdrawn (after round 2)
    R4: 2-6 ½-½, 5-1 0-1, 4 zero-point bye

    Points: 1: 2.5, 2: 3, 3: 0, 4: 1.5, 5: 2.5, 6: 2.
    """
    return (
        EventBuilder({1: 2000, 2: 1900, 3: 1800, 4: 1700, 5: 1600, 6: None})
        .game(1, 1, 4, "1-0")
        .game(1, 2, 5, "=")
        .game(1, 3, 6, "0-1")
        .game(2, 6, 1, "=")
        .game(2, 5, 3, "+-")
        .bye(2, 4, Outcome.HALF_BYE)
        .bye(2, 2, Outcome.FULL_BYE)
        .game(3, 1, 2, "0-1")
        .game(3, 4, 6, "1-0")
        .bye(3, 5, Outcome.PAIRING_BYE)
        .game(4, 2, 6, "=")
        .game(4, 5, 1, "0-1")
        .bye(4, 4, Outcome.ZERO_BYE)
        .withdraw(3, after=2)
        .players()
    )


def test_scores_lent_to_opponents_count_a_withdrawal_as_draws() -> None:
    """Article 16.3: rounds after the last round that was not voluntarily unplayed, without a
    scheduled opponent, count as draws.
    3: R1 loss (last present), R2 forfeit loss (has an opponent: 0), R3, R4 absent: ½ + ½ = 1.
    4: R4 zero-point bye after the last present round R3: ½, so 0 + ½ + 1 + ½ = 2.
    2: R4 is a draw played, nothing to adjust: 3.
    """
    event = Event.build(swiss_event())
    assert [adjusted_score(event, n) for n in range(1, 7)] == [
        F(5, 2),
        F(3),
        F(1),
        F(2),
        F(5, 2),
        F(2),
    ]


# Buchholz, 2026. Opponents' lent scores: 1: 2.5, 2: 3, 3: 1, 4: 2, 5: 2.5, 6: 2.
# Dummy opponent (16.4, 2026) = min(own score, forfeit opponent's lent score), or
# min(own score, 2 = a draw in each of the 4 rounds) when there was no opponent.
#   1: 4 (2) + 6 (2) + 2 (3) + 5 (2.5)                                   = 9.5
#   2: 5 (2.5) + F: min(3, 2) = 2 + 1 (2.5) + 6 (2)                      = 9
#   3: 6 (2) + forfeit loss: min(0, 2.5) = 0 + absent 0 + absent 0       = 2
#   4: 1 (2.5) + H: min(1.5, 2) = 1.5 + 6 (2) + Z: 1.5                   = 7.5
#   5: 2 (3) + forfeit win: min(2.5, 1) = 1 + U: min(2.5, 2) = 2 + 1 (2.5) = 8.5
#   6: 3 (1) + 1 (2.5) + 4 (2) + 2 (3)                                   = 8.5
# Buchholz, 2024: the dummy has the player's own score.
#   2: 2.5 + 3 + 2.5 + 2 = 10;  5: 3 + 2.5 + 2.5 + 2.5 = 10.5;  others as in 2026.
# Cut-1 drops the lowest value, a voluntarily unplayed round's first (H, Z, -, absent):
#   1: -2 -> 7.5;  2: -2 -> 7 (2024: 8);  3: -0 (VUR) -> 2;  4: -1.5 (H, a VUR, although
#   1.5 is also the lowest) -> 6;  5: -1 -> 7.5 (2024: -2.5 -> 8);  6: -1 -> 7.5
# Median-1 also drops the highest:
#   1: -3 -> 4.5;  2: [2.5, 2.5, 2] -2.5 -> 4.5 (2024: [2.5, 3, 2.5] -3 -> 5);  3: -2 -> 0;
#   4: -2.5 -> 3.5;  5: -3 -> 4.5 (2024: [3, 2.5, 2.5] -3 -> 5);  6: -3 -> 4.5
# Sonneborn-Berger: each value times the points scored that round.
#   1: 2*1 + 2*½ + 3*0 + 2.5*1 = 5.5
#   2: 2.5*½ + 2*1 + 2.5*1 + 2*½ = 6.75 (2024: the bye's 3*1 -> 7.75)
#   3: all 0 -> 0;  4: 2.5*0 + 1.5*½ + 2*1 + 1.5*0 = 2.75
#   5: 3*½ + 1*1 + 2*1 + 2.5*0 = 4.5 (2024: 1.5 + 2.5 + 2.5 = 6.5)
#   6: 1*1 + 2.5*½ + 2*0 + 3*½ = 3.75
# WIN (rounds worth a win, byes and forfeits too): 1: 2, 2: F+W 2, 3: 0, 4: 1, 5: + and U 2, 6: 1
# WON (over the board): 1: 2, 2: 1, 3: 0, 4: 1, 5: 0, 6: 1
# BPG (over the board with Blue): 1: R2, R4 = 2; 2: R3 = 1; 3: 0; 4: R1 = 1; 5: R1 = 1
#   (its forfeit win had Orange and does not count); 6: R1, R3, R4 = 3
# Koya: against opponents with at least half of 4 points (2): 1, 2, 5, 6.
#   1: ½ (6) + 0 (2) + 1 (5) = 1.5;  2: ½ (5) + 1 (1) + ½ (6) = 2;  3: 0;  4: 1 (6) = 1;
#   5: ½ (2) + 0 (1) = ½ (the forfeit win is against 3, on 0);  6: ½ (1) + ½ (2) = 1
# Progressive: 1: 1+1.5+1.5+2.5 = 6.5;  2: .5+1.5+2.5+3 = 7.5;  3: 0;  4: 0+.5+1.5+1.5 = 3.5;
#   5: .5+1.5+2.5+2.5 = 7;  6: 1+1.5+1.5+2 = 6
# ARO (rated opponents over the board, rounded): 1: (1700+1900+1600)/3 = 1733.3 -> 1733;
#   2: (1600+2000)/2 = 1800;  3: only the unrated 6 -> None;  4: 2000;  5: (1900+2000)/2 = 1950;
#   6: (1800+2000+1700+1900)/4 = 1850
# DE: among players level on points, 1 beat 5 (R4): 1 first, 5 second; the others alone: 1.
EXPECTED_2026 = {
    1: dict(points=F(5, 2), bh=F(19, 2), bh_c1=F(15, 2), bh_m1=F(9, 2), sb=F(11, 2), de=1,
            win=2, won=2, bpg=2, ks=F(3, 2), ps=F(13, 2), aro=1733),
    2: dict(points=F(3), bh=F(9), bh_c1=F(7), bh_m1=F(9, 2), sb=F(27, 4), de=1,
            win=2, won=1, bpg=1, ks=F(2), ps=F(15, 2), aro=1800),
    3: dict(points=F(0), bh=F(2), bh_c1=F(2), bh_m1=F(0), sb=F(0), de=1,
            win=0, won=0, bpg=0, ks=F(0), ps=F(0), aro=None),
    4: dict(points=F(3, 2), bh=F(15, 2), bh_c1=F(6), bh_m1=F(7, 2), sb=F(11, 4), de=1,
            win=1, won=1, bpg=1, ks=F(1), ps=F(7, 2), aro=2000),
    5: dict(points=F(5, 2), bh=F(17, 2), bh_c1=F(15, 2), bh_m1=F(9, 2), sb=F(9, 2), de=2,
            win=2, won=0, bpg=1, ks=F(1, 2), ps=F(7), aro=1950),
    6: dict(points=F(2), bh=F(17, 2), bh_c1=F(15, 2), bh_m1=F(9, 2), sb=F(15, 4), de=1,
            win=1, won=1, bpg=3, ks=F(1), ps=F(6), aro=1850),
}  # fmt: skip
EXPECTED_2024 = {
    n: {**values, **changes}
    for n, values in EXPECTED_2026.items()
    for changes in [
        {
            2: dict(bh=F(10), bh_c1=F(8), bh_m1=F(5), sb=F(31, 4)),
            5: dict(bh=F(21, 2), bh_c1=F(8), bh_m1=F(5), sb=F(13, 2)),
        }.get(n, {})
    ]
}


@pytest.mark.parametrize(
    ("edition", "expected"), [("2026", EXPECTED_2026), ("2024", EXPECTED_2024)]
)
def test_every_tiebreak_of_a_swiss_with_forfeits_byes_and_a_withdrawal(
    edition: str, expected: dict[int, dict[str, object]]
) -> None:
    values = all_tiebreak_values(swiss_event(), edition=edition)
    for number, row in expected.items():
        assert values[number] == row, f"player {number}"


def test_the_editions_differ_only_where_a_dummy_opponent_scores() -> None:
    new, old = (
        all_tiebreak_values(swiss_event()),
        all_tiebreak_values(swiss_event(), edition="2024"),
    )
    differing = {n for n in new if new[n] != old[n]}
    assert differing == {2, 5}


def round_robin_event() -> list[PlayerRecord]:
    """Three players, single round robin: R1 1-2 +- (2 forfeits), R2 2-3 1-0, R3 3-1 ½-½;
    the player without a game sits the round out. Points: 1: 1.5, 2: 1, 3: ½."""
    return (
        EventBuilder({1: 1500, 2: 1400, 3: 1300})
        .game(1, 1, 2, "+-")
        .game(2, 2, 3, "1-0")
        .game(3, 3, 1, "=")
        .players()
    )


def test_a_round_robin_counts_forfeits_as_games_and_nothing_for_rounds_off() -> None:
    """Pre-determined pairings (Article 16): the forfeit is a game against the scheduled
    opponent; a round off adds nothing; no score is adjusted.
      BH 1: 2 (1) + 3 (½) = 1.5;  2: 1 (1.5) + 3 (½) = 2;  3: 2 (1) + 1 (1.5) = 2.5
      SB 1: 1*1 + ½*½ = 1.25;  2: 1.5*0 + ½*1 = ½;  3: 1*0 + 1.5*½ = 0.75
      Koya: 3 players, 3 rounds, one round off each: half of 2 games = 1; opponents on at
      least 1 are 1 and 2. 1: 1 (forfeit win over 2); 2: 0; 3: ½ (1).
      DE (all three level for the test): 1: 1 + ½, 2: 0 + 1, 3: 0 + ½ -> 1, 2, 3.
      WON counts only the game over the board: 1: 0, 2: 1, 3: 0.
    """
    values = all_tiebreak_values(round_robin_event(), round_robin=True)
    assert [values[n]["bh"] for n in (1, 2, 3)] == [F(3, 2), F(2), F(5, 2)]
    assert [values[n]["sb"] for n in (1, 2, 3)] == [F(5, 4), F(1, 2), F(3, 4)]
    assert [values[n]["ks"] for n in (1, 2, 3)] == [F(1), F(0), F(1, 2)]
    assert [values[n]["won"] for n in (1, 2, 3)] == [0, 1, 0]
    assert [values[n]["bh_c1"] for n in (1, 2, 3)] == [F(1), F(3, 2), F(3, 2)]


def test_the_same_games_as_a_swiss_give_dummies_for_the_forfeit_and_the_rounds_off() -> None:
    """Swiss reading of the same records, 2026: lent scores 1: 1.5; 2: R3 absent after its last
    round present counts ½ -> 1.5; 3: R1 absent is before R2, nothing adjusted -> ½.
      BH 1: forfeit win min(1.5, 1.5) + R2 off min(1.5, 1.5) + 3 (½) = 3.5
      BH 2: forfeit loss min(1, 1.5) = 1 + 3 (½) + R3 off min(1, 1.5) = 1 -> 2.5
    """
    values = all_tiebreak_values(round_robin_event())
    assert values[1]["bh"] == F(7, 2)
    assert values[2]["bh"] == F(5, 2)


def test_rounds_default_to_the_last_round_with_a_result() -> None:
    players = [
        PlayerRecord(
            1, "A", rounds=(RoundRecord(1, Outcome.FULL_BYE), RoundRecord(2, Outcome.NOT_PLAYED))
        ),
        PlayerRecord(2, "B", rounds=(RoundRecord(1, Outcome.ZERO_BYE),)),
    ]
    assert rounds_played(players) == 1
    # One round: A's dummy (2026) is min(1, ½ * 1) = ½; (2024) its own score 1.
    assert all_tiebreak_values(players)[1]["bh"] == F(1, 2)
    assert all_tiebreak_values(players, edition="2024")[1]["bh"] == F(1)
    # Counting two rounds makes round 2 an absence for both: A's dummies min(1, 1) twice.
    assert all_tiebreak_values(players, rounds=2)[1]["bh"] == F(2)


def test_unrated_games_of_less_than_a_move_count_as_games() -> None:
    players = [
        PlayerRecord(1, "A", 1500, (RoundRecord(1, Outcome.UNRATED_WIN, 2, None),)),
        PlayerRecord(2, "B", 1400, (RoundRecord(1, Outcome.UNRATED_LOSS, 1, None),)),
    ]
    values = all_tiebreak_values(players)
    assert (values[1]["points"], values[1]["won"], values[1]["bh"], values[1]["aro"]) == (
        F(1),
        1,
        F(0),
        1400,
    )


def test_an_average_rating_half_way_rounds_up() -> None:
    players = (
        EventBuilder({1: None, 2: 1501, 3: 1500}).game(1, 1, 2, "=").game(2, 3, 1, "=").players()
    )
    assert all_tiebreak_values(players)[1]["aro"] == 1501  # 1500.5 -> 1501


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ([PlayerRecord(1, "A"), PlayerRecord(1, "B")], "player number 1 appears twice"),
        (
            [PlayerRecord(1, "A", rounds=(RoundRecord(1, Outcome.WIN, 9, None),))],
            "round 1 names opponent 9, who is not in the event",
        ),
        (
            [PlayerRecord(1, "A", rounds=(RoundRecord(1, Outcome.FULL_BYE),) * 2)],
            "two records for round 1",
        ),
        (
            [PlayerRecord(1, "A", rounds=(RoundRecord(0, Outcome.FULL_BYE),))],
            "round 0 is not 1 or more",
        ),
    ],
)
def test_inconsistent_records_are_refused(players: list[PlayerRecord], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        all_tiebreak_values(players)


def test_results_after_the_rounds_counted_are_refused() -> None:
    players = [PlayerRecord(1, "A", rounds=(RoundRecord(2, Outcome.FULL_BYE),))]
    with pytest.raises(ValueError, match="after the last round counted"):
        all_tiebreak_values(players, rounds=1)


def test_an_unknown_edition_is_refused() -> None:
    with pytest.raises(ValueError, match=r"unknown C\.07 edition '2023'"):
        all_tiebreak_values(swiss_event(), edition="2023")
