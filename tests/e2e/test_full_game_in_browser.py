"""A whole game in a real browser, as two people would play it.

Two people sign up (following the confirmation link of their email, read from the outbox),
one challenges the other, who accepts; they play to the end by clicking a demand cell, a
tile, and Confirm (one move by keyboard only), while the other's open page shows each move
in place, without reloading. Once, the waiting player queues a conditional move and sees it
played. Both see the result. Screenshots of the board (desktop and a 390 px phone) are kept in
``var/e2e/`` (ignored by git), or in ``$E2E_ARTIFACTS``.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from games import selectors
from games.models import Game, Move
from notifications.models import OutboxEmail
from tests.e2e.test_play_in_browser import ARGS, CHROMIUM, needs_chromium

ARTIFACTS = Path(os.environ.get("E2E_ARTIFACTS", settings.BASE_DIR / "var" / "e2e"))
PASSWORD = "a-long-Pass-phrase-9"
LIVE_PERIOD_MS = 700  # the pages poll every ~12 s; the test need not wait that long
SEED = 7

pytestmark = [
    pytest.mark.e2e,
    needs_chromium,  # in CI a missing Chromium stops the run (tests/e2e/conftest.py)
]
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")


@pytest.fixture(autouse=True)
def _allow_sync_orm_next_to_playwright(monkeypatch):
    """Playwright's sync API runs an event loop; Django then refuses ORM calls unless told."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def browser():
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()


def new_page(browser, width: int = 1200, height: int = 900):
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(f"window.celticLivePeriodMs = {LIVE_PERIOD_MS};")
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def sign_up(page, base: str, username: str) -> None:
    """Sign up, then follow the confirmation link of the email waiting in the outbox."""
    page.goto(base + reverse("accounts:signup"))
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.org")
    page.fill("input[name=password]", PASSWORD)
    page.fill("input[name=password_confirm]", PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_url(base + reverse("accounts:signup_sent"))

    email = OutboxEmail.objects.get(recipient__username=username)
    link = re.search(r"/accounts/signup/confirm/\S+/", email.body_text).group(0)
    page.goto(base + link)
    page.get_by_role("button", name="Confirm and log in").click()
    page.wait_for_url(base + reverse("games:home"))
    assert f"Welcome, {username}!" in page.locator(".messages").text_content()


def play_by_clicking(page, game: Game, notation: str) -> None:
    """Click the cell, the tile, see it previewed on the board, and confirm."""
    cell = notation.split()[0]
    page.locator(f'.board .demand.playable[data-cell="{cell}"]').click()
    page.locator(f'#palette .tile-choice[data-notation="{notation}"]').click()
    assert page.locator(f'.board .preview[data-cell="{cell}"]').count() == 1
    assert page.locator("#confirm-move").text_content() == notation
    with page.expect_navigation():
        page.get_by_role("button", name="Confirm").click()


def play_by_keyboard(page, notation: str) -> None:
    """Tab to the board, arrow to the cell, Enter on it, arrow to the tile, Enter twice."""
    cell = notation.split()[0]
    cells = page.locator(".board .demand.playable")
    cells.first.focus()
    for _ in range(12):
        if page.evaluate("document.activeElement.getAttribute('data-cell')") == cell:
            break
        page.keyboard.press("ArrowRight" if _ < 6 else "ArrowLeft")
    else:
        page.locator(f'.board .demand.playable[data-cell="{cell}"]').focus()
    assert page.evaluate("document.activeElement.getAttribute('data-cell')") == cell
    page.keyboard.press("Enter")
    for _ in range(40):
        if page.evaluate("document.activeElement.dataset.notation") == notation:
            break
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    assert page.locator(f'.board .preview[data-cell="{cell}"]').count() == 1
    assert page.evaluate("document.activeElement.id") == "confirm-play"
    with page.expect_navigation():
        page.keyboard.press("Enter")


def test_two_people_sign_up_and_play_a_whole_game(live_server, browser, transactional_db):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    base = live_server.url
    ann, ben = new_page(browser), new_page(browser)
    sign_up(ann, base, "ann")
    sign_up(ben, base, "ben")

    # ann challenges ben, playing Orange; ben accepts from his home page.
    ann.goto(base + reverse("games:challenges"))
    ann.fill("input[name=opponent]", "ben")
    ann.select_option("select[name=seat]", "1")  # seat 1: Orange
    ann.get_by_role("button", name="Send challenge").click()
    assert "Challenge sent to ben." in ann.locator(".messages").text_content()
    ann.goto(base + reverse("games:home"))
    mark(ann)
    ben.goto(base + reverse("games:home"))
    ben.get_by_role("button", name="Accept").click()
    game = Game.objects.get()
    ben.wait_for_url(base + reverse("games:game", args=[game.pk]))
    assert [user.username for user in game.seat_users()] == ["ann", "ben"]

    # ann's "your games" shows the new game waiting for her, in place, and says so in the tab.
    ann.wait_for_selector(f'#live[data-signature="{game.pk}:0"]', state="attached")
    assert ann.evaluate("window.celticNotReloaded") is True
    assert ann.title().startswith("● Your turn — Your games")
    announced = ann.locator("body > p[role=status]").text_content()
    assert announced == "Your opponent has moved: it is your turn."
    assert ann.locator(f'#turn-h ~ * a[href="/games/{game.pk}/"]').count() >= 1

    pages = {1: ann, 2: ben}  # by seat
    url = base + reverse("games:game", args=[game.pk])
    ann.goto(url)
    for page in pages.values():
        mark(page)
    rng = random.Random(SEED)
    conditional_done = keyboard_done = False
    for _ in range(60):
        game.refresh_from_db()
        if not game.is_active:
            break
        mover, waiter = pages[game.seat_to_move], pages[3 - game.seat_to_move]
        # The mover's page noticed the opponent's move by itself, and says so in the title.
        mover.wait_for_selector(f'#live[data-ply="{game.ply}"]', state="attached")
        assert mover.title().startswith("● Your turn — ")
        assert mover.evaluate("window.celticNotReloaded") is True, "the page was reloaded"
        state = selectors.game_position(game=game).engine
        notation = str(rng.choice(sorted(state.legal_moves(), key=str)))

        if not conditional_done and game.ply >= 2:
            reply = queue_a_reply(waiter, state, notation)
            mark(waiter)
            conditional_done = True
            play_by_clicking(mover, game, notation)
            mark(mover)
            queued = f"Your opponent had queued a reply: {reply} was played at once."
            assert queued in mover.locator(".messages").text_content()
            last_two = Move.objects.filter(game=game).order_by("-ply")[:2]
            assert [(m.ply, m.notation) for m in reversed(last_two)] == [
                (game.ply, notation),
                (game.ply + 1, reply),
            ]
            continue
        if game.ply == 4:
            screenshots(mover, browser, url, notation)
        if not keyboard_done and game.seat_to_move == 2:
            play_by_keyboard(mover, notation)
            keyboard_done = True
        else:
            play_by_clicking(mover, game, notation)
        assert f"You played {notation}." in mover.locator(".messages").text_content()
        mark(mover)
    else:
        raise AssertionError("the game did not end within 60 turns")

    assert conditional_done and keyboard_done
    assert game.status == Game.Status.FINISHED and game.result
    ending = selectors.termination_text(game=game)
    for page in (ann, ben):
        # Each page shows the end by itself: the last mover's after the move, the other's
        # when its poll finds the game over and reloads (a goto now would race that reload).
        page.wait_for_selector(".status-line .ending", timeout=15_000)
        page.wait_for_load_state()
        assert page.locator(".status-line .ending").text_content().strip() == ending
        assert page.locator("#move-form").count() == 0
    ann.screenshot(path=str(ARTIFACTS / "game-finished-desktop.png"), full_page=True)
    ann.locator(".board-frame").screenshot(path=str(ARTIFACTS / "board-finished.png"))


def mark(page) -> None:
    """Mark the loaded document: the mark survives the opponent's move only if the page
    shows it in place rather than reloading."""
    page.evaluate("window.celticNotReloaded = true")


def queue_a_reply(page, state, their_move: str) -> str:
    """On the waiting player's page, queue "if they play ``their_move``, I play ..."."""
    after = state.clone()
    after.apply(their_move)
    reply = str(sorted(after.legal_moves(), key=str)[0])
    page.fill("#conditional-moves", f"{their_move}, {reply}")
    page.get_by_role("button", name="Queue").click()
    assert f"Queued: if they play {their_move}, you play {reply}." in (
        page.locator(".messages").text_content()
    )
    assert page.locator(".conditional-lines li").count() == 1
    page.locator("#conditional").screenshot(path=str(ARTIFACTS / "conditional-queued.png"))
    return reply


def screenshots(page, browser, url: str, notation: str) -> None:
    """The board with a move previewed, on a desktop and on a 390 px phone."""
    cell = notation.split()[0]
    page.locator(f'.board .demand.playable[data-cell="{cell}"]').click()
    page.locator(f'#palette .tile-choice[data-notation="{notation}"]').click()
    page.screenshot(path=str(ARTIFACTS / "game-preview-desktop.png"), full_page=True)
    page.get_by_role("button", name="Cancel").click()
    assert page.locator(".board .preview").count() == 0
    assert page.locator("#confirm-bar").is_hidden()

    phone = page.context.new_page()
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto(url)
    phone.locator(f'.board .demand.playable[data-cell="{cell}"]').click()
    phone.locator(f'#palette .tile-choice[data-notation="{notation}"]').click()
    width = phone.evaluate("document.documentElement.scrollWidth")
    phone.screenshot(path=str(ARTIFACTS / "game-preview-390.png"), full_page=True)
    assert width <= 390, f"the game page is {width} px wide on a 390 px phone"
    phone.close()
