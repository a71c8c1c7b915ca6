"""``manage.py tournament_tiebreaks``: tie-breaks of a TRF file, JSON or a table, and errors."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

SAMPLE = Path(__file__).parent / "data" / "celtic_open.trf"


def run(*args: str) -> str:
    out = StringIO()
    call_command("tournament_tiebreaks", *args, stdout=out)
    return out.getvalue()


# The sample's results (hand-checked): 1 beat 4, drew 3, beat 2, had the pairing-allocated bye
# and beat 5: 4.5 points. Lent scores: 2: 3, 3: 2.5, 4: 2, 5: 0 (nothing to adjust).
#   bh 2026: 2 + 2.5 + 3 + bye min(4.5, ½*5) = 2.5 + 0 = 10; 2024: the bye is 4.5 -> 12
#   bh_c1 drops 0 (no VUR): 10 / 12; bh_m1 drops 0 and 3: 7 / 7.5 (2024 drops 0 and 4.5)
#   sb 2026: 2 + 2.5*½ + 3 + 2.5 + 0 = 8.75; 2024: 2 + 1.25 + 3 + 4.5 = 10.75
#   win 4 (the bye too), won 3, bpg 2 (rounds 2 and 5), ks: opponents on 2.5 or more are 2
#   and 3: 1 + ½ = 1.5, ps 1 + 1.5 + 2.5 + 3.5 + 4.5 = 13, aro (1900 + 2282 + 2408) / 3 -> 2197
PLAYER_1_2026 = {
    "number": 1, "name": "Mirzoev,Azer", "points": 4.5, "bh": 10, "bh_c1": 10, "bh_m1": 7,
    "sb": 8.75, "de": 1, "win": 4, "won": 3, "bpg": 2, "ks": 1.5, "ps": 13, "aro": 2197,
}  # fmt: skip
PLAYER_1_2024 = {**PLAYER_1_2026, "bh": 12, "bh_c1": 12, "bh_m1": 7.5, "sb": 10.75}
# 5 (0 points, unrated): lost to 2 and 1, zero-point bye, forfeit loss, absent: every dummy
# is worth its own 0, so bh 3 + 4.5 = 7.5; Cut-1 drops a voluntarily unplayed 0, Median-1
# also the 4.5: 3; ARO from its two games, (2408 + 2527) / 2 = 2467.5 -> 2468.
PLAYER_5 = {
    "number": 5, "name": "Doyle,Aoife", "points": 0, "bh": 7.5, "bh_c1": 7.5, "bh_m1": 3,
    "sb": 0, "de": 1, "win": 0, "won": 0, "bpg": 0, "ks": 0, "ps": 0, "aro": 2468,
}  # fmt: skip


def test_json_lists_every_player_with_points_and_every_tiebreak() -> None:
    report = json.loads(run(str(SAMPLE), "--json"))
    assert report["edition"] == "2026"
    assert report["rounds"] == 5
    assert report["round_robin"] is False
    assert [p["number"] for p in report["players"]] == [1, 2, 3, 4, 5]
    assert report["players"][0] == PLAYER_1_2026
    assert report["players"][4] == PLAYER_5
    assert list(report["players"][0]) == [
        "number", "name", "points", "bh", "bh_c1", "bh_m1", "sb", "de", "win", "won", "bpg",
        "ks", "ps", "aro",
    ]  # fmt: skip


def test_the_2024_edition_gives_the_bye_the_players_own_score() -> None:
    report = json.loads(run(str(SAMPLE), "--json", "--edition", "2024"))
    assert report["edition"] == "2024"
    assert report["players"][0] == PLAYER_1_2024


def test_without_json_a_table_is_printed() -> None:
    lines = run(str(SAMPLE)).splitlines()
    assert lines[0].split() == [
        "no", "name", "points", "bh", "bh_c1", "bh_m1", "sb", "de", "win", "won", "bpg", "ks",
        "ps", "aro",
    ]  # fmt: skip
    assert lines[1].split() == ["1", "Mirzoev,Azer", "4.5", "10", "10", "7", "8.75", "1", "4",
                                "3", "2", "1.5", "13", "2197"]  # fmt: skip


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match=r"cannot read .*nope\.trf: No such file"):
        run(str(tmp_path / "nope.trf"), "--json")


def test_a_bad_line_names_the_file_and_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.trf"
    bad.write_text("012 Club\n001 abcd\n", encoding="utf-8")
    with pytest.raises(CommandError, match=r"bad\.trf: TRF line 2: expected a starting rank"):
        run(str(bad), "--json")


def test_a_latin_1_file_is_read(tmp_path: Path) -> None:
    old = tmp_path / "old.trf"
    old.write_bytes("012 Tournoi d'été\n001    1 m    Müller,Jürgen\n".encode("latin-1"))
    report = json.loads(run(str(old), "--json"))
    assert report["players"][0]["name"] == "Müller,Jürgen"
    assert report["players"][0]["bh"] == 0 and report["players"][0]["aro"] is None


def test_a_bad_file_exits_non_zero(tmp_path: Path) -> None:
    bad = tmp_path / "bad.trf"
    bad.write_text("142 many\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "manage.py", "tournament_tiebreaks", str(bad), "--json"],
        cwd=Path(settings.BASE_DIR),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert "TRF line 1: expected the number of rounds (142) as a whole number" in done.stderr
    assert done.stdout == ""
