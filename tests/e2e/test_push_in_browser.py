"""Web Push in Chromium, as close as this machine honestly gets.

What runs for real: the page registers the service worker (/sw.js) and asks for a
subscription through Chromium's Push API; the server's own payload for a "your turn" push
(``notifications.push.push_payload`` of a queued outbox row) is handed to that service
worker through DevTools' ``ServiceWorker.deliverPushMessage``, which fires the same ``push``
event a push service's message does; the worker shows the notification, read back with
``registration.getNotifications()``.

What it does not cover: a real push service. Headless Chromium refuses
``pushManager.subscribe`` ("Registration failed - permission denied", even with the
notification permission granted), and a headed one would ask Google's (FCM) for an endpoint,
which this machine cannot reach; so no subscription is kept, and the page says why (checked
below). The encrypted delivery to an endpoint, VAPID included, is covered server side by
tests/notifications/test_web_push.py against a local stand-in for a push service.
Clicking the notification (which opens the game) needs a desktop's notification centre,
which headless Chromium has not.
"""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.models import PushDevice
from games import services
from notifications.email_context import context_dump
from notifications.events import _turn_notice
from notifications.management.commands.vapid_keys import vapid_pair
from notifications.models import OutboxPush
from notifications.push import push_payload
from tests.e2e.test_play_in_browser import ARGS, CHROMIUM, SCREENSHOT_DIR, needs_chromium

pytestmark = [pytest.mark.e2e, needs_chromium]
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")


@pytest.fixture(autouse=True)
def _allow_sync_orm_next_to_playwright(monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def test_the_service_worker_shows_the_servers_push(live_server, transactional_db, settings):
    keys = vapid_pair()
    settings.WEBPUSH_VAPID_PUBLIC_KEY, settings.WEBPUSH_VAPID_PRIVATE_KEY = (
        keys["public"],
        keys["private"],
    )
    users = get_user_model().objects
    ann = users.create_user(username="ann", password="pw-for-tests-1")
    ben = users.create_user(username="ben", password="pw-for-tests-1")
    game = services.game_start(players=[ann, ben])
    turn = _turn_notice(game)  # what the move queues for the player to move, as a push row
    row = OutboxPush(recipient=ann, event=turn.event, game=game, context=context_dump(turn.context))
    payload = push_payload(row)

    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.grant_permissions(["notifications"], origin=live_server.url)
        page = context.new_page()
        page.goto(live_server.url + reverse("accounts:login"))
        page.fill("input[name=username]", "ann")
        page.fill("input[name=password]", "pw-for-tests-1")
        page.locator("main form button[type=submit], main form input[type=submit]").first.click()
        page.wait_for_url(live_server.url + reverse("games:home"))
        page.goto(live_server.url + reverse("accounts:profile"))

        scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
        assert scope == live_server.url + "/"
        page.get_by_role("button", name="Turn on notifications on this device").click()
        note = page.locator("#push-note")
        note.filter(has_text="Could not turn notifications on").wait_for(timeout=20000)
        page.screenshot(path=str(SCREENSHOT_DIR / "celtic-e2e-push-profile.png"), full_page=True)
        assert not PushDevice.objects.exists()  # no push service reachable: nothing kept

        cdp = context.new_cdp_session(page)
        registrations = []
        cdp.on(
            "ServiceWorker.workerRegistrationUpdated",
            lambda e: registrations.extend(e["registrations"]),
        )
        cdp.send("ServiceWorker.enable")
        page.wait_for_timeout(500)
        (registration,) = [r for r in registrations if not r["isDeleted"]]
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {
                "origin": live_server.url,
                "registrationId": registration["registrationId"],
                "data": json.dumps(payload),
            },
        )
        shown = page.evaluate(
            """() => navigator.serviceWorker.ready.then(async (r) => {
                 for (let i = 0; i < 50; i++) {
                   const found = await r.getNotifications();
                   if (found.length) {
                     return found.map(n => ({title: n.title, body: n.body, url: n.data.url}));
                   }
                   await new Promise(done => setTimeout(done, 100));
                 }
                 return [];
               })"""
        )
        browser.close()

    assert shown == [
        {
            "title": f"Your move against ben (game #{game.pk})",
            "body": "Your turn",
            "url": payload["url"],
        }
    ]
