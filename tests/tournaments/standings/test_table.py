"""Standings order, shared places and direct encounter (C.07 Articles 2, 4.2 and 6)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from tests.tournaments.standings.builder import EventBuilder
from tests.tournaments.standings.test_tiebreaks import swiss_event
from tournaments.standings import StandingRow, compute_standings, direct_encounter_ranks
from tournaments.standings.tiebreaks import Event


def order(rows: list[StandingRow]) -> list[tuple[int, int]]:
    return [(row.place, row.number) for row in rows]


def test_points_then_the_organisers_tiebreaks_in_order() -> None:
    """Points 2: 3, 1 and 5: 2.5, 6: 2, 4: 1.5, 3: 0; 1 beat 5 in the direct encounter."""
    rows = compute_standings(swiss_event(), tiebreaks=["de", "bh"])
    assert order(rows) == [(1, 2), (2, 1), (3, 5), (4, 6), (5, 4), (6, 3)]
    assert rows[1].tiebreaks == {"de": 1, "bh": F(19, 2)}
    assert rows[1].points == F(5, 2)
    assert rows[1].name == "Player 1"


def test_the_edition_can_change_the_order() -> None:
    """Buchholz alone between 1 and 5: 2026 gives 9.5 to 8.5, 2024 gives 9.5 to 10.5."""
    new = compute_standings(swiss_event(), tiebreaks=["bh"])
    old = compute_standings(swiss_event(), tiebreaks=["bh"], edition="2024")
    assert [r.number for r in new[1:3]] == [1, 5]
    assert [r.number for r in old[1:3]] == [5, 1]


def test_players_equal_on_everything_share_a_place() -> None:
    """Four players, every game drawn: all level on everything, all first."""
    builder = EventBuilder({1: 1500, 2: 1500, 3: 1500, 4: 1500})
    for round_, pairs in enumerate([((1, 4), (2, 3)), ((4, 3), (1, 2)), ((2, 4), (3, 1))], 1):
        for orange, blue in pairs:
            builder.game(round_, orange, blue, "=")
    rows = compute_standings(
        builder.players(), tiebreaks=["de", "sb", "bh", "aro"], round_robin=True
    )
    assert order(rows) == [(1, 1), (1, 2), (1, 3), (1, 4)]


def test_a_tie_broken_lower_down_gives_the_following_place() -> None:
    """With no tie-breaks 1 and 5, level on points, share 2nd place and 6 is 4th, not 3rd."""
    rows = compute_standings(swiss_event(), tiebreaks=[])
    assert order(rows)[:4] == [(1, 2), (2, 1), (2, 5), (4, 6)]
    assert rows[0].tiebreaks == {}


def test_no_aro_ranks_last() -> None:
    """1-2 and 3-4 drawn, only 1 rated: 2 met a rated player (ARO 1500); 1, 3 and 4 did not
    (None) and share second place."""
    players = (
        EventBuilder({1: 1500, 2: None, 3: None, 4: None})
        .game(1, 1, 2, "=")
        .game(1, 3, 4, "=")
        .players()
    )
    rows = compute_standings(players, tiebreaks=["aro"])
    assert order(rows) == [(1, 2), (2, 1), (2, 3), (2, 4)]
    assert [r.tiebreaks["aro"] for r in rows] == [1500, None, None, None]


def round_robin_group() -> Event:
    """A-B 1-0, A-C ½, A-D ½, B-C 1-0, B-D 1-0, C-D ½ (and E, outside the group, drew D)."""
    return Event.build(
        EventBuilder({1: None, 2: None, 3: None, 4: None, 5: None})
        .game(1, 1, 2, "1-0")
        .game(1, 3, 4, "=")
        .game(2, 1, 3, "=")
        .game(2, 2, 4, "1-0")
        .game(3, 1, 4, "=")
        .game(3, 2, 3, "1-0")
        .game(4, 5, 4, "=")
        .players(),
        round_robin=True,
    )


def test_direct_encounter_is_applied_again_inside_a_persisting_tie() -> None:
    """Among 1-4: 1 and 2 score 2, 3 and 4 score 1 (the game with 5 does not count).
    Again between 1 and 2 alone: 1 beat 2. Between 3 and 4: a draw, they stay level."""
    assert direct_encounter_ranks(round_robin_group(), [1, 2, 3, 4]) == {1: 1, 2: 2, 3: 3, 4: 3}


def test_in_a_swiss_a_player_goes_ahead_only_when_the_others_cannot_catch_up() -> None:
    """1 beat 2 and 3, who did not meet: 1 scores 2 and the others could reach only 1 by
    winning their missing game, so 1 is first; 2 and 3 stay level (Article 6.2)."""
    event = Event.build(
        EventBuilder({1: None, 2: None, 3: None})
        .game(1, 1, 2, "1-0")
        .game(2, 3, 1, "0-1")
        .players()
    )
    assert direct_encounter_ranks(event, [1, 2, 3]) == {1: 1, 2: 2, 3: 2}


def test_in_a_swiss_an_unfinished_group_stays_tied_when_a_missing_game_could_change_it() -> None:
    """1 beat 2; 3 met neither: 1 scores 1, but 3 could score 2. Nobody separates."""
    event = Event.build(
        EventBuilder({1: None, 2: None, 3: None, 4: None})
        .game(1, 1, 2, "1-0")
        .game(1, 3, 4, "1-0")
        .players()
    )
    assert direct_encounter_ranks(event, [1, 2, 3]) == {1: 1, 2: 1, 3: 1}


def test_a_forfeit_is_no_encounter_in_a_swiss_but_is_one_in_a_round_robin() -> None:
    """R1 1-2 +-, R2 2-3 1-0, R3 3-1 ½-½. Swiss: 1 and 2 never played; 2 leads 1 to ½ but 1
    could still reach 1.5, so all stay level. Round robin: 1: 1.5, 2: 1, 3: ½."""
    players = (
        EventBuilder({1: None, 2: None, 3: None})
        .game(1, 1, 2, "+-")
        .game(2, 2, 3, "1-0")
        .game(3, 3, 1, "=")
        .players()
    )
    swiss = direct_encounter_ranks(Event.build(players), [1, 2, 3])
    robin = direct_encounter_ranks(Event.build(players, round_robin=True), [1, 2, 3])
    assert swiss == {1: 1, 2: 1, 3: 1}
    assert robin == {1: 1, 2: 2, 3: 3}


def test_a_pair_that_met_twice_counts_the_average() -> None:
    """Double round robin, 1 and 2: 1-0 then ½-½ -> 1 averages ¾, 2 averages ¼; 3 (who lost
    both games to 1 and won both against 2) averages 1 against 2 and 0 against 1:
    1: ¾ + 1 = 1.75, 3: 0 + 1 = 1, 2: ¼ + 0 = ¼."""
    event = Event.build(
        EventBuilder({1: None, 2: None, 3: None})
        .game(1, 1, 2, "1-0")
        .game(2, 2, 1, "=")
        .game(3, 1, 3, "1-0")
        .game(4, 3, 1, "0-1")
        .game(5, 3, 2, "1-0")
        .game(6, 2, 3, "0-1")
        .players(),
        round_robin=True,
    )
    assert direct_encounter_ranks(event, [1, 2, 3]) == {1: 1, 3: 2, 2: 3}


@pytest.mark.parametrize(
    ("tiebreaks", "message"),
    [
        (["bh", "buchholz"], "unknown tie-break 'buchholz'"),
        (["points"], "unknown tie-break 'points'"),
        (["bh", "bh"], "listed twice"),
    ],
)
def test_bad_tiebreak_lists_are_refused(tiebreaks: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        compute_standings(swiss_event(), tiebreaks=tiebreaks)


def test_an_unknown_edition_is_refused() -> None:
    with pytest.raises(ValueError, match="expected one of 2026, 2024"):
        compute_standings(swiss_event(), tiebreaks=["bh"], edition="2025")
