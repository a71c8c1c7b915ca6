"""ratings_replay (no database), ratings_import (all or nothing) and their errors."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from rankings.models import Player, PlayerRating, RatedResult

GOOD = """date,player1,player2,result
2024-01-05,Ann,Bob,1-0
2024-01-06,Bob,Ann,0-1
2024-01-06,Cy,Ann,1/2-1/2
"""


def _write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "results.csv"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _replay(path: str) -> dict:
    out = StringIO()
    call_command("ratings_replay", path, "--json", stdout=out)
    return json.loads(out.getvalue())


def test_replay_prints_json_without_a_database(tmp_path):
    # No db fixture: pytest-django fails any database query in this test.
    # Game 1: Ann beats Bob: 1520 / 1480.
    # Game 2: Ann beats Bob again (as player2): E(Ann) = 1 / (1 + 10^(-40/400)) = 0.5573116
    #   Ann: 1520 + 40 * (1 - 0.5573116) = 1537.707535; Bob: 1480 - 17.707535 = 1462.292465
    # Game 3: Cy draws Ann: E(Ann) = 1 / (1 + 10^(-37.707535/400)) = 1 / 1.8048914 = 0.5540534
    #   Ann: 1537.707535 + 40 * (0.5 - 0.5540534) = 1537.707535 - 2.162138 = 1535.545397
    #   Cy:  1500 + 40 * (0.5 - 0.4459466) = 1500 + 2.162138 = 1502.162138
    data = _replay(_write(tmp_path, GOOD))
    players = data["players"]
    assert set(players) == {"Ann", "Bob", "Cy"}
    assert players["Ann"]["games"] == 3
    assert players["Bob"]["elo"] == pytest.approx(1462.292465, abs=1e-6)
    assert players["Cy"]["elo"] == pytest.approx(1502.162138, abs=1e-6)
    assert players["Ann"]["elo"] == pytest.approx(1535.545397, abs=1e-6)
    assert players["Ann"]["elo"] + players["Bob"]["elo"] + players["Cy"]["elo"] == pytest.approx(
        4500.0
    )
    assert set(players["Ann"]["glicko"]) == {"rating", "rd"}
    assert players["Cy"]["glicko"]["rd"] < 350.0


def test_replay_orders_rows_by_date(tmp_path):
    shuffled = "2024-01-06,Cy,Ann,1/2-1/2\n2024-01-05,Ann,Bob,1-0\n2024-01-06,Bob,Ann,0-1\n"
    # Same date keeps file order: here Cy-Ann comes before Bob-Ann, unlike GOOD.
    in_order = "2024-01-05,Ann,Bob,1-0\n2024-01-06,Cy,Ann,1/2-1/2\n2024-01-06,Bob,Ann,0-1\n"
    assert _replay(_write(tmp_path, shuffled)) == _replay(_write(tmp_path, in_order))


def test_replay_reports_bad_rows(tmp_path):
    path = _write(tmp_path, GOOD + "2024-01-07,Ann,Bob,2-0\n2024-13-01,Ann,,1-0\n")
    with pytest.raises(CommandError) as caught:
        call_command("ratings_replay", path, "--json", stdout=StringIO())
    message = str(caught.value)
    assert "3 errors" in message
    assert "line 5: result '2-0' is not one of 1-0, 0-1, 1/2-1/2" in message
    assert "line 6: date '2024-13-01' is not a date in the form YYYY-MM-DD" in message
    assert "line 6: player2 is blank" in message


def test_replay_of_a_missing_file(tmp_path):
    with pytest.raises(CommandError, match="No such file"):
        call_command("ratings_replay", str(tmp_path / "nope.csv"), "--json")


def test_replay_table_without_json(tmp_path):
    out = StringIO()
    call_command("ratings_replay", _write(tmp_path, GOOD), stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[1].split()[:2] == ["Ann", "1536"]  # 1535.545397 rounded


@pytest.mark.django_db
def test_import_stores_the_same_history_replay_computes(tmp_path):
    path = _write(tmp_path, GOOD)
    expected = _replay(path)["players"]
    out = StringIO()
    call_command("ratings_import", path, stdout=out)
    assert "Imported 3 results (3 new players)" in out.getvalue()
    assert RatedResult.objects.filter(source="import", game=None).count() == 3
    stored = {
        r.player.name: {
            "elo": r.elo,
            "games": r.games,
            "glicko": {"rating": r.glicko_rating, "rd": r.glicko_rd},
        }
        for r in PlayerRating.objects.select_related("player")
    }
    assert stored == expected  # the same floats, not just close


@pytest.mark.django_db
def test_import_with_errors_imports_nothing(tmp_path):
    Player.objects.create(name="Ann")
    path = _write(tmp_path, GOOD + "2024-01-07,Dee,Dee,1-0\n")
    with pytest.raises(CommandError) as caught:
        call_command("ratings_import", path)
    assert "1 error, nothing imported" in str(caught.value)
    assert "line 5: player 'Dee' cannot play themselves" in str(caught.value)
    assert list(Player.objects.values_list("name", flat=True)) == ["Ann"]
    assert not RatedResult.objects.exists()
    assert not PlayerRating.objects.exists()


@pytest.mark.django_db
def test_import_matches_existing_players_by_name(tmp_path):
    ann = Player.objects.create(name="Ann", country="IE")
    call_command("ratings_import", _write(tmp_path, GOOD), stdout=StringIO())
    assert Player.objects.count() == 3
    assert PlayerRating.objects.get(player=ann).games == 3


@pytest.mark.django_db
def test_import_rejects_non_utf8(tmp_path):
    path = tmp_path / "latin1.csv"
    path.write_bytes("2024-01-05,Zoë,Bob,1-0\n".encode("latin-1"))
    with pytest.raises(CommandError, match="not UTF-8"):
        call_command("ratings_import", str(path))
    assert not RatedResult.objects.exists()


def test_replay_runs_against_a_database_that_does_not_exist(tmp_path):
    """The command as a user runs it, with no database file at all."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["CELTIC_VAR_DIR"] = str(tmp_path / "var")
    command = [sys.executable, str(root / "manage.py"), "ratings_replay", _write(tmp_path, GOOD)]
    done = subprocess.run(
        [*command, "--json"], cwd=root, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == _replay(_write(tmp_path, GOOD))
    assert not (tmp_path / "var" / "db.sqlite3").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("control", ["\x00", "\x07", "\x1b"])
def test_import_refuses_a_control_character_with_its_line(tmp_path, control):
    """A NUL byte used to crash the import with a traceback (PostgreSQL stores no NUL)."""
    path = _write(tmp_path, GOOD + f"2024-01-07,Ann,B{control}b,1-0\n")
    with pytest.raises(CommandError) as caught:
        call_command("ratings_import", path)
    expected = f"line 5: player2 contains the control character U+{ord(control):04X}"
    assert expected in str(caught.value)
    assert not RatedResult.objects.exists()
