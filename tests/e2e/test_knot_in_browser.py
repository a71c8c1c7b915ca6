"""Celtic Knot in a real browser, at desktop and phone width: click a square holding your
coins, see the flips, click a highlighted destination (and again in an extra move) until the
turn passes. The page fits a 390 px phone, has no serious accessibility violation, and
screenshots of each step go to ``E2E_SCREENSHOT_DIR``."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games import services
from games.models import Game
from tests.e2e.test_every_page_fits import (
    DESKTOP,
    PASSWORD,
    PHONE,
    SHOTS,
    serious_violations,
    too_wide_on_phone,
)
from tests.e2e.test_play_in_browser import ARGS, CHROMIUM, needs_chromium
from tests.games.test_knot_page import SEED

pytestmark = [pytest.mark.e2e, needs_chromium]
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")

NAMES = ("ann", "ben", "cat", "dan")


@pytest.fixture(autouse=True)
def _allow_sync_orm_next_to_playwright(monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def browser():
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def game(transactional_db) -> Game:
    """A 4-seat game, ann (Red) to act, with the seed whose flips test_knot_page.py checks."""
    users = get_user_model().objects
    players = [users.create_user(username=name, password=PASSWORD) for name in NAMES]
    started = services.game_start(players=players, kind="knot")
    Game.objects.filter(pk=started.pk).update(chance_seed=SEED)
    return started


def signed_in_page(browser, base: str, username: str, viewport: dict[str, int]):
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(base + reverse("accounts:login"))
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_url(base + reverse("games:home"))
    return page


def click_spot(page, role: str, square: str) -> None:
    """Click the button laid over ``square`` on the board and wait for the new page."""
    with page.expect_navigation():
        page.locator(f'button.knot-spot.{role}[value="{square}"]').click()


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"knot-{name}.png"), full_page=True)


def test_play_turns_by_clicking_the_board_at_desktop_and_phone_width(
    live_server, browser, game
) -> None:
    url = live_server.url + reverse("games:game", args=[game.pk])

    # Desktop: Red clicks a1, flips H (1), moves onto a2 where the others' coins are, and the
    # extra move's flips T H (3) come at once; c3 is vacant, so the turn ends there.
    ann = signed_in_page(browser, live_server.url, "ann", DESKTOP)
    ann.goto(url)
    assert ann.locator("button.knot-spot.square").count() == 6
    shot(ann, "desktop-1-squares")
    click_spot(ann, "square", "a1")
    assert ann.locator(".knot-flips").inner_text() == (
        "You flipped H: 1, the stack on a1. Click a highlighted destination."
    )
    assert [b.get_attribute("value") for b in ann.locator("button.knot-spot").all()] == [
        "a2",
        "b1",
    ]
    shot(ann, "desktop-2-flips")
    click_spot(ann, "destination", "a2")
    assert (
        "You flipped T H: 3, the stack on a2 (an extra move)."
        in ann.locator(".knot-flips").inner_text()
    )
    shot(ann, "desktop-3-extra-move")
    click_spot(ann, "destination", "c3")
    assert ann.locator("button.knot-spot").count() == 0
    assert "Blue (ben) to move." in ann.locator(".status-line").inner_text()
    assert serious_violations(ann) == []

    # Phone: Blue plays b1 and then each destination offered first, until the turn passes.
    ben = signed_in_page(browser, live_server.url, "ben", PHONE)
    ben.goto(url)
    assert too_wide_on_phone(ben) is None
    shot(ben, "phone-1-squares")
    click_spot(ben, "square", "b1")
    assert ben.locator(".knot-flips").inner_text().startswith("You flipped ")
    assert too_wide_on_phone(ben) is None
    shot(ben, "phone-2-flips")
    for _ in range(10):  # a turn of KNOT-RULES.md's checks was never longer than 9 moves
        destinations = ben.locator("button.knot-spot.destination")
        if destinations.count() == 0:
            break
        click_spot(ben, "destination", destinations.first.get_attribute("value"))
    assert "Green (cat) to move." in ben.locator(".status-line").inner_text()
    assert serious_violations(ben) == []
    shot(ben, "phone-3-turn-passed")

    game.refresh_from_db()
    assert game.seat_to_move == 3
    assert [move.seat for move in game.moves.order_by("ply")][:3] == [1, 1, 1]


def test_the_finished_game_and_the_analysis_board_on_a_phone(live_server, browser, game) -> None:
    users = get_user_model().objects
    for quitter in ("ben", "cat", "dan"):
        services.game_resign(game_id=game.pk, user=users.get(username=quitter))
    page = signed_in_page(browser, live_server.url, "ben", PHONE)

    page.goto(live_server.url + reverse("games:game", args=[game.pk]))
    assert page.locator("#flip-seed").inner_text() == SEED
    page.get_by_text("How to check the flips").click()
    assert page.locator("#fair-flips-check pre").is_visible()
    assert too_wide_on_phone(page) is None
    assert serious_violations(page) == []
    shot(page, "phone-4-over")

    page.goto(live_server.url + reverse("games:game_analysis", args=[game.pk]))
    assert page.locator("a.knot-spot").count() == 0  # over: nothing to try
    assert "The game is over in this line." in page.locator("main").inner_text()


def test_the_analysis_board_tries_a_square_and_a_destination(live_server, browser, game) -> None:
    page = signed_in_page(browser, live_server.url, "cat", DESKTOP)
    page.goto(live_server.url + reverse("games:game_analysis", args=[game.pk]))
    with page.expect_navigation():
        page.locator("a.knot-spot.square").first.click()
    assert page.locator(".knot-flips").inner_text().startswith("Red flipped ")
    shot(page, "desktop-4-analysis")
    destination = page.locator("a.knot-spot.destination").first
    with page.expect_navigation():
        destination.click()
    assert page.locator(".analysis-line li").count() == 2
    assert serious_violations(page) == []
    page.set_viewport_size(PHONE)
    assert too_wide_on_phone(page) is None
