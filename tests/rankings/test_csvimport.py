"""Parsing a CSV of past results: every bad row is reported with its line number."""

from datetime import date

import pytest

from rankings.csvimport import ResultFileError, chronological, parse_results


def _errors(text: str) -> list[str]:
    with pytest.raises(ResultFileError) as caught:
        parse_results(text.splitlines(keepends=True))
    return [str(error) for error in caught.value.errors]


def test_valid_file_with_header():
    text = "date,player1,player2,result\n2024-01-05,Ann,Bob,1-0\n2024-01-06, Bob ,Cy,1/2-1/2\n"
    results = parse_results(text.splitlines(keepends=True))
    assert [(r.line, r.played_on, r.player1, r.player2, r.score1) for r in results] == [
        (2, date(2024, 1, 5), "Ann", "Bob", 1.0),
        (3, date(2024, 1, 6), "Bob", "Cy", 0.5),
    ]


def test_header_is_optional_and_blank_lines_are_skipped():
    results = parse_results(["2024-01-05,Ann,Bob,0-1\n", "\n", "2024-01-04,Bob,Ann,1-0\n"])
    assert [(r.line, r.score1) for r in results] == [(1, 0.0), (3, 1.0)]
    assert [r.line for r in chronological(results)] == [3, 1]


def test_bad_result():
    assert _errors("2024-01-05,Ann,Bob,1-0\n2024-01-06,Ann,Bob,2-0\n") == [
        "line 2: result '2-0' is not one of 1-0, 0-1, 1/2-1/2"
    ]


def test_bad_dates():
    assert _errors(
        "date,player1,player2,result\n"
        "2024-02-30,Ann,Bob,1-0\n"
        "05/01/2024,Ann,Bob,1-0\n"
        "20240105,Ann,Bob,1-0\n"
        ",Ann,Bob,1-0\n"
    ) == [
        "line 2: date '2024-02-30' is not a date in the form YYYY-MM-DD",
        "line 3: date '05/01/2024' is not a date in the form YYYY-MM-DD",
        "line 4: date '20240105' is not a date in the form YYYY-MM-DD",
        "line 5: date '' is not a date in the form YYYY-MM-DD",
    ]


def test_blank_names_same_player_and_field_count():
    assert _errors(
        "2024-01-05,,Bob,1-0\n"
        "2024-01-05,Ann,  ,1-0\n"
        "2024-01-05,Ann,Ann,1-0\n"
        "2024-01-05,Ann,Bob\n"
        "2024-01-05,Ann,Bob,1-0,extra\n"
        f"2024-01-05,{'x' * 101},Bob,1-0\n"
    ) == [
        "line 1: player1 is blank",
        "line 2: player2 is blank",
        "line 3: player 'Ann' cannot play themselves",
        "line 4: expected 4 fields date,player1,player2,result, found 3",
        "line 5: expected 4 fields date,player1,player2,result, found 5",
        "line 6: player1 is longer than 100 characters",
    ]


def test_several_problems_on_one_row_are_all_reported():
    assert _errors("someday,Ann,,draw\n") == [
        "line 1: date 'someday' is not a date in the form YYYY-MM-DD",
        "line 1: player2 is blank",
        "line 1: result 'draw' is not one of 1-0, 0-1, 1/2-1/2",
    ]


def test_a_header_after_the_first_line_is_an_error():
    errors = _errors("2024-01-05,Ann,Bob,1-0\ndate,player1,player2,result\n")
    assert errors[0].startswith("line 2: date 'date'")


def test_empty_file_is_an_error():
    assert _errors("") == ["line 1: the file has no result rows"]
    assert _errors("date,player1,player2,result\n") == ["line 1: the file has no result rows"]


def test_quoted_names_with_commas():
    results = parse_results(['2024-01-05,"Smith, Ann",Bob,1-0\n'])
    assert results[0].player1 == "Smith, Ann"
