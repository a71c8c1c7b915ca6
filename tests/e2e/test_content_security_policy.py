"""The pages work under the Content-Security-Policy: a real browser reports no violation."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.urls import reverse

from games import services
from tests.e2e.test_play_in_browser import (  # noqa: F401  (fixtures)
    _allow_sync_orm_next_to_playwright,
    browser_page,
    pytestmark,
)


def _collect_violations(page) -> list[str]:
    violations: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return violations


def test_api_docs_render_under_the_policy(live_server, browser_page):  # noqa: F811
    page = browser_page
    violations = _collect_violations(page)

    response = page.goto(live_server.url + reverse("api-docs"))
    page.wait_for_selector(".swagger-ui .info .title")

    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert "Celtic! correspondence API" in page.locator(".swagger-ui .info .title").text_content()
    assert page.locator(".swagger-ui .opblock").count() > 10
    assert violations == []


def test_game_and_login_pages_run_without_violations(
    live_server,
    browser_page,  # noqa: F811
    transactional_db,
):
    users = get_user_model().objects
    ann = users.create_user(username="ann", password="pw-for-tests-1")
    ben = users.create_user(username="ben", password="pw-for-tests-1")
    game = services.game_start(players=[ann, ben])
    page = browser_page
    violations = _collect_violations(page)

    page.goto(live_server.url + reverse("accounts:login"))
    page.fill("input[name=username]", "ann")
    page.fill("input[name=password]", "pw-for-tests-1")
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_url(live_server.url + reverse("games:home"))
    page.goto(live_server.url + reverse("games:game", args=[game.pk]))
    page.locator('.board .demand.playable[data-cell="f5"]').click()

    assert page.locator("#palette").is_visible()  # board.js ran
    assert violations == []
