"""``manage.py tournament_pair --dutch FILE.trf``: output as bbpPairings prints it, clear
errors and a non-zero exit for files it cannot read or rounds it cannot pair."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tests.tournaments.swiss.events import event
from tournaments.trf import TrfTournament, format_trf

CASES = Path(__file__).parent / "bbp_cases"


def run(path: Path) -> str:
    out = StringIO()
    call_command("tournament_pair", str(path), "--dutch", stdout=out)
    return out.getvalue()


def write(tmp_path: Path, players: str, *extra: str) -> Path:
    path = tmp_path / "event.trf"
    tournament = TrfTournament(players=tuple(event(*players.split("|"))), extra_lines=extra)
    path.write_text(format_trf(tournament), encoding="utf-8")
    return path


def test_prints_the_count_then_white_black_then_the_bye(tmp_path: Path):
    path = write(tmp_path, "||||||", "XXR 5", "XXC white1")
    assert run(path) == "4\n1 4\n5 2\n3 6\n7 0\n"


def test_black1_and_forbidden_pairs_are_read(tmp_path: Path):
    path = write(tmp_path, "|||", "XXR 3", "XXC black1", "XXP 1 3")
    assert run(path) == "2\n4 1\n2 3\n"


def test_a_recorded_bbppairings_case(tmp_path: Path):
    case = sorted(CASES.glob("*.trf"))[5]
    assert run(case) == case.with_suffix(".expected").read_text(encoding="utf-8")


def test_missing_file():
    with pytest.raises(CommandError, match=r"cannot read .*nowhere\.trf"):
        run(Path("/nowhere.trf"))


def test_unreadable_line(tmp_path: Path):
    path = tmp_path / "bad.trf"
    path.write_text("XXR 5\n001    1      A                                 \n001   x\n")
    with pytest.raises(CommandError, match=r"bad\.trf: TRF line 3"):
        run(path)


def test_no_number_of_rounds(tmp_path: Path):
    path = write(tmp_path, "|")
    with pytest.raises(CommandError, match="no number of rounds"):
        run(path)


def test_all_rounds_already_paired(tmp_path: Path):
    path = write(tmp_path, "2w1|1b0", "XXR 1")
    with pytest.raises(CommandError, match="all 1 rounds are already paired"):
        run(path)


def test_a_round_that_cannot_be_paired(tmp_path: Path):
    path = write(tmp_path, "2w1|1b0", "XXR 3")
    with pytest.raises(CommandError, match="cannot pair the next round"):
        run(path)


def test_dutch_is_required(tmp_path: Path):
    path = write(tmp_path, "|", "XXR 3")
    with pytest.raises(CommandError, match="--dutch"):
        call_command("tournament_pair", str(path))
