"""The league pages on a 390 px wide phone: nothing wider than the screen but the tables,
which scroll inside their cards."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command
from django.utils import timezone

from leagues.management.commands.seed_demo_leagues import seed_league
from tests.e2e.test_play_in_browser import ARGS, CHROMIUM, SCREENSHOT_DIR, needs_chromium, sync_api

pytestmark = [
    pytest.mark.e2e,
    needs_chromium,
]


@pytest.fixture(autouse=True)
def _allow_sync_orm_next_to_playwright(monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def test_league_pages_fit_a_phone(live_server, transactional_db):
    call_command("seed_demo", verbosity=0)
    league = seed_league(now=timezone.now(), rng=random.Random(3))
    first, second = league.seasons.order_by("number")
    urls = {
        "list": "/leagues/",
        "league": f"/leagues/{league.pk}/",
        "season1": f"/leagues/seasons/{first.pk}/",
        "season2": f"/leagues/seasons/{second.pk}/",
        "history": f"/leagues/{league.pk}/history/",
    }
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(viewport={"width": 390, "height": 844})
        try:
            for name, url in urls.items():
                page.goto(live_server.url + url)
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= 390, f"{url} is {width} px wide"
                page.screenshot(
                    path=str(SCREENSHOT_DIR / f"celtic-league-{name}-390.png"), full_page=True
                )
        finally:
            browser.close()
