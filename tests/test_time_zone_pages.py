"""Pages show times in the logged-in player's own time zone; the API stays in UTC."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from games import services
from tests.accounts.factories import make_user

pytestmark = pytest.mark.django_db

# A Monday in New Zealand summer time (UTC+13): 09:00 UTC is 22:00 in Auckland.
T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


@pytest.fixture
def game():
    kiri = make_user("kiri", time_zone="Pacific/Auckland")
    lou = make_user("lou", time_zone="America/Los_Angeles")
    with time_machine.travel(T0, tick=False):
        return services.game_start(players=[kiri, lou])  # deadline 8 Jan 09:00 UTC


def page_for(username: str | None, game) -> str:
    client = Client()
    if username is not None:
        client.force_login(game.user_at(1 if username == "kiri" else 2))
    return client.get(reverse("games:game", args=[game.pk])).content.decode()


@pytest.mark.parametrize(
    ("viewer", "deadline_text"),
    [
        ("kiri", "Thu 8 Jan 2026, 22:00 NZDT"),
        ("lou", "Thu 8 Jan 2026, 01:00 PST"),
        (None, "Thu 8 Jan 2026, 09:00 UTC"),
    ],
)
def test_the_deadline_reads_in_the_viewers_zone(game, viewer, deadline_text) -> None:
    assert deadline_text in page_for(viewer, game)


def test_the_api_answers_in_utc_whoever_is_logged_in(game) -> None:
    client = Client()
    client.force_login(game.user_at(1))
    data = client.get(reverse("games-api:game-detail", args=[game.pk])).json()
    assert data["deadline"] == "2026-01-08T09:00:00Z"


def test_a_zone_the_host_no_longer_knows_falls_back_to_utc(game) -> None:
    profile = game.user_at(1).profile
    profile.time_zone = "Mars/Olympus_Mons"
    profile.save(update_fields=["time_zone"])  # bypasses validation, like a stale zone would
    assert "Thu 8 Jan 2026, 09:00 UTC" in page_for("kiri", game)
