"""The data migrations that repair tie-break lists stored before repeated codes were refused:
each code is kept once, at its first place; lists without repeats are left as they are."""

from __future__ import annotations

from datetime import UTC, datetime
from importlib import import_module

import pytest
from django.apps import apps

from leagues import services as league_services
from leagues.models import League
from tests.accounts.factories import make_user
from tests.leagues.conftest import grant as grant_league
from tests.tournaments.conftest import grant
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _repair(app: str) -> None:
    module = import_module(f"{app}.migrations.0002_tiebreaks_once_each")
    module.tiebreaks_once_each(apps, None)


def test_a_tournament_keeps_the_first_of_each_repeated_tiebreak():
    organiser = grant(make_user("orga"), "organise_tournament")
    broken = services.tournament_create(organiser=organiser, name="Broken")
    sound = services.tournament_create(organiser=organiser, name="Sound", tiebreaks=["de", "sb"])
    Tournament.objects.filter(pk=broken.pk).update(tiebreaks=["bh", "sb", "bh", "win", "sb"])

    _repair("tournaments")

    assert Tournament.objects.get(pk=broken.pk).tiebreaks == ["bh", "sb", "win"]
    assert Tournament.objects.get(pk=sound.pk).tiebreaks == ["de", "sb"]


def test_a_league_keeps_the_first_of_each_repeated_tiebreak():
    organiser = grant_league(
        grant(make_user("leagueorg"), "organise_tournament"), "organise_league"
    )
    league = league_services.league_create(
        organiser=organiser,
        name="Club League",
        first_registration_opens_at=datetime(2026, 3, 2, tzinfo=UTC),
    )
    League.objects.filter(pk=league.pk).update(tiebreaks=["sb"] * 500 + ["de"])

    _repair("leagues")

    assert League.objects.get(pk=league.pk).tiebreaks == ["sb", "de"]
