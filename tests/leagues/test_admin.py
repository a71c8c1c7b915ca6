"""The leagues admin: every list opens; the season action does what the clock says."""

from __future__ import annotations

import pytest
from django.urls import reverse

from leagues import services
from leagues.models import Season
from tests.accounts.factories import make_superuser, make_user
from tests.leagues.conftest import DAY, T0
from tests.leagues.test_pages import login

pytestmark = pytest.mark.django_db


def test_lists_open_and_the_advance_action_starts_a_due_season(organiser, clock):
    league = services.league_create(
        organiser=organiser, name="Admin League", first_registration_opens_at=T0
    )
    season = league.seasons.get()
    for name in ("x1", "x2", "x3"):
        services.season_register(season_id=season.pk, user=make_user(name))
    root = make_superuser()
    client = login(root)
    for model in ("league", "season", "division", "membership"):
        assert client.get(reverse(f"admin:leagues_{model}_changelist")).status_code == 200
    assert client.get(reverse("admin:leagues_season_change", args=[season.pk])).status_code == 200
    clock(T0 + 14 * DAY)
    client = login(root)  # a fresh session: the first one expired after two weeks
    answer = client.post(
        reverse("admin:leagues_season_changelist"),
        {"action": "advance", "_selected_action": [season.pk]},
        follow=True,
    )
    assert answer.status_code == 200
    assert [str(m) for m in answer.context["messages"]] == [f"{season}: {{'started': True}}"]
    assert Season.objects.get(pk=season.pk).status == "running"
    assert Season.objects.get(pk=season.pk).divisions.count() == 1
