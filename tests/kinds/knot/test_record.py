"""Records: written from steps, read back to the same steps, flips checked against FlipSeed."""

from __future__ import annotations

import re

import pytest

from games.kinds.base import Departure, KindError, SeededChance, Step, StepKind
from games.kinds.knot.board import INDEX
from games.kinds.knot.cli import random_game
from games.kinds.knot.kind import KIND
from games.kinds.knot.record import parse_record, record_text
from tests.kinds.knot.helpers import position

SEED = bytes(range(32))


def seeded_headers(chance: SeededChance) -> dict[str, str]:
    return {"FlipCommit": chance.commitment, "FlipSeed": chance.seed.hex()}


def test_the_rules_example_line_is_written_as_the_rules_write_it() -> None:
    state = position(2, {1: {"a1": 1, "a2": 1}, 2: {"a2": 1, "i9": 1}})
    state.flip(INDEX["a1"], "H")
    state.move(INDEX["a2"], "TH")
    state.move(INDEX["c3"])
    assert [step.notation for step in state.steps] == ["a1 H", "a2 TH", "c3"]
    text = KIND.record_text(state, {"Seat1": "alice nickel", "Seat2": 'bob "dime"'})
    assert text.splitlines() == [
        '[Game "Celtic Knot"]',
        '[Seats "2"]',
        '[Seat1 "alice nickel"]',
        '[Seat2 "bob \\"dime\\""]',
        "1 a1 H a2 TH c3",
    ]


def test_a_finished_seeded_game_round_trips() -> None:
    state, chance = random_game(3, 21)
    text = record_text(state, seeded_headers(chance))
    assert re.search(r'^\[Result "\d \d \d"\]$', text, re.MULTILINE)
    assert "\n[FlipSeed " in text and "\n[FlipCommit " in text
    parsed = parse_record(text)
    assert parsed.state.steps == state.steps
    assert parsed.headers["FlipSeed"] == chance.seed.hex()
    assert record_text(parsed.state, parsed.headers) == text


def test_without_flip_seed_the_flips_are_taken_from_the_record() -> None:
    state, chance = random_game(2, 4)
    text = record_text(state, {"FlipCommit": chance.commitment})
    assert "FlipSeed" not in text
    assert parse_record(text).state.steps == state.steps


def test_resignations_mid_turn_write_their_own_lines() -> None:
    state = KIND.new_state(3, chance=SeededChance(SEED))
    state.play("a1")
    state.leave(2, Departure.TIMEOUT)  # another seat leaves during seat 1's move
    state.play(state.legal_choices()[0])
    while state.to_act == 1:
        state.play(state.legal_choices()[0])
    state.play("b1")
    state.leave(2 if state.to_act == 2 else 3, Departure.RESIGN)
    lines = record_text(state, {}).splitlines()
    turns = [line for line in lines if not line.startswith("[")]
    assert turns[0].startswith("1 a1 ") and len(turns[0].split()) == 3
    assert turns[1] == "2 timeout"
    assert turns[2].startswith("1 ")
    assert turns[-1] == "3 resign" and turns[-2].startswith("3 b1 ")
    assert parse_record("\n".join(lines)).state.steps == state.steps


def finished_record() -> str:
    state, chance = random_game(3, 8)
    return record_text(state, seeded_headers(chance))


def first_turn_line(text: str) -> tuple[int, str]:
    lines = text.splitlines()
    number = next(n for n, line in enumerate(lines) if not line.startswith("["))
    return number, lines[number]


def replace_line(text: str, number: int, line: str) -> str:
    lines = text.splitlines()
    lines[number] = line
    return "\n".join(lines) + "\n"


def test_a_wrong_flip_is_refused_naming_the_line() -> None:
    text = finished_record()
    number, line = first_turn_line(text)
    seat, square, flips, *rest = line.split()
    wrong = "H" if flips == "T" else "T"
    with pytest.raises(KindError, match=rf"Line {number + 1}: Flip: flipping 1 of the game is "):
        parse_record(replace_line(text, number, " ".join([seat, square, wrong, *rest])))


def test_a_wrong_destination_is_refused_naming_the_line() -> None:
    text = finished_record()
    number, line = first_turn_line(text)
    seat, square, flips, *_ = line.split()
    with pytest.raises(KindError, match=rf"Line {number + 1}: Route: .* not e9"):
        parse_record(replace_line(text, number, f"{seat} {square} {flips} e9"))


def test_a_wrong_seat_is_refused_naming_the_line() -> None:
    text = finished_record()
    number, line = first_turn_line(text)
    with pytest.raises(KindError, match=rf"Line {number + 1}: Turn order: seat 1 is to act"):
        parse_record(replace_line(text, number, "2" + line[1:]))


def test_a_seed_that_is_not_the_commitment_is_refused() -> None:
    text = finished_record().replace('[FlipCommit "', '[FlipCommit "00')
    with pytest.raises(KindError, match="FlipSeed: its SHA-256 is not FlipCommit"):
        parse_record(text)


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (['[Seats "2"]', "1 a1"], "Line 2: Flip: the flips of the stack on a1 must follow it"),
        (['[Seats "2"]', "1 a1 T a3 H"], "Line 2: Extra move: a3 holds no opponent's coin"),
        (['[Seats "2"]', "1 a1 T a3 b3"], r"Line 2: Turn: the turn ended .* 'b3' follows"),
        (['[Seats "2"]', "1 a1 T pass"], "Line 2: Pass: the stack can reach a3, c1"),
        (['[Seats "2"]', "x a1 T a3"], "Line 2: a line starts with a seat number"),
        (['[Seats "9"]', "1 a1 T a3"], r"Line 2: Seats: expected the header \[Seats"),
        (["1 a1 T a3"], "Line 1: Seats: expected"),
        (['[Seats "2"]', "1 a1 T a3", '[Result "1 2"]'], "Line 3: headers come before"),
        (['[Seats "2"]', '[Result "1 2"]', "1 a1 T a3"], "Result: the record says '1 2', but"),
        (['[Seats "2"]', "1 resign", "2 a1 T a3"], "Line 3: The game is over"),
        (['[Seats "2"]', '[Result "1 2"]', "1 resign"], "Result: .* but the lines give '2 1'"),
        (['[Seats "2"]', "[Seats 2]"], "Line 2: '\\[Seats 2\\]' is not a header"),
        (['[Seats "2"]', '[FlipSeed "xyz"]', "1 a1 T a3"], "FlipSeed: expected the seed in hex"),
        (['[Game "Celtic!"]', '[Seats "2"]', "1 a1 T a3"], "Line 3: Game: expected a record of"),
    ],
)
def test_bad_records_are_refused_naming_the_line_and_rule(lines: list[str], message: str) -> None:
    with pytest.raises(KindError, match=message):
        parse_record("\n".join(lines))


def test_a_line_may_stop_after_a_landing_that_earned_an_extra_move() -> None:
    text = '[Seats "3"]\n1 a1 H a2\n1 resign\n2 a1 H a2 HH b3\n'
    state = parse_record(text).state
    assert [step.notation for step in state.steps] == [
        "a1 H",
        "a2",
        "resign",
        "a1 H",
        "a2 HH",
        "b3",
    ]
    assert state.to_act == 3
    assert record_text(state, {}).splitlines()[2:] == ["1 a1 H a2", "1 resign", "2 a1 H a2 HH b3"]
    assert KIND.replay(3, state.steps).steps == state.steps
    assert KIND.replay(3, [*state.steps[:2], Step(1, StepKind.MOVE, "TT")]).to_act == 1
