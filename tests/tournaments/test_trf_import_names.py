"""An imported event takes a name no other event has, whatever is already taken."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.accounts.factories import make_user
from tests.tournaments.conftest import grant
from tournaments import services
from tournaments.errors import InvalidSettings
from tournaments.models import Tournament
from tournaments.standings.records import Colour, Outcome, PlayerRecord, RoundRecord
from tournaments.trf import TrfTournament, parse_trf

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 1, 12, 30, 5, tzinfo=UTC)


@pytest.fixture
def import_file():
    """Imports a one-line TRF file (the event's name only) as Orga, at ``NOW``."""
    organiser = grant(make_user("orga"), "organise_tournament")

    def run(name: str = "") -> Tournament:
        trf = parse_trf("012 Winter Cup\n001    1      A\n")
        return services.tournament_import_trf(trf=trf, organiser=organiser, name=name, now=NOW)

    return run


def test_the_same_file_imported_three_times_in_one_second_gets_three_names(import_file):
    names = [import_file().name for _ in range(3)]

    assert names == [
        "Winter Cup",
        "Winter Cup (imported 2026-11-01 12:30:05)",
        "Winter Cup (imported 2026-11-01 12:30:05, 2)",
    ]


def test_a_long_taken_name_keeps_its_suffix_within_200_characters(import_file):
    long = "K" * 200
    first, second = import_file(long), import_file(long)

    suffix = " (imported 2026-11-01 12:30:05)"
    assert first.name == long
    assert second.name == "K" * (200 - len(suffix)) + suffix
    assert len(second.name) == 200


def test_a_file_refused_half_way_leaves_no_event_behind():
    """Two players who both claim the win: the import is refused and nothing of it stays
    (the event, its entries and rounds are made in one transaction)."""
    organiser = grant(make_user("orga"), "organise_tournament")
    trf = TrfTournament(
        header=(("012", "Disputed Cup"),),
        players=(
            PlayerRecord(1, "Ana", rounds=(RoundRecord(1, Outcome.WIN, 2, Colour.ORANGE),)),
            PlayerRecord(2, "Bea", rounds=(RoundRecord(1, Outcome.WIN, 1, Colour.BLUE),)),
        ),
    )

    with pytest.raises(InvalidSettings) as refused:
        services.tournament_import_trf(trf=trf, organiser=organiser, now=NOW)

    assert refused.value.code == "trf_invalid"
    assert not Tournament.objects.filter(name="Disputed Cup").exists()
