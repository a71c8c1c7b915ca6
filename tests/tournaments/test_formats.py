"""Every format has its format object, installed in ``TournamentsConfig.ready()``, and the
services ask it rather than comparing the format."""

from __future__ import annotations

import pytest

from tournaments.errors import InvalidSettings
from tournaments.models import Bye, Tournament
from tournaments.plugins import tournament_format_for, tournament_format_lookup
from tournaments.services.formats.base import TournamentFormat


@pytest.mark.parametrize("code", Tournament.Format.values)
def test_every_format_has_its_format_object(code: str) -> None:
    handler = tournament_format_for(format=code)

    assert isinstance(handler, TournamentFormat)
    assert handler.code == code
    assert handler.pairing_installed()


def test_what_each_format_answers() -> None:
    round_robin, knockout, swiss = (
        tournament_format_for(format=code) for code in ("round_robin", "knockout", "swiss")
    )

    assert (round_robin.bye_kind, knockout.bye_kind, swiss.bye_kind) == (
        Bye.Kind.ZERO,
        Bye.Kind.PAIRING,
        Bye.Kind.PAIRING,
    )
    assert [f.independent_rounds for f in (round_robin, knockout, swiss)] == [True, False, False]
    assert [f.pairs_by_hand for f in (round_robin, knockout, swiss)] == [True, False, True]
    assert [f.takes_byes_ahead for f in (round_robin, knockout, swiss)] == [False, False, True]
    assert [f.has_sections for f in (round_robin, knockout, swiss)] == [True, False, False]


def test_an_unknown_format_is_named() -> None:
    assert tournament_format_lookup(format="scheveningen") is None
    with pytest.raises(InvalidSettings) as refused:
        tournament_format_for(format="scheveningen")

    assert refused.value.code == "unknown_format"
    assert "knockout, round_robin, swiss" in refused.value.detail
