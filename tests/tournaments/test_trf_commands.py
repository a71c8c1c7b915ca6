"""The TRF commands: export a tournament, import a file, and the round trip
export → import → export giving the same file."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
import time_machine
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.accounts.factories import make_superuser
from tests.games.conftest import token_client
from tests.tournaments.conftest import T0, finish, register_all
from tournaments import selectors, services
from tournaments.models import Bye, Entry, Tournament, TournamentGame
from tournaments.trf import parse_trf

pytestmark = pytest.mark.django_db

SAMPLE = Path(__file__).parent / "trf" / "data" / "celtic_open.trf"


def export(tournament_id: int) -> str:
    out = StringIO()
    call_command("tournament_export", str(tournament_id), stdout=out)
    return out.getvalue()


def import_file(path: Path, *args: str) -> tuple[int, str]:
    out = StringIO()
    call_command("tournament_import", str(path), *args, stdout=out)
    lines = out.getvalue().splitlines()
    return int(lines[-1]), out.getvalue()


@pytest.fixture
def finished_round_robin(make_tournament, organiser, players, commit) -> Tournament:
    """p1..p5 played a single round robin (5 players: a round off each round) at T0; p5
    withdrew after round 2 (results kept: forfeits), one game was a draw."""
    arbiter = make_superuser("arbiter")
    with time_machine.travel(T0, tick=False):
        tournament = make_tournament(
            name="Winter Cup", withdrawal_policy="forfeit_rest", tiebreaks=["sb"]
        )
        register_all(tournament, players[:5])
        with commit():
            services.tournament_start(tournament_id=tournament.pk, actor=organiser)
        for number in range(1, 6):
            if number == 3:
                with commit():
                    services.entry_withdraw(tournament_id=tournament.pk, user=players[4])
            links = TournamentGame.objects.filter(
                tournament=tournament, round__number=number, result=""
            ).select_related("game")
            for index, link in enumerate(links):
                result = "1/2-1/2" if (number, index) == (1, 0) else "1-0"
                finish(link.game, result, commit=commit, arbiter=arbiter)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return tournament


def test_export_writes_every_round(finished_round_robin, players):
    text = export(finished_round_robin.pk)
    trf = parse_trf(text)
    assert trf.name == "Winter Cup"
    assert trf.rounds == 5
    assert trf.round_robin
    by_name = {p.name: p for p in trf.players}
    assert set(by_name) == {"p1", "p2", "p3", "p4", "p5"}
    p5 = [r.outcome.value for r in by_name["p5"].rounds]
    assert p5[2:] == ["-", "", "-"]  # withdrawn: forfeits, and no more round off
    offs = [r.round for p in trf.players for r in p.rounds if r.outcome.value == "Z"]
    assert sorted(offs) == [1, 2, 3, 5]  # the round off of an odd field (p5's was round 4)
    ranks = sorted(int(p.extra["rank"]) for p in trf.players)
    assert ranks[0] == 1
    assert text.splitlines()[0] == "012 Winter Cup"


def test_export_import_export_gives_the_same_file(finished_round_robin, tmp_path):
    first = export(finished_round_robin.pk)
    path = tmp_path / "winter.trf"
    path.write_text(first, encoding="utf-8")
    new_id, output = import_file(path, "--organiser", "orga", "--tiebreaks", "sb")
    assert "5 players, 5 rounds" in output
    imported = Tournament.objects.get(pk=new_id)
    assert imported.imported and imported.status == Tournament.Status.FINISHED
    assert imported.name.startswith("Winter Cup (imported ")
    assert export(new_id) == first
    original = selectors.tournament_standings(tournament=finished_round_robin)
    copy = selectors.tournament_standings(tournament=imported)
    assert [(r.name, r.points, r.rank, r.tiebreaks) for r in copy.rows] == [
        (r.name, r.points, r.rank, r.tiebreaks) for r in original.rows
    ]


def test_importing_a_file_from_elsewhere_keeps_every_round(tmp_path, organiser):
    make_superuser("root")
    new_id, _ = import_file(SAMPLE)
    tournament = Tournament.objects.get(pk=new_id)
    assert tournament.organiser.username == "root"
    original = parse_trf(SAMPLE.read_text(encoding="utf-8"))
    again = parse_trf(export(new_id))
    assert again.header == original.header
    assert again.extra_lines == original.extra_lines
    assert {p.number: (p.name, p.rounds) for p in again.players} == {
        p.number: (p.name, p.rounds) for p in original.players
    }
    assert Entry.objects.filter(tournament=tournament).count() == len(original.players)
    assert tournament.winner is None  # the players have no accounts here
    assert Entry.objects.get(tournament=tournament, final_rank=1)
    assert Bye.objects.filter(round__tournament=tournament).exists() == any(
        r.outcome.value in "HFUZ" and r.outcome.value for p in original.players for r in p.rounds
    )


def test_import_errors_are_clear(tmp_path, organiser):
    with pytest.raises(CommandError, match="Unknown tie-break"):
        import_file(SAMPLE, "--organiser", "orga", "--tiebreaks", "sb,xyz")
    with pytest.raises(CommandError, match="cannot read it"):
        import_file(tmp_path / "missing.trf", "--organiser", "orga")
    bad = tmp_path / "bad.trf"
    bad.write_text("001 abcd nonsense\n", encoding="utf-8")
    with pytest.raises(CommandError, match="line 1: expected a starting rank"):
        import_file(bad, "--organiser", "orga")
    huge = tmp_path / "huge.trf"
    huge.write_text("012 Cup\nXXR 32768\n001    1      A\n", encoding="utf-8")
    with pytest.raises(CommandError, match=r"line 2: expected the number of rounds \(XXR\)"):
        import_file(huge, "--organiser", "orga")
    eastern = tmp_path / "eastern.trf"
    eastern.write_text("001    \u0661      A\n", encoding="utf-8")
    with pytest.raises(CommandError, match="line 1: expected a starting rank"):
        import_file(eastern, "--organiser", "orga")
    empty = tmp_path / "empty.trf"
    empty.write_text("012 Nothing\n", encoding="utf-8")
    with pytest.raises(CommandError, match="no player lines"):
        import_file(empty, "--organiser", "orga")
    with pytest.raises(CommandError, match="no user called 'nobody'"):
        import_file(SAMPLE, "--organiser", "nobody")
    with pytest.raises(CommandError, match="no superuser"):
        import_file(SAMPLE)
    assert not Tournament.objects.exists()


def test_export_errors_are_clear(make_tournament):
    with pytest.raises(CommandError, match="no tournament #999"):
        export(999)
    knockout = make_tournament(format="knockout")
    with pytest.raises(CommandError, match="has not started"):
        export(make_tournament().pk)
    knockout.status = Tournament.Status.FINISHED
    knockout.save()
    with pytest.raises(CommandError, match="knockout cannot be exported"):
        export(knockout.pk)


@pytest.mark.parametrize("text", ["   ", "\x0b\x0c\x1c\x1d\x1e", "012 Nothing\n"])
def test_the_api_refuses_a_file_without_players_exactly_as_the_command_does(
    tmp_path, organiser, text
):
    """A blank file (or control characters) made a public empty "Imported event"."""
    api = token_client(organiser)
    empty = tmp_path / "empty.trf"
    empty.write_text(text, encoding="utf-8")

    answer = api.post("/api/v1/tournaments/import-trf/", {"trf": text}, format="json")
    with pytest.raises(CommandError) as refused:
        import_file(empty, "--organiser", "orga")

    assert (answer.status_code, answer.json()["code"]) == (400, "trf_invalid")
    message = "The TRF file has no player lines (001); is it a TRF file?"
    assert answer.json()["detail"] == message
    assert str(refused.value) == f"{empty}: {message}"
    assert not Tournament.objects.exists()
