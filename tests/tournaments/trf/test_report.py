"""TRF-2026: reading a real-looking file, round trips, and every error path."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.standings.records import Colour, Outcome, PlayerRecord, RoundRecord
from tournaments.trf import TrfError, TrfTournament, format_trf, parse_trf

SAMPLE = Path(__file__).parent / "data" / "celtic_open.trf"
PLAYER_4 = (
    "001    4 m    Brown,Cedric                      1900 ENG                         2.0    4"
    "     1 b 0     2 b 0  0000 - F  0000 - Z     3 w 1"
)


def sample() -> TrfTournament:
    return parse_trf(SAMPLE.read_text(encoding="utf-8"))


def test_a_sample_file_reads_into_header_players_and_kept_lines() -> None:
    tournament = sample()
    assert tournament.name == "Celtic Autumn Open 2026"
    assert tournament.rounds == 5
    assert not tournament.round_robin
    assert tournament.header_value("112") == "FA Brian Deputy"  # the first of two
    assert [code for code, _ in tournament.header].count("112") == 2
    assert (
        tournament.header_value(
            "132",
        )
        is not None
    )
    assert tournament.header_value("132").strip().split() == [  # type: ignore[union-attr]
        "26/09/01", "26/09/08", "26/09/15", "26/09/22", "26/09/29"
    ]  # fmt: skip
    assert [p.number for p in tournament.players] == [1, 2, 3, 4, 5]
    assert tournament.extra_lines[1:3] == (
        "DAT 0001 EMAIL azer@example.com",
        "DAT 3 GROUP Cork Chess Club",
    )
    assert tournament.extra_lines[-1].startswith("IRL    3 w     Ní Bhriain")


def test_a_player_line_reads_field_by_field() -> None:
    players = {p.number: p for p in sample().players}
    first = players[1]
    assert (first.name, first.rating) == ("Mirzoev,Azer", 2527)
    assert first.extra == {
        "sex": "m",
        "title": "GM",
        "federation": "AZE",
        "fide_id": "13400304",
        "birth_date": "1978/01/01",
        "points": "4.5",
        "rank": "1",
    }
    assert first.rounds == (
        RoundRecord(1, Outcome.WIN, 4, Colour.ORANGE),
        RoundRecord(2, Outcome.DRAW, 3, Colour.BLUE),
        RoundRecord(3, Outcome.WIN, 2, Colour.ORANGE),
        RoundRecord(4, Outcome.PAIRING_BYE),
        RoundRecord(5, Outcome.WIN, 5, Colour.BLUE),
    )
    assert players[3].name == "Ní Bhriain,Éadaoin"
    assert players[3].extra["title"] == "WFM"
    assert players[5].rating is None
    assert [r.outcome for r in players[5].rounds] == [
        Outcome.LOSS, Outcome.ZERO_BYE, Outcome.FORFEIT_LOSS, Outcome.NOT_PLAYED, Outcome.LOSS
    ]  # fmt: skip
    assert players[5].rounds[2] == RoundRecord(3, Outcome.FORFEIT_LOSS, 3, Colour.BLUE)


def test_export_after_import_keeps_everything_in_a_canonical_order() -> None:
    """Tournament records, then players, then the other lines in their file order."""
    original = SAMPLE.read_text(encoding="utf-8").splitlines()
    exported = format_trf(sample()).splitlines()
    assert sorted(exported) == sorted(original)
    assert exported[14] == original[15]  # the first player line follows the header
    assert exported[19:] == [
        line for line in original if not line[:3].isdigit() or line.startswith("240")
    ]


def test_format_then_parse_then_format_is_stable() -> None:
    text = format_trf(sample())
    assert parse_trf(text) == sample()
    assert format_trf(parse_trf(text)) == text


def test_a_player_line_is_written_in_its_columns() -> None:
    players = {p.number: p for p in sample().players}
    assert format_trf(TrfTournament(players=(players[4],))) == PLAYER_4 + "\n"


def test_points_are_computed_when_the_record_has_none() -> None:
    player = PlayerRecord(7, "New,Player", None, (RoundRecord(1, Outcome.HALF_BYE),))
    line = format_trf(TrfTournament(players=(player,))).rstrip("\n")
    assert line[80:84] == " 0.5"
    assert line[91:] == "0000 - H"


def test_round_robin_and_rounds_come_from_the_records() -> None:
    tournament = parse_trf("012 Club\n092 Round Robin\n")
    assert tournament.round_robin and tournament.rounds == 0
    assert parse_trf("192 RR\nXXR 7\n").rounds == 7
    assert parse_trf("XXR 7\n").round_robin is False


def test_a_byte_order_mark_blank_lines_and_crlf_are_accepted() -> None:
    text = "\ufeff012 Name\r\n\r\n" + PLAYER_4.replace(
        "     1 b 0     2 b 0", "  0000 - Z  0000 - Z"
    )
    tournament = parse_trf(text.replace("     3 w 1", "  0000 - U"))
    assert tournament.name == "Name"
    assert [r.outcome for r in tournament.players[0].rounds][-1] is Outcome.PAIRING_BYE


def test_lowercase_result_letters_read_like_capitals() -> None:
    line = "001    1" + " " * 83 + "0000 - h"
    assert parse_trf(line).players[0].rounds[0].outcome is Outcome.HALF_BYE


def test_unrated_short_games_read_as_their_own_outcomes() -> None:
    text = "001    1" + " " * 83 + "   2 w W\n001    2" + " " * 83 + "   1 b L\n"
    players = parse_trf(text).players
    assert players[0].rounds[0].outcome is Outcome.UNRATED_WIN
    assert players[1].rounds[0].outcome is Outcome.UNRATED_LOSS
    assert parse_trf(format_trf(parse_trf(text))) == parse_trf(text)


def _player(rest: str, number: str = "   1") -> str:
    return "001 " + number + rest


ROUND = " " * 83  # from column 9 to column 91


@pytest.mark.parametrize(
    ("text", "line", "expected"),
    [
        ("012Name", 1, "a three-character record code and a space"),
        ("001 abcd", 1, "a starting rank 1-9999 in columns 5-8"),
        ("001    0", 1, "a starting rank 1-9999 in columns 5-8"),
        ("001    1\n001    1", 2, "a starting rank not used before (line 1)"),
        ("001    1" + " " * 40 + "19x0", 1, "a rating (digits) in columns 49-52"),
        ("001    1" + " " * 72 + "4,5", 1, "points like 11.5 in columns 81-84"),
        ("001    1" + " " * 77 + "  x1", 1, "a rank (digits) in columns 86-89"),
        ("001    1" + " " * 81 + "xx", 1, "blanks in columns 90-91 before the rounds"),
        ("001    1" + ROUND + "   2w  1", 1, "'NNNN c r' with single blanks between for round 1"),
        ("001    1" + ROUND + "   2 w 1 x", 1, "'NNNN c r' with single blanks"),
        ("001    1" + ROUND + "  a2 w 1", 1, "an opponent's starting rank or 0000 for round 1"),
        ("001    1" + ROUND + "   2 x 1", 1, "colour w, b or - for round 1"),
        ("001    1" + ROUND + "   2 w 7", 1, "a result code (1 = 0 + - W D L H F U Z)"),
        ("001    1" + ROUND + "0000 - 1", 1, "an opponent and a colour for the game of round 1"),
        ("001    1" + ROUND + "   2 - =", 1, "an opponent and a colour for the game of round 1"),
        ("001    1" + ROUND + "   2 - F", 1, "opponent 0000 for the bye of round 1"),
        ("001    1" + ROUND + "   2 w  ", 1, "a result for the pairing of round 1"),
        ("001    1" + ROUND + "   9 w 1", 1, "round 1: an opponent with a player line"),
        (
            "001    1" + ROUND + "   2 w 1\n001    2" + ROUND + "0000 - Z",
            1,
            "round 1: player 2 to name 1 as opponent in that round too",
        ),
        ("142 five", 1, "the number of rounds (142) as a whole number"),
        ("142 32768", 1, "the number of rounds (142) as a whole number 0-999"),
        ("012 X\nXXR 32768", 2, "the number of rounds (XXR) as a whole number 0-999"),
        ("XXR \u0663", 1, "the number of rounds (XXR) as a whole number"),
        ("142 \u0663", 1, "the number of rounds (142) as a whole number"),
        ("001    \u0661", 1, "a starting rank 1-9999 in columns 5-8"),
        ("001    1" + " " * 40 + "\u0661\u0669\u0660\u0660", 1, "a rating (digits) in"),
        ("001    1" + " " * 77 + "   \u0663", 1, "a rank (digits) in columns 86-89"),
        ("001    1" + ROUND + "   \u0662 w 1", 1, "an opponent's starting rank or 0000"),
        ("001    1" + ROUND + "0000 - Z  " * 1000, 1, "at most 999 rounds"),
        ("012 X\n152 red", 2, "the initial colour (152) W or B"),
    ],
)
def test_bad_lines_name_the_line_and_what_was_expected(text: str, line: int, expected: str) -> None:
    with pytest.raises(TrfError) as caught:
        parse_trf(text)
    assert caught.value.line_number == line
    assert expected in caught.value.expected
    assert str(caught.value).startswith(f"TRF line {line}: expected ")
    assert isinstance(caught.value, ValueError)


def test_an_error_quotes_only_a_short_part_of_the_line() -> None:
    with pytest.raises(TrfError) as caught:
        parse_trf("012" + "x" * 200)
    assert str(caught.value).endswith(", found '012" + "x" * 21 + "…'")


@pytest.mark.parametrize(
    ("player", "message"),
    [
        (PlayerRecord(10000, "A"), "starting rank 10000 does not fit"),
        (PlayerRecord(1, "A" * 34), "name longer than 33 characters"),
        (PlayerRecord(1, "A", rating=12345), "rating 12345 does not fit"),
        (PlayerRecord(1, "A", extra={"federation": "EIRE"}), "'EIRE' does not fit columns 54-56"),
    ],
)
def test_fields_that_do_not_fit_are_refused_on_export(player: PlayerRecord, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        format_trf(TrfTournament(players=(player,)))


def test_a_line_break_inside_a_field_is_refused_on_export() -> None:
    with pytest.raises(ValueError, match="cannot hold a line break"):
        format_trf(TrfTournament(header=(("012", "Two\nlines"),)))


_CODES = [Outcome.WIN, Outcome.DRAW, Outcome.LOSS, Outcome.FORFEIT_WIN, Outcome.UNRATED_DRAW]
_MIRROR = {
    Outcome.WIN: Outcome.LOSS,
    Outcome.DRAW: Outcome.DRAW,
    Outcome.LOSS: Outcome.WIN,
    Outcome.FORFEIT_WIN: Outcome.FORFEIT_LOSS,
    Outcome.UNRATED_DRAW: Outcome.UNRATED_DRAW,
}
_BYES = [
    Outcome.FULL_BYE, Outcome.HALF_BYE, Outcome.PAIRING_BYE, Outcome.ZERO_BYE, Outcome.NOT_PLAYED
]  # fmt: skip


@st.composite
def tournaments(draw: st.DrawFn) -> TrfTournament:
    """Consistent random events: each round pairs a shuffled field, the odd one out gets a
    bye-like round."""
    count = draw(st.integers(min_value=1, max_value=9))
    rounds = draw(st.integers(min_value=0, max_value=6))
    records: dict[int, list[RoundRecord]] = {n: [] for n in range(1, count + 1)}
    for round_ in range(1, rounds + 1):
        order = draw(st.permutations(list(range(1, count + 1))))
        for orange, blue in zip(order[0::2], order[1::2], strict=False):
            outcome = draw(st.sampled_from(_CODES))
            records[orange].append(RoundRecord(round_, outcome, blue, Colour.ORANGE))
            records[blue].append(RoundRecord(round_, _MIRROR[outcome], orange, Colour.BLUE))
        if count % 2:
            records[order[-1]].append(RoundRecord(round_, draw(st.sampled_from(_BYES))))
    names = st.text(alphabet="abcdefghijklmnopqrstuvwxyzÁÉÍÓÚáéíóú,.-' ", max_size=33)
    players = tuple(
        PlayerRecord(
            number=n,
            name=draw(names).strip(),
            rating=draw(st.none() | st.integers(min_value=0, max_value=9999)),
            rounds=tuple(records[n]),
        )
        for n in range(1, count + 1)
    )
    header = tuple(
        (code, draw(st.text(alphabet="ABC xyz/0123", max_size=20)).strip())
        for code in draw(st.lists(st.sampled_from(["012", "022", "092", "102", "112"])))
    )
    extra = tuple(draw(st.lists(st.sampled_from(["XXC white1", "### note", "DAT 1 GROUP A"]))))
    return TrfTournament(header=header, players=players, extra_lines=extra)


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_parse_of_format_gives_the_tournament_back(tournament: TrfTournament) -> None:
    text = format_trf(tournament)
    assert parse_trf(text) == tournament
    assert format_trf(parse_trf(text)) == text
