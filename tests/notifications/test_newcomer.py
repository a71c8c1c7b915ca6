"""What a newcomer meets with ``make run PORT=…``: the port in the banner and in the emails'
links, and demo data that queues no email for moves made before the server started."""

from __future__ import annotations

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from games import services as game_services
from notifications import services as notification_services
from notifications.models import OutboxEmail
from notifications.services import outbox_muted

ROOT = Path(__file__).resolve().parents[2]


def site_url_with(**env: str) -> str:
    """settings.SITE_URL as a fresh process computes it from ``env``."""
    clean = {
        k: v for k, v in os.environ.items() if k not in ("SITE_URL", "CELTIC_HOST", "CELTIC_PORT")
    }
    code = "from celticsite import settings; print(settings.SITE_URL)"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return done.stdout.strip()


def test_the_site_url_follows_the_served_port_unless_set():
    assert site_url_with() == "http://127.0.0.1:8000"
    assert site_url_with(CELTIC_PORT="8123") == "http://127.0.0.1:8123"
    assert site_url_with(CELTIC_HOST="0.0.0.0", CELTIC_PORT="8123") == "http://127.0.0.1:8123"
    assert site_url_with(CELTIC_HOST="192.168.1.5", CELTIC_PORT="9000") == "http://192.168.1.5:9000"
    assert (
        site_url_with(SITE_URL="https://celtic.example/", CELTIC_PORT="8123")
        == "https://celtic.example"
    )


def test_make_run_passes_the_port_to_every_process_and_the_banner():
    done = subprocess.run(
        ["make", "-n", "run", "PORT=8123", "HOST=127.0.0.1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    lines = done.stdout.splitlines()
    banner = [line for line in lines if "Starting the Celery workers" in line]
    assert banner and "http://127.0.0.1:8123/" in banner[0]
    for command in ("seed_demo ", "seed_demo_tournaments", "-Q clock", "-Q mail", "runserver"):
        [line] = [line for line in lines if command in line + " "]
        assert line.lstrip().startswith("CELTIC_HOST=127.0.0.1 CELTIC_PORT=8123 "), line


@pytest.mark.django_db
def test_email_links_use_the_site_url(settings, alice, bob):
    settings.SITE_URL = "http://127.0.0.1:8123"
    game = game_services.game_start(players=[alice, bob])
    game_services.game_resign(game_id=game.pk, user=alice)
    row = OutboxEmail.objects.filter(recipient=bob, event="game_finished").get()
    assert f"Open the game: http://127.0.0.1:8123/games/{game.pk}/" in row.body_text
    assert f'href="http://127.0.0.1:8123/games/{game.pk}/"' in row.body_html


@pytest.mark.django_db(transaction=True)
def test_the_demo_data_queues_no_email_and_no_message(settings, monkeypatch):
    settings.SITE_URL = "http://127.0.0.1:8123"
    queued: list[object] = []
    monkeypatch.setattr(notification_services, "enqueue_send", queued.append)
    monkeypatch.setattr(notification_services, "enqueue_send_many", queued.append)
    out = StringIO()
    call_command("seed_demo_tournaments", stdout=out)
    assert "log in" not in out.getvalue()  # make run prints the logins once: demo_banner
    assert "Demo tournaments created: http://127.0.0.1:8123/tournaments/" in out.getvalue()
    assert OutboxEmail.objects.count() == 0
    assert queued == []


@pytest.mark.django_db(transaction=True)
def test_outside_the_muted_block_emails_are_queued_again(alice, bob, monkeypatch):
    queued: list[object] = []
    monkeypatch.setattr(notification_services, "enqueue_send", queued.append)
    with outbox_muted():
        game_services.challenge_create(challenger=alice, opponent=bob)
    assert OutboxEmail.objects.count() == 0
    challenge = game_services.challenge_create(challenger=bob, opponent=alice)
    [row] = OutboxEmail.objects.all()
    assert (row.event, row.recipient) == ("challenge_received", alice)
    assert queued == [row.pk] and challenge.pk
