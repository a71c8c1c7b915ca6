"""Web Push, server side, against a local stand-in for a push service: a subscription made as
a browser makes one (an ECDH P-256 key pair and an auth secret), the event's push queued in
the outbox with the email, sent by the task with VAPID and decrypted here with the browser's
keys; 404/410 remove the device, other failures retry, switches and dedupe hold.

Not covered here: a real push service (FCM, Mozilla's, Apple's) — this machine has no route
to them; tests/e2e/test_push_in_browser.py shows the service worker displaying a push in
Chromium."""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.test import Client
from django.urls import reverse

from accounts.models import Profile, PushDevice
from accounts.selectors import profile_get
from games import selectors as game_selectors
from games import services as game_services
from notifications.management.commands.vapid_keys import vapid_pair
from notifications.models import OutboxPush
from notifications.push import outbox_push_send
from tests.accounts.factories import make_user

pytestmark = pytest.mark.django_db


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class PushServiceStandIn(BaseHTTPRequestHandler):
    """Answers each POST with the next status of ``statuses`` (201 when none is left) and
    keeps what it received."""

    received: list[dict[str, Any]]
    statuses: list[int]

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).received.append(
            {
                "headers": {k.lower(): v for k, v in self.headers.items()},
                "body": body,
                "path": self.path,
            }
        )
        self.send_response(type(self).statuses.pop(0) if type(self).statuses else 201)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        """Quiet."""


@pytest.fixture
def push_service() -> Iterator[type[PushServiceStandIn]]:
    handler = type("Handler", (PushServiceStandIn,), {"received": [], "statuses": []})
    server = HTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    handler.url = f"http://127.0.0.1:{server.server_port}"  # type: ignore[attr-defined]
    yield handler
    server.shutdown()


@pytest.fixture
def vapid(settings) -> dict[str, str]:
    pair = vapid_pair()
    settings.WEBPUSH_VAPID_PUBLIC_KEY, settings.WEBPUSH_VAPID_PRIVATE_KEY = (
        pair["public"],
        pair["private"],
    )
    return pair


class Browser:
    """The keys a browser makes for a subscription (RFC 8291)."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = b"0123456789abcdef"
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.p256dh = b64url(public)

    def subscribe(self, user, endpoint: str) -> PushDevice:
        """What the profile page keeps (made directly: the stand-in speaks plain http)."""
        device = PushDevice.objects.create(
            user=user, endpoint=endpoint, p256dh=self.p256dh, auth=b64url(self.auth), name="Test"
        )
        profile = profile_get(user=user)
        profile.has_push_devices = True
        profile.save(update_fields=["has_push_devices"])
        return device

    def read(self, body: bytes) -> dict[str, str]:
        return json.loads(
            http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        )


@pytest.fixture
def ann(db):
    return make_user("ann", display_name="Ann")


@pytest.fixture
def ben(db):
    return make_user("ben")


def test_your_turn_is_pushed_encrypted_with_vapid_and_shown_data(
    ann, ben, vapid, push_service, django_capture_on_commit_callbacks, settings
) -> None:
    browser = Browser()
    device = browser.subscribe(ben, f"{push_service.url}/push/ben-phone")
    game = game_services.game_start(players=[ann, ben])
    move = str(sorted(game_selectors.game_position(game=game).legal_choices(), key=str)[0])

    with django_capture_on_commit_callbacks(execute=True):
        game_services.move_submit(game_id=game.pk, user=ann, expected_ply=0, notation=move)

    (request,) = push_service.received
    assert request["path"] == "/push/ben-phone"
    assert request["headers"]["content-encoding"] == "aes128gcm"
    assert request["headers"]["ttl"] == "86400"
    authorization = request["headers"]["authorization"]
    assert authorization.startswith("vapid t=") and f"k={vapid['public']}" in authorization
    payload = browser.read(request["body"])
    assert payload == {
        "title": f"Your move against Ann (game #{game.pk})",
        "body": "Your turn",
        "url": f"{settings.SITE_URL}/games/{game.pk}/",
    }
    row = OutboxPush.objects.get()
    assert (row.status, row.device_id, row.title) == ("sent", device.pk, payload["title"])
    device.refresh_from_db()
    assert device.last_push_at is not None


def test_a_gone_subscription_is_removed(ann, ben, vapid, push_service) -> None:
    browser = Browser()
    push_service.statuses = [410]
    device = browser.subscribe(ben, f"{push_service.url}/push/old")
    row = _queued_push(ann, ben)

    assert outbox_push_send(push_id=row.pk).status == "gone"

    assert not PushDevice.objects.filter(pk=device.pk).exists()
    assert OutboxPush.objects.get(pk=row.pk).status == "gone"
    assert Profile.objects.get(user=ben).has_push_devices is False


def test_a_failing_push_service_is_retried_with_a_growing_delay(ann, ben, vapid, push_service):
    Browser().subscribe(ben, f"{push_service.url}/push/flaky")
    push_service.statuses = [503]
    row = _queued_push(ann, ben)

    outcome = outbox_push_send(push_id=row.pk)

    assert outcome.status == "retry" and outcome.retry_in is not None
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("pending", 1) and "503" in row.last_error
    assert outbox_push_send(push_id=row.pk).status == "sent"  # the stand-in answers 201 now
    assert outbox_push_send(push_id=row.pk).status == "skipped"  # safe to run twice


def _queued_push(sender, recipient) -> OutboxPush:
    """A message from ``sender`` to ``recipient``'s game, its push queued, not sent."""
    from notifications.push_queue import push_notices_queue
    from notifications.services import Notice

    game = game_services.game_start(players=[sender, recipient])
    notice = Notice(
        user=recipient,
        event="game_message",
        context={"game": game, "sender_name": "ann"},
        dedupe_key=f"test:{game.pk}",
    )
    (row,) = push_notices_queue([notice])
    return row


def test_switches_and_dedupe_decide_what_is_pushed(ann, ben, vapid, push_service) -> None:
    from notifications.push_queue import push_notices_queue
    from notifications.services import Notice

    Browser().subscribe(ben, f"{push_service.url}/push/b")
    game = game_services.game_start(players=[ann, ben])
    turn = Notice(user=ben, event="your_turn", context={"game": game}, dedupe_key="k1")

    assert len(push_notices_queue([turn])) == 1
    assert push_notices_queue([turn]) == []  # the same event again: deduplicated
    reset = Notice(user=ben, event="password_reset", context={}, dedupe_key="k2")
    assert push_notices_queue([reset]) == []  # always-sent emails are never pushed
    profile = profile_get(user=ben)
    profile.push_turn = False
    profile.save(update_fields=["push_turn"])
    off = Notice(user=ben, event="deadline_reminder", context={"game": game}, dedupe_key="k3")
    assert push_notices_queue([off]) == []  # reminders follow the turn switch
    without_device = Notice(user=ann, event="your_turn", context={"game": game}, dedupe_key="k4")
    assert push_notices_queue([without_device]) == []


def test_the_profile_page_adds_lists_and_removes_devices(ann, ben, vapid) -> None:
    client = Client()
    client.force_login(ann)
    subscription = {
        "endpoint": "https://push.example.org/send/abc",
        "p256dh": Browser().p256dh,
        "auth": b64url(b"0123456789abcdef"),
        "name": "Firefox on Linux",
    }

    client.post(reverse("accounts:push_subscribe"), subscription)
    page = client.get(reverse("accounts:profile")).content.decode()

    device = PushDevice.objects.get(user=ann)
    assert "Firefox on Linux" in page and f'data-vapid-key="{vapid["public"]}"' in page
    assert Profile.objects.get(user=ann).has_push_devices
    other = Client()
    other.force_login(ben)
    answer = other.post(reverse("accounts:push_device_remove", args=[device.pk]), follow=True)
    assert "You have no device with this id" in answer.content.decode()
    client.post(reverse("accounts:push_device_remove", args=[device.pk]))
    assert not PushDevice.objects.exists()
    insecure = client.post(
        reverse("accounts:push_subscribe"),
        {**subscription, "endpoint": "http://x.org/"},
        follow=True,
    )
    assert "https://" in insecure.content.decode() and not PushDevice.objects.exists()


def test_anonymous_visitors_cannot_subscribe(client) -> None:
    answer = client.post(reverse("accounts:push_subscribe"), {"endpoint": "https://a.org/"})

    assert answer.status_code == 302 and "/login" in answer["Location"]
    assert not PushDevice.objects.exists()


def test_the_manifest_and_the_service_worker_are_served_from_the_root(client) -> None:
    manifest = client.get("/manifest.webmanifest")
    worker = client.get("/sw.js")

    assert manifest["Content-Type"] == "application/manifest+json"
    icons = {icon["sizes"] for icon in json.loads(manifest.content)["icons"]}
    assert {"192x192", "512x512"} <= icons
    assert worker["Content-Type"] == "application/javascript; charset=utf-8"
    assert b"showNotification" in worker.content and b"openWindow" in worker.content
    home = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in home
