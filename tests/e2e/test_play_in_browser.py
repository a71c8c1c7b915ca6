"""Play a move in a real browser: log in, click a demand cell, a tile and Confirm, see it
recorded; with confirmation turned off in the profile the tile is played at once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.models import Profile
from games import services
from games.models import Move

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: Skips a browser test where Debian's Chromium is missing (CI installs it, and there
#: tests/e2e/conftest.py stops the run instead of skipping).
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="needs Debian chromium at /usr/bin/chromium (apt-get install -y chromium)",
)
SCREENSHOT_DIR = Path(os.environ.get("E2E_SCREENSHOT_DIR", "/tmp"))

pytestmark = [
    pytest.mark.e2e,
    needs_chromium,
]
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")


@pytest.fixture(autouse=True)
def _allow_sync_orm_next_to_playwright(monkeypatch):
    """Playwright's sync API runs an event loop; Django then refuses ORM calls unless told."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def browser_page():
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        yield page
        browser.close()


def test_click_a_demand_cell_and_a_tile_to_play(live_server, browser_page, transactional_db):
    users = get_user_model().objects
    ann = users.create_user(username="ann", password="pw-for-tests-1")
    ben = users.create_user(username="ben", password="pw-for-tests-1")
    game = services.game_start(players=[ann, ben])
    page = browser_page

    page.goto(live_server.url + reverse("accounts:login"))
    page.fill("input[name=username]", "ann")
    page.fill("input[name=password]", "pw-for-tests-1")
    page.locator("main form button[type=submit], main form input[type=submit]").first.click()
    page.wait_for_url(live_server.url + reverse("games:home"))

    page.goto(live_server.url + reverse("games:game", args=[game.pk]))
    page.locator('.board .demand.playable[data-cell="f5"]').click()
    palette = page.locator("#palette")
    assert palette.is_visible()
    assert page.locator("#palette-cell").text_content() == "f5"
    page.screenshot(path=str(SCREENSHOT_DIR / "celtic-e2e-palette.png"), full_page=True)
    page.locator('#palette-own .tile-choice[title^="f5 W "]').click()
    # Shown on the board first; it is played once confirmed (the default profile option).
    assert page.locator('.board .preview[data-cell="f5"]').count() == 1
    assert Move.objects.filter(game=game).count() == 0
    page.get_by_role("button", name="Confirm").click()

    page.wait_for_selector('.board g.tile[data-cell="f5"]')
    assert "You played f5 W." in page.locator(".messages").text_content()
    page.screenshot(path=str(SCREENSHOT_DIR / "celtic-e2e-after-move.png"), full_page=True)
    row = Move.objects.get(game=game)
    assert (row.ply, row.seat, row.notation) == (0, 1, "f5 W")
    game.refresh_from_db()
    assert game.ply == 1 and game.seat_to_move == 2


def test_without_confirmation_a_tile_is_played_at_once(live_server, browser_page, transactional_db):
    users = get_user_model().objects
    ann = users.create_user(username="ann", password="pw-for-tests-1")
    ben = users.create_user(username="ben", password="pw-for-tests-1")
    Profile.objects.update_or_create(user=ann, defaults={"confirm_moves": False})
    game = services.game_start(players=[ann, ben])
    page = browser_page
    page.goto(live_server.url + reverse("accounts:login"))
    page.fill("input[name=username]", "ann")
    page.fill("input[name=password]", "pw-for-tests-1")
    page.locator("main form button[type=submit], main form input[type=submit]").first.click()
    page.wait_for_url(live_server.url + reverse("games:home"))

    page.goto(live_server.url + reverse("games:game", args=[game.pk]))
    page.locator('.board .demand.playable[data-cell="f5"]').click()
    page.locator('#palette-own .tile-choice[title^="f5 W "]').click()

    page.wait_for_selector('.board g.tile[data-cell="f5"]')
    assert "You played f5 W." in page.locator(".messages").text_content()
    assert Move.objects.get(game=game).notation == "f5 W"
