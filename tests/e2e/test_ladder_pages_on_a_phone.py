"""The ladder pages on a 390 px wide phone, for a visitor and for a player who sees the
challenge buttons: nothing wider than the screen but the table, which scrolls in its card."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from ladders.management.commands.seed_demo_ladders import seed_ladder
from tests.e2e.test_play_in_browser import ARGS, CHROMIUM, SCREENSHOT_DIR, needs_chromium, sync_api

pytestmark = [
    pytest.mark.e2e,
    needs_chromium,
]


@pytest.fixture(autouse=True)
def _allow_sync_orm_next_to_playwright(monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def test_ladder_pages_fit_a_phone(live_server, transactional_db):
    call_command("seed_demo_tournaments", verbosity=0)
    ladder = seed_ladder(now=timezone.now())
    eoin = ladder.players.get(player__username="eoin").player  # place 3: two places to challenge
    client = Client()
    client.force_login(eoin)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    urls = {"list": "/ladders/", "ladder": f"/ladders/{ladder.pk}/"}
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            for who in ("visitor", "player"):
                context = browser.new_context(viewport={"width": 390, "height": 844})
                if who == "player":
                    context.add_cookies(
                        [
                            {
                                "name": settings.SESSION_COOKIE_NAME,
                                "value": session,
                                "url": live_server.url,
                            }
                        ]
                    )
                page = context.new_page()
                for name, url in urls.items():
                    page.goto(live_server.url + url)
                    width = page.evaluate("document.documentElement.scrollWidth")
                    assert width <= 390, f"{url} is {width} px wide for the {who}"
                    page.screenshot(
                        path=str(SCREENSHOT_DIR / f"celtic-ladder-{name}-{who}-390.png"),
                        full_page=True,
                    )
                buttons = page.get_by_role("button", name="Challenge").count()
                assert buttons == (2 if who == "player" else 0)
                context.close()
        finally:
            browser.close()
