"""Game records: JSON and text round trips, checked replay, results and Termination."""

from __future__ import annotations

import json

import pytest

from games.kinds.celtic import (
    Colour,
    Forfeit,
    GameRecord,
    GameState,
    Move,
    Pass,
    RecordError,
    Rule,
    Variant,
)
from games.kinds.celtic.record import FORMAT

PASS_GAME = ["e4 NE", "f5 NSW n", "d5 NE", "f4 NSW", "f3 NS", "d6 ES n", "f6 S", "f2 N n"]


def finished_game() -> GameState:
    state = GameState.new()
    for move in [*PASS_GAME, "e6 SW"]:
        state.apply(move)
    assert state.is_over()
    return state


def forfeit_game() -> GameState:
    state = GameState.new(Variant(window_forfeit=True))
    for move in ["f5 EW", "g5 EW", "h5 EW", "d5 E"]:
        state.apply(move)
    return state


HEADERS = {"Event": "Casual game", "Orange": "alice", "Blue": "bob", "Round": "3"}


def test_text_format() -> None:
    record = GameRecord.from_state(finished_game(), HEADERS)
    result = finished_game().result().text
    assert record.result == result
    assert record.to_text() == (
        '[Event "Casual game"]\n'
        '[Site "?"]\n'
        '[Date "????.??.??"]\n'
        '[Orange "alice"]\n'
        '[Blue "bob"]\n'
        '[Variant "standard"]\n'
        f'[Result "{result}"]\n'
        '[Round "3"]\n'
        "\n"
        "1. e4 NE f5 NSW n\n"
        "2. d5 NE f4 NSW\n"
        "3. f3 NS d6 ES n\n"
        "4. f6 S f2 N n\n"
        "5. pass e6 SW\n"
        f"{result}\n"
    )


def test_json_format() -> None:
    record = GameRecord.from_state(forfeit_game(), HEADERS)
    data = json.loads(record.to_json())
    assert data == {
        "format": FORMAT,
        "headers": {
            "Event": "Casual game",
            "Site": "?",
            "Date": "????.??.??",
            "Orange": "alice",
            "Blue": "bob",
            "Variant": "window-forfeit",
            "Result": "*",
            "Round": "3",
        },
        "variant": {"window_forfeit": True},
        "turns": ["f5 EW", "g5 EW", "forfeit h5 EW", "d5 E"],
        "result": "*",
    }
    assert record.to_dict() == data
    assert "2. forfeit h5 EW d5 E\n*\n" in record.to_text()


@pytest.mark.parametrize("make", [finished_game, forfeit_game, GameState.new])
def test_round_trips(make: object) -> None:
    state = make()  # type: ignore[operator]
    record = GameRecord.from_state(state, {**HEADERS, "Annotator": 'say "hi" \\o/'})
    assert GameRecord.from_text(record.to_text()) == record
    assert GameRecord.from_json(record.to_json()) == record
    assert GameRecord.from_json(record.to_dict()) == record
    assert list(record.headers)[:7] == [
        "Event",
        "Site",
        "Date",
        "Orange",
        "Blue",
        "Variant",
        "Result",
    ]
    assert record.replay() == state


def test_turns_are_typed() -> None:
    record = GameRecord.from_text(GameRecord.from_state(finished_game()).to_text())
    assert record.turns[8] == Pass(Colour.ORANGE)
    assert record.turns[9] == Move.parse("e6 SW")
    forfeit = GameRecord.from_json(GameRecord.from_state(forfeit_game()).to_json())
    assert forfeit.turns[2] == Forfeit(Colour.ORANGE, Move.parse("h5 EW"))


def test_reading_is_tolerant_of_layout_and_move_numbers() -> None:
    text = '[Variant "standard"]\n[Result "*"]\n\nf5 EW  g5 ew\n 2. d5 e\n*'
    record = GameRecord.from_text(text)
    assert [str(t) for t in record.turns] == ["f5 EW", "g5 EW", "d5 E"]
    assert record.replay().ply == 3


def test_a_bad_move_is_named_by_number_and_side() -> None:
    record = GameRecord.from_text("1. f5 EW g5 EW\n2. d5 E c5 E\n*")
    with pytest.raises(RecordError) as caught:
        record.replay()
    assert caught.value.rule is Rule.NOT_DEMAND
    assert str(caught.value).startswith("move 2 (Blue) c5 E: c5 is not a demand cell")


def test_unparseable_turns_are_named() -> None:
    with pytest.raises(RecordError, match=r"move 2 \(Orange\) 'f3 XY': .*not a side"):
        GameRecord.from_text("1. f5 EW g5 EW\n2. f3 XY\n*")
    data = GameRecord.from_state(forfeit_game()).to_dict()
    data["turns"][1] = "g5"
    with pytest.raises(RecordError, match=r"move 1 \(Blue\) 'g5': .*no open sides"):
        GameRecord.from_json(data)


def test_wrong_move_numbers() -> None:
    with pytest.raises(RecordError, match=r"unexpected move number '3\.': the next turn is move 2"):
        GameRecord.from_text("1. f5 EW g5 EW\n3. d5 E\n*")
    with pytest.raises(RecordError, match="unexpected move number"):
        GameRecord.from_text("1. f5 EW 2. g5 EW\n*")


def test_a_record_must_keep_its_automatic_passes() -> None:
    record = GameRecord(turns=tuple(Move.parse(m) for m in PASS_GAME))
    with pytest.raises(RecordError) as caught:
        record.replay()
    assert caught.value.rule is Rule.PASS_MISSING
    assert str(caught.value) == "move 5 (Orange) pass: the record ends before this automatic pass"


def test_result_must_match_the_board() -> None:
    state = finished_game()
    wrong = "0-1" if state.result().text != "0-1" else "1-0"
    record = GameRecord.from_state(state, result=wrong)
    with pytest.raises(RecordError, match="needs a Termination header"):
        record.replay()
    unfinished = GameRecord(turns=(Move.parse("f5 EW"),), result="1-0")
    with pytest.raises(RecordError, match="the board gives \\*"):
        unfinished.replay()


def test_termination_allows_a_server_result() -> None:
    state = GameState.new()
    state.apply("f5 EW")
    record = GameRecord.from_state(state, {"Termination": "Blue resigned"}, result="1-0")
    assert record.replay() == state
    assert GameRecord.from_text(record.to_text()) == record


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('[Event "x"\n\n*', "is not a header"),
        (
            '[Result "1-0"]\n\nf5 EW\n0-1',
            "the Result header says '1-0' but the moves end with '0-1'",
        ),
        ("f5 EW", "the record has no result"),
        ('[Variant "blitz"]\n\n*', "unknown variant 'blitz'"),
        ('[Result "2-0"]\n\n', "unknown result '2-0'"),
    ],
)
def test_text_errors(text: str, problem: str) -> None:
    with pytest.raises(RecordError) as caught:
        GameRecord.from_text(text)
    assert problem in str(caught.value)


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ("not json", "the record is not JSON"),
        ("[1]", "not a JSON object"),
        ('{"format": "pgn"}', "unknown record format 'pgn'"),
        (json.dumps({"format": FORMAT, "headers": {}}), "variant is missing: expected"),
    ],
)
def test_json_errors(data: str, problem: str) -> None:
    with pytest.raises(RecordError, match=problem):
        GameRecord.from_json(data)


def test_headers_must_agree_with_the_fields() -> None:
    with pytest.raises(RecordError, match="the Variant header says 'standard'"):
        GameRecord({"Variant": "standard"}, Variant(window_forfeit=True))
    with pytest.raises(RecordError, match="bad header name"):
        GameRecord({"Two words": "x"})
    with pytest.raises(RecordError, match="line break"):
        GameRecord({"Event": "a\nb"})
    assert isinstance(RecordError("x"), ValueError)
