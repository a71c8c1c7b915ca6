"""The tables arbiters read: crosstable rows that add up with byes and forfeits, the round
table (opponent, colour, result per round) in agreement with the TRF export, knockout places
by the stage reached, and the bracket."""

from __future__ import annotations

from fractions import Fraction

import pytest
import time_machine
from django.contrib.auth.models import User

from tests.tournaments.conftest import T0, finish, register_all
from tournaments import selectors, services, tables
from tournaments.models import Bye, Entry, KnockoutMatch, Round, Tournament, TournamentGame
from tournaments.trf import format_trf, parse_trf

pytestmark = pytest.mark.django_db

MARK_POINTS = {
    "1": 1,
    "½": Fraction(1, 2),
    "0": 0,
    "+": 1,
    "-": 0,
    "+B": 1,
    "1B": 1,
    "½B": Fraction(1, 2),
    "0B": 0,
}


@pytest.fixture(autouse=True)
def _at_t0():
    with time_machine.travel(T0, tick=False):
        yield


def _entry(tournament: Tournament, name: str) -> Entry:
    return tournament.entries.get(name=name)


@pytest.fixture
def swiss_with_byes(make_tournament, organiser, players, commit) -> Tournament:
    """A Swiss of five, p1..p5 seeded in that order, three rounds:

    1. p1-p? 1-0 and a forfeit on board 2; the odd player out has the pairing bye.
    2. (entered by hand) p1 has a half-point bye, p2 is absent, p3-p4 drawn, p5 a full-point
       bye.
    3. running: p4-p1 still playing.
    """
    tournament = make_tournament(format="swiss", rounds_planned=3, half_point_byes_max=1)
    register_all(tournament, players[:5])
    with commit():
        services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    first = Round.objects.get(tournament=tournament, number=1)
    boards = list(first.games.order_by("board"))
    TournamentGame.objects.filter(pk=boards[0].pk).update(result="1-0")
    TournamentGame.objects.filter(pk=boards[1].pk).update(result="+/-")
    Round.objects.filter(pk=first.pk).update(status="complete")
    second = Round.objects.create(tournament=tournament, number=2)  # written as they come
    e = {name: _entry(tournament, name) for name in ("p1", "p2", "p3", "p4", "p5")}
    Bye.objects.create(round=second, entry=e["p1"], kind="H")
    Bye.objects.create(round=second, entry=e["p2"], kind="Z")
    Bye.objects.create(round=second, entry=e["p5"], kind="F")
    TournamentGame.objects.create(
        tournament=tournament, round=second, orange=e["p3"], blue=e["p4"], board=1, result="1/2-1/2"
    )
    Round.objects.filter(pk=second.pk).update(status="complete")
    third = Round.objects.create(tournament=tournament, number=3)
    TournamentGame.objects.create(
        tournament=tournament, round=third, orange=e["p4"], blue=e["p1"], board=1
    )
    Round.objects.filter(pk=third.pk).update(status="running")
    return Tournament.objects.get(pk=tournament.pk)


def test_round_one_of_the_fixture_has_a_pairing_bye(swiss_with_byes):
    (bye,) = Bye.objects.filter(round__tournament=swiss_with_byes, round__number=1)
    assert (bye.entry.name, bye.kind) == ("p5", "U")
    games = swiss_with_byes.games.filter(round__number=1).order_by("board")
    assert [(g.orange.name, g.blue.name, g.result) for g in games] == [
        ("p1", "p3", "1-0"),
        ("p4", "p2", "+/-"),
    ]


# --- Crosstable -------------------------------------------------------------------------------


def test_crosstable_rows_add_up_with_byes_and_forfeits(swiss_with_byes):
    (table,) = selectors.tournament_crosstables(tournament=swiss_with_byes)
    rows = {row.name: (row.cells, row.byes, row.points) for row in table.rows}
    assert rows == {
        "p1": (["x", "", "1", "", ""], ["½B"], Fraction(3, 2)),
        "p2": (["", "x", "", "-", ""], ["0B"], 0),
        "p3": (["0", "", "x", "½", ""], [], Fraction(1, 2)),
        "p4": (["", "+", "½", "x", ""], [], Fraction(3, 2)),
        "p5": (["", "", "", "", "x"], ["+B", "1B"], 2),
    }
    for cells, byes, points in rows.values():
        marks = [mark for cell in cells if cell != "x" for mark in cell.split()] + byes
        assert sum(MARK_POINTS[mark] for mark in marks) == points


# --- Round table ------------------------------------------------------------------------------


def _cell(cell: tables.RoundCell) -> tuple:
    return (cell.round, cell.opponent, cell.colour, cell.mark, cell.points)


def test_the_round_table_shows_opponent_colour_and_result_per_round(swiss_with_byes):
    (table,) = tables.tournament_round_tables(tournament=swiss_with_byes)
    assert table.rounds == [1, 2, 3]
    rows = {row.name: row for row in table.rows}
    assert [_cell(c) for c in rows["p1"].cells] == [
        (1, 3, "orange", "1", 1),
        (2, None, None, "½B", Fraction(1, 2)),
        (3, 4, "blue", "", 0),  # still playing
    ]
    assert rows["p1"].cells[2].pending and not rows["p1"].cells[1].pending
    assert (
        rows["p1"].cells[0].game_id == swiss_with_byes.games.get(round__number=1, board=1).game_id
    )
    assert [_cell(c) for c in rows["p2"].cells] == [
        (1, 4, "blue", "-", 0),
        (2, None, None, "0B", 0),
        (3, None, None, "", 0),
    ]
    assert [_cell(c) for c in rows["p4"].cells] == [
        (1, 2, "orange", "+", 1),
        (2, 3, "blue", "½", Fraction(1, 2)),
        (3, 1, "orange", "", 0),
    ]
    assert [c.mark for c in rows["p5"].cells] == ["+B", "1B", ""]
    # standings order, each row adding up to the player's points
    standings = selectors.tournament_standings(tournament=swiss_with_byes)
    assert [row.entry_id for row in table.rows] == [row.entry_id for row in standings.rows]
    assert [row.rank for row in table.rows] == [row.rank for row in standings.rows]
    assert {row.name: row.points for row in table.rows} == {
        row.name: row.points for row in standings.rows
    }


def test_the_round_table_agrees_with_the_trf_export(swiss_with_byes):
    (table,) = tables.tournament_round_tables(tournament=swiss_with_byes)
    trf = parse_trf(format_trf(selectors.tournament_trf(tournament=swiss_with_byes)))
    seed = {entry.pk: entry.seed for entry in swiss_with_byes.entries.all()}
    number_seed = {row.number: seed[row.entry_id] for row in table.rows}
    for row in table.rows:
        (player,) = [p for p in trf.players if p.number == seed[row.entry_id]]
        from_trf = {
            r.round: (r.opponent, r.colour and r.colour.value, MARK_OF_TRF[r.outcome.value])
            for r in player.rounds
        }
        from_table = {
            c.round: (
                c.opponent and number_seed[c.opponent],
                {"orange": "w", "blue": "b"}.get(c.colour or ""),
                c.mark,
            )
            for c in row.cells
            if c.mark
        }
        assert from_table == from_trf, row.name


MARK_OF_TRF = {
    "1": "1",
    "=": "½",
    "0": "0",
    "+": "+",
    "-": "-",
    "U": "+B",
    "F": "1B",
    "H": "½B",
    "Z": "0B",
}


def test_no_round_table_for_a_knockout(make_tournament, organiser, players, commit):
    tournament = make_tournament(format="knockout")
    register_all(tournament, players[:4])
    with commit():
        services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    assert tables.tournament_round_tables(tournament=tournament) == []


# --- Knockout: places and the bracket -----------------------------------------------------------


@pytest.fixture
def knockout_of_three(make_tournament, organiser, players, commit) -> Tournament:
    """p1 has a bye; p2 beats p3 on seed after 1-1 and 1-1 (p3 goes out with 2 points); in the
    final p2 beats p1 1½-½ (p1 finishes second with ½)."""
    tournament = make_tournament(
        format="knockout", knockout_extra_pairs=1, knockout_decider="higher_seed"
    )
    register_all(tournament, players[:3])
    with commit():
        services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    first = KnockoutMatch.objects.get(round__tournament=tournament, round__number=1, number=2)
    for pair in (1, 2):
        for link in first.games.filter(pair=pair).select_related("game"):
            finish(link.game, "1-0", commit=commit)  # each wins with Orange
    final = KnockoutMatch.objects.get(round__tournament=tournament, round__number=2)
    drawn, won = final.games.select_related("game").order_by("board")
    arbiter = User.objects.create_superuser("arbiter", "arbiter@example.org", "x")
    finish(drawn.game, "1/2-1/2", commit=commit, arbiter=arbiter)
    finish(won.game, "1-0" if won.orange.name == "p2" else "0-1", commit=commit)
    return Tournament.objects.get(pk=tournament.pk)


def test_knockout_places_go_by_the_stage_reached_not_points(knockout_of_three):
    assert knockout_of_three.status == "finished"
    rows = selectors.tournament_standings(tournament=knockout_of_three).rows
    assert [(r.name, r.place, r.stage, r.points) for r in rows] == [
        ("p2", "1", "Winner", Fraction(7, 2)),
        ("p1", "2", "Final", Fraction(1, 2)),
        ("p3", "3", "Semi-finals", 2),
    ]
    stored = Entry.objects.filter(tournament=knockout_of_three).order_by("final_rank")
    assert [(e.name, e.final_rank) for e in stored] == [("p2", 1), ("p1", 2), ("p3", 3)]


def test_knockout_semi_finalists_share_third_place(make_tournament, organiser, players, commit):
    tournament = make_tournament(format="knockout")
    register_all(tournament, players[:5])
    with commit():
        services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    (played,) = KnockoutMatch.objects.filter(round__tournament=tournament, lower__isnull=False)
    for link in played.games.select_related("game", "orange"):
        finish(link.game, "1-0" if link.orange_id == played.higher_id else "0-1", commit=commit)
    for semi in KnockoutMatch.objects.filter(round__tournament=tournament, round__number=2):
        for link in semi.games.select_related("game"):
            finish(link.game, "1-0" if link.orange_id == semi.higher_id else "0-1", commit=commit)
    tournament.refresh_from_db()
    rows = selectors.tournament_standings(tournament=tournament).rows
    assert [(r.number, r.place, r.stage) for r in rows] == [
        (1, "1\u20132", "Still in"),
        (2, "1\u20132", "Still in"),
        (3, "3\u20134", "Semi-finals"),
        (4, "3\u20134", "Semi-finals"),
        (5, "5", "Quarter-finals"),
    ]
    assert [r.rank for r in rows] == [1, 1, 3, 3, 5]


def _side(side: tables.BracketSide | None) -> tuple | None:
    if side is None:
        return None
    return (side.name, side.seed, side.score, side.winner, side.from_match)


def test_the_bracket_shows_every_match_with_scores_winners_byes_and_games(knockout_of_three):
    rounds = tables.tournament_bracket(tournament=knockout_of_three)
    assert [(r.number, r.name) for r in rounds] == [(1, "Semi-finals"), (2, "Final")]
    bye, played = rounds[0].matches
    assert (_side(bye.top), bye.bottom, bye.is_bye, bye.decided_by) == (
        ("p1", 1, 0, True, None),
        None,
        True,
        "bye",
    )
    assert (_side(played.top), _side(played.bottom), played.decided_by) == (
        ("p2", 2, 2, True, None),
        ("p3", 3, 2, False, None),
        "higher_seed",
    )
    assert [(g.pair, g.result) for g in played.games] == [
        (1, "1-0"),
        (1, "1-0"),
        (2, "1-0"),
        (2, "1-0"),
    ]
    assert all(g.game_id for g in played.games)
    (final,) = rounds[1].matches
    assert (_side(final.top), _side(final.bottom), final.decided_by) == (
        ("p1", 1, Fraction(1, 2), False, None),
        ("p2", 2, Fraction(3, 2), True, None),
        "games",
    )


def test_the_bracket_shows_rounds_to_come(make_tournament, organiser, players, commit):
    tournament = make_tournament(format="knockout")
    register_all(tournament, players[:5])
    with commit():
        services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    tournament.refresh_from_db()
    rounds = tables.tournament_bracket(tournament=tournament)
    assert [(r.name, len(r.matches)) for r in rounds] == [
        ("Quarter-finals", 4),
        ("Semi-finals", 2),
        ("Final", 1),
    ]
    semi_one, semi_two = rounds[1].matches
    assert (_side(semi_one.top), _side(semi_one.bottom)) == (
        ("p1", 1, 0, False, 1),  # had a bye: known already
        ("", None, 0, False, 2),  # the winner of match 2 (4 v 5)
    )
    assert (_side(semi_two.top)[0], _side(semi_two.bottom)[0]) == ("p2", "p3")
    (final,) = rounds[2].matches
    assert (final.top.from_match, final.bottom.from_match, final.top.name) == (1, 2, "")
    assert (
        tables.tournament_bracket(tournament=make_tournament(format="swiss", rounds_planned=3))
        == []
    )


# --- Pages and API ------------------------------------------------------------------------------


def test_the_page_shows_byes_the_legend_and_the_round_table(swiss_with_byes, client):
    html = client.get(f"/tournaments/{swiss_with_byes.pk}/").content.decode()
    assert '<td class="byes">+B 1B</td>' in html  # p5's crosstable row
    assert "<dt>½B</dt><dd>half-point bye, asked for ahead of the round</dd>" in html
    assert 'class="round-table"' in html and '<th scope="col" class="num">R3</th>' in html
    assert 'title="Playing"' in html  # p4 v p1 still running
    assert 'class="bracket"' not in html


def test_the_page_draws_the_bracket_and_shared_places(knockout_of_three, client):
    html = client.get(f"/tournaments/{knockout_of_three.pk}/").content.decode()
    assert '<h2 id="bracket-h">Bracket</h2>' in html
    assert html.count('<li class="bracket-match') == 3 and '<li class="bracket-match bye">' in html
    assert '<div class="bracket-side winner">' in html
    assert "(decided by: higher seed)" in html
    assert '<td class="stage">Semi-finals</td>' in html
    assert 'class="round-table"' not in html
    # Points rank nothing in a knockout: the column says they are the games' points.
    assert ">Game points</th>" in html and '<th scope="col" class="num">Points</th>' not in html


def test_the_api_gives_the_round_table(swiss_with_byes, client):
    body = client.get(f"/api/v1/tournaments/{swiss_with_byes.pk}/rounds-table/").json()
    (table,) = body
    assert table["rounds"] == [1, 2, 3]
    rows = {row["name"]: row for row in table["rows"]}
    assert rows["p5"]["rank"] == 1 and rows["p5"]["points"] == 2
    assert [(c["opponent"], c["colour"], c["mark"], c["pending"]) for c in rows["p1"]["cells"]] == [
        (3, "orange", "1", False),
        (None, None, "½B", False),
        (4, "blue", "", True),
    ]
    crosstable = client.get(f"/api/v1/tournaments/{swiss_with_byes.pk}/crosstable/").json()
    assert {row["name"]: row["byes"] for row in crosstable[0]["rows"]}["p5"] == ["+B", "1B"]
    knockout = client.get(f"/api/v1/tournaments/{swiss_with_byes.pk}/bracket/").json()
    assert knockout == []


def test_the_api_gives_the_bracket(knockout_of_three, client):
    rounds = client.get(f"/api/v1/tournaments/{knockout_of_three.pk}/bracket/").json()
    assert [r["name"] for r in rounds] == ["Semi-finals", "Final"]
    bye, played = rounds[0]["matches"]
    assert (bye["top"]["username"], bye["bottom"], bye["decided_by"]) == ("p1", None, "bye")
    assert [
        (s["username"], s["score"], s["winner"]) for s in (played["top"], played["bottom"])
    ] == [
        ("p2", 2, True),
        ("p3", 2, False),
    ]
    assert len(played["games"]) == 4 and all(g["game_id"] for g in played["games"])
    (final,) = rounds[1]["matches"]
    assert (final["top"]["score"], final["bottom"]["score"]) == (0.5, 1.5)
    assert client.get(f"/api/v1/tournaments/{knockout_of_three.pk}/rounds-table/").json() == []
    standings = client.get(f"/api/v1/tournaments/{knockout_of_three.pk}/standings/").json()
    assert [(r["username"], r["place"], r["stage"]) for r in standings["rows"]] == [
        ("p2", "1", "Winner"),
        ("p1", "2", "Final"),
        ("p3", "3", "Semi-finals"),
    ]
