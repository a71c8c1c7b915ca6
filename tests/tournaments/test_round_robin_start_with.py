"""``tournament_round_robin_start_with``: a round robin of chosen players (a league's
division), started at once with every game at once, no registration."""

from __future__ import annotations

import pytest

from games.clock import ClockKind, TimeControl
from tournaments import services
from tournaments.errors import InvalidSettings
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

FIVE_DAYS = TimeControl(kind=ClockKind.PER_MOVE, days_per_move=5, weekends_off=True)


def test_every_game_starts_at_once_with_the_time_control_and_settings(organiser, players):
    tournament = services.tournament_round_robin_start_with(
        organiser=organiser,
        name="League · season 1 · Division 1",
        players=players[:5],
        time_control=FIVE_DAYS,
        tiebreaks=["sb"],
        rated=False,
    )
    tournament = Tournament.objects.get(pk=tournament.pk)
    assert (tournament.status, tournament.format, tournament.round_start_mode) == (
        "running",
        "round_robin",
        "all_at_once",
    )
    assert (tournament.rounds_planned, tournament.games.count()) == (5, 10)
    assert set(tournament.rounds.values_list("status", flat=True)) == {"running"}
    assert [e.player for e in tournament.entries.order_by("seed")] == players[:5]
    game = tournament.games.first().game
    assert (game.days_per_move, game.weekends_off, game.rated) == (5, True, False)


def test_bad_settings_are_refused_and_nothing_is_made(organiser, players):
    with pytest.raises(InvalidSettings) as refused:
        services.tournament_round_robin_start_with(
            organiser=organiser,
            name="Division",
            players=players[:3],
            time_control=FIVE_DAYS,
            tiebreaks=["nope"],
        )
    assert refused.value.extra["errors"] == {"tiebreaks": "Unknown tie-break(s): nope."}
    with pytest.raises(InvalidSettings) as unknown:
        services.tournament_round_robin_start_with(
            organiser=organiser,
            name="Division",
            players=players[:3],
            time_control=FIVE_DAYS,
            colour="green",
        )
    assert unknown.value.code == "unknown_setting"
    assert not Tournament.objects.exists()
