"""The tournament pages in a real browser at a phone's width: nothing wider than the screen
(wide tables scroll inside their cards), and registering with an entry code by clicking."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission, User
from django.urls import reverse

from tests.e2e.test_play_in_browser import ARGS, CHROMIUM, SCREENSHOT_DIR, needs_chromium
from tournaments import services
from tournaments.models import Entry

pytestmark = [
    pytest.mark.e2e,
    needs_chromium,
]
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")
PHONE = {"width": 390, "height": 844}


@pytest.fixture(autouse=True)
def _allow_sync_orm_next_to_playwright(monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def phone():
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser.new_page(viewport=PHONE)
        browser.close()


def log_in(page, base: str, username: str) -> None:
    page.goto(base + reverse("accounts:login"))
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "pw-for-tests-1")
    page.locator("main form button[type=submit], main form input[type=submit]").first.click()
    page.wait_for_url(base + reverse("games:home"))


def test_the_pages_fit_a_phone_and_registering_works(live_server, phone, transactional_db):
    users = [
        User.objects.create_user(
            username=name, email=f"{name}@example.org", password="pw-for-tests-1"
        )
        for name in ("orga", "ann", "ben", "cai", "dee", "eve")
    ]
    orga = users[0]
    orga.user_permissions.add(Permission.objects.get(codename="organise_tournament"))
    orga = User.objects.get(pk=orga.pk)
    running = services.tournament_create(
        organiser=orga,
        name="A rather long tournament name, Winter 2026",
        tiebreaks=["de", "sb", "win", "bh"],
    )
    services.tournament_registration_open(tournament_id=running.pk, actor=orga)
    for user in users[1:5]:
        services.tournament_register(tournament_id=running.pk, user=user)
    services.tournament_start(tournament_id=running.pk, actor=orga)
    coded = services.tournament_create(organiser=orga, name="Open with a code", entry_code="knot")
    services.tournament_registration_open(tournament_id=coded.pk, actor=orga)

    page, base = phone, live_server.url
    log_in(page, base, "orga")
    for path in (
        reverse("tournaments:list"),
        reverse("tournaments:detail", args=[running.pk]),
        reverse("tournaments:manage", args=[running.pk]),
        reverse("tournaments:create"),
    ):
        page.goto(base + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
    page.goto(base + reverse("tournaments:detail", args=[running.pk]))
    page.screenshot(path=str(SCREENSHOT_DIR / "celtic-e2e-tournament-phone.png"), full_page=True)
    standings = page.locator(".standings").first
    assert standings.locator("tbody tr").count() == 4

    page.context.clear_cookies()
    log_in(page, base, "eve")
    page.goto(base + reverse("tournaments:detail", args=[coded.pk]))
    page.fill("input[name=entry_code]", "knot")
    page.get_by_role("button", name="Register").click()
    page.wait_for_selector(".messages")
    assert "You are registered in Open with a code." in page.locator(".messages").text_content()
    assert Entry.objects.get(tournament=coded).player.username == "eve"
