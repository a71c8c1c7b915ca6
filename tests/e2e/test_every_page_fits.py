"""Every page of the site in a real browser: none wider than a 390 px phone, no serious or
critical accessibility violation (axe-core), and a screenshot of each at phone and desktop
width in ``E2E_SCREENSHOT_DIR`` (default ``var/e2e-screenshots``, ignored by git)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.urls import reverse

from games import selectors as games_selectors
from games import services as games
from tests.accounts.factories import make_moderator
from tests.e2e.test_play_in_browser import ARGS, CHROMIUM, needs_chromium
from tournaments import services as tournaments

pytestmark = [
    pytest.mark.e2e,
    needs_chromium,
]
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")
axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
SHOTS = Path(os.environ.get("E2E_SCREENSHOT_DIR", "var/e2e-screenshots"))
PASSWORD = "pw-for-tests-1"


@pytest.fixture(autouse=True)
def _allow_sync_orm_next_to_playwright(monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def browser():
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()


def site(transactional_db) -> dict[str, str]:
    """A small but lived-in site: games in every state, a challenge, an event, a rating."""
    users = get_user_model().objects
    ann = users.create_user(username="ann", email="ann@example.org", password=PASSWORD)
    ben = users.create_user(username="ben_with_a_rather_long_username", password=PASSWORD)
    cai = users.create_user(username="cai", email="cai@example.org", password=PASSWORD)
    ann.user_permissions.add(Permission.objects.get(codename="organise_tournament"))
    ann = users.get(pk=ann.pk)
    moderator = make_moderator()
    active = games.game_start(players=[ann, ben])
    for notation in ("f5 SW n", "e4 NSW n", "e3 NW", "d3 NE"):
        games.move_submit(
            game_id=active.pk,
            user=ann if active.ply % 2 == 0 else ben,
            expected_ply=active.ply,
            notation=notation,
        )
        active.refresh_from_db()
    dan = users.create_user(username="dan", password=PASSWORD)
    knot_waiting = games.game_start(players=[ben, cai, ann, dan], kind="knot")
    _play_turn(knot_waiting, ben)  # ann waits for her opponents in it
    knot_to_play = games.game_start(players=[ann, ben, cai, dan], kind="knot")  # her turn
    resigned = games.game_start(players=[ben, ann])
    games.game_resign(game_id=resigned.pk, user=ben)
    annulled = games.game_start(players=[cai, ann])
    games.game_annul(game_id=annulled.pk, actor=moderator, reason="Played twice by mistake")
    games.challenge_create(challenger=cai, message="A friendly game? Three days a move.")
    games.challenge_create(challenger=ben, opponent=ann)
    knot = games.challenge_create(challenger=cai, invited=[ann, ben], kind="knot")
    games.challenge_accept(challenge_id=knot.pk, user=ben)  # ann's rows: one accepted, she not
    event = tournaments.tournament_create(organiser=ann, name="Winter knots, a long name 2026")
    tournaments.tournament_registration_open(tournament_id=event.pk, actor=ann)
    for user in (ann, ben, cai):
        tournaments.tournament_register(tournament_id=event.pk, user=user)
    return {
        "home": reverse("games:home"),
        "challenges": reverse("games:challenges"),
        "live": reverse("games:live"),
        "game": reverse("games:game", args=[active.pk]),
        "game-resigned": reverse("games:game", args=[resigned.pk]),
        "game-annulled": reverse("games:game", args=[annulled.pk]),
        "game-knot": reverse("games:game", args=[knot_waiting.pk]),
        "game-knot-to-play": reverse("games:game", args=[knot_to_play.pk]),
        "analysis": reverse("games:game_analysis", args=[active.pk]) + "?line=d4 ES,d5 E",
        "rules": reverse("learn:rules"),
        "rules-knot": reverse("learn:knot_rules"),
        "puzzles": reverse("learn:puzzles"),
        "players": reverse("players:search") + "?q=a",
        "player": reverse("players:detail", args=["ann"]),
        "player-long": reverse("players:detail", args=[ben.username]),
        "ranking": reverse("rankings:list"),
        "tournaments": reverse("tournaments:list"),
        "tournament": reverse("tournaments:detail", args=[event.pk]),
        "profile": reverse("accounts:profile"),
    }


def _play_turn(game, user) -> None:
    """Play ``user``'s whole turn of a Celtic Knot game, the first legal choice each time."""
    game.refresh_from_db()
    while game.is_active and game.user_to_move() == user:
        choice = games_selectors.game_position(game=game).legal_choices()[0]
        games.move_submit(game_id=game.pk, user=user, expected_ply=game.ply, notation=choice)
        game.refresh_from_db()


GUEST_PAGES = {
    "login": "accounts:login",
    "signup": "accounts:signup",
    "password-reset": "accounts:password_reset",
    "rules-guest": "learn:rules",
    "home-guest": "games:home",
}


def log_in(page, base: str) -> None:
    page.goto(base + reverse("accounts:login"))
    page.fill("input[name=username]", "ann")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit], main form input[type=submit]").first.click()
    page.wait_for_url(base + reverse("games:home"))


WIDEST = """() => Array.from(document.querySelectorAll('body *'))
  .filter(el => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
  .filter(el => !el.closest('.table-scroll'))
  .slice(-3)
  .map(el => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`)"""
"""The deepest elements that stick out of the screen, to say what to fix."""


def too_wide_on_phone(page) -> list[str] | None:
    """None when the page fits the phone's width, else what sticks out."""
    if page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]:
        return None
    return page.evaluate(WIDEST)


def serious_violations(page) -> list[str]:
    results = axe_playwright.Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def visit(page, url: str, name: str, viewport: dict[str, int]) -> None:
    page.set_viewport_size(viewport)
    response = page.goto(url)
    assert response is not None and response.status == 200, (name, response and response.status)
    kind = "phone" if viewport is PHONE else "desktop"
    page.screenshot(path=str(SHOTS / f"{name}-{kind}.png"), full_page=True)


def test_every_page_fits_a_phone_and_passes_axe(live_server, browser, transactional_db):
    SHOTS.mkdir(parents=True, exist_ok=True)
    pages = site(transactional_db)
    base = live_server.url
    page = browser.new_page(viewport=PHONE)
    too_wide, problems = {}, {}

    for name, view in GUEST_PAGES.items():
        visit(page, base + reverse(view), name, PHONE)
        if (sticking_out := too_wide_on_phone(page)) is not None:
            too_wide[name] = sticking_out
        problems[name] = serious_violations(page)
        visit(page, base + reverse(view), name, DESKTOP)

    log_in(page, base)
    for name, path in pages.items():
        visit(page, base + path, name, PHONE)
        if (sticking_out := too_wide_on_phone(page)) is not None:
            too_wide[name] = sticking_out
        problems[name] = serious_violations(page)
        visit(page, base + path, name, DESKTOP)

    found = {name: listed for name, listed in problems.items() if listed}
    (SHOTS / "axe-violations.json").write_text(json.dumps(found, indent=1))
    assert too_wide == {}
    assert found == {}, "see axe-violations.json next to the screenshots"


def test_a_puzzle_tile_is_checked_as_it_is_laid(live_server, browser, transactional_db):
    page = browser.new_page(viewport=PHONE)
    page.goto(live_server.url + reverse("learn:puzzles"))
    easy = page.locator("#puzzle-easy")
    status = easy.locator(".puzzle-status")

    easy.locator(".puzzle-cell").nth(0).click()
    easy.locator(".picker-tile[title=NE]").click()
    sync_api.expect(status).to_have_text("Row 1, column 1 is open on the border (north).")
    assert easy.locator(".puzzle-cell").nth(0).inner_html() == ""

    easy.locator(".picker-tile[title=E]").click()
    sync_api.expect(status).to_have_text("1 of 25 tiles placed, all fitting.")
    assert easy.locator(".puzzle-cell").nth(0).get_attribute("aria-label") == "Row 1, column 1: E"
    # The next empty cell is chosen for the next tile.
    sync_api.expect(easy.locator(".puzzle-cell.selected")).to_have_attribute("data-index", "1")
    easy.locator(".picker-tile[title=EW]").click()
    sync_api.expect(status).to_have_text("2 of 25 tiles placed, all fitting.")
    left = easy.locator(".puzzle-left")
    assert left.locator("[data-shape=U] strong").inner_text() == "4"
    assert left.locator("[data-shape=I] strong").inner_text() == "4"
    assert left.locator("[data-shape=X] strong").inner_text() == "5"
    easy.locator(".solution summary").click()
    sync_api.expect(easy.locator(".solution .board")).to_be_visible()
    page.screenshot(path=str(SHOTS / "puzzle-played-phone.png"), full_page=True)
