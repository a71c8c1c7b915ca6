"""``manage.py seed_demo``: what a newcomer finds after ``make run``."""

from __future__ import annotations

import http.server
import logging
import socket
import socketserver
import threading
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from celticsite.celery import NoHostnameNeeded, app
from games.models import Challenge, Game, GameMessage

pytestmark = pytest.mark.django_db


def seed() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def test_seed_demo_makes_players_games_a_message_and_challenges() -> None:
    assert "Demo data created." in seed()
    users = get_user_model().objects
    assert sorted(users.values_list("username", flat=True)) == [
        "alice",
        "bob",
        "carol",
        "moderator",
        "niamh",
    ]
    assert users.get(username="alice").check_password("celtic-demo")
    in_progress = Game.objects.get(status=Game.Status.ACTIVE, kind="celtic")
    assert [user.username for user in in_progress.seat_users()] == ["alice", "bob"]
    assert in_progress.moves.exists() and in_progress.deadline is not None
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 1
    [message] = GameMessage.objects.all()
    assert (message.game, message.author.username) == (in_progress, "bob")
    assert Challenge.objects.filter(status=Challenge.Status.OPEN).count() == 3


def test_seed_demo_makes_a_knot_race_for_four_where_alice_chooses_a_square() -> None:
    seed()
    race = Game.objects.get(kind="knot")
    assert race.is_active and race.seat_count == 4
    assert race.user_to_move().username == "alice"
    assert race.moves.order_by("-ply").first().seat != race.seat_to_move  # her turn begins
    seek = Challenge.objects.get(kind="knot")
    assert (seek.seat_count, seek.challenger.username, seek.opponent) == (3, "niamh", None)


def test_seed_demo_twice_changes_nothing() -> None:
    seed()
    counts = (Game.objects.count(), GameMessage.objects.count(), Challenge.objects.count())
    assert "Demo data already present." in seed()
    assert (Game.objects.count(), GameMessage.objects.count(), Challenge.objects.count()) == counts


def test_the_demo_moderator_is_a_member_of_moderators_not_a_superuser() -> None:
    seed()
    moderator = get_user_model().objects.get(username="moderator")
    assert (moderator.is_staff, moderator.is_superuser) == (True, False)
    assert list(moderator.groups.values_list("name", flat=True)) == ["Moderators"]
    assert moderator.has_perm("games.annul_game") and moderator.has_perm("accounts.suspend_user")
    assert not moderator.has_perm("accounts.grant_staff")


def test_kombu_s_no_hostname_warning_is_silenced_on_the_filesystem_broker(monkeypatch) -> None:
    record = logging.LogRecord(
        "kombu.connection", logging.WARNING, __file__, 1, "No hostname was supplied.", (), None
    )
    monkeypatch.setattr(app.conf, "broker_url", "filesystem://")
    # The filter sits on kombu's own logger, so no handler ever sees the warning.
    assert not logging.getLogger("kombu.connection").filter(record)


def test_the_no_hostname_warning_stays_with_a_broker_that_needs_a_host(monkeypatch) -> None:
    record = logging.LogRecord(
        "kombu.connection", logging.WARNING, __file__, 1, "No hostname was supplied.", (), None
    )
    monkeypatch.setattr(app.conf, "broker_url", "redis://")
    assert NoHostnameNeeded().filter(record)


def test_seed_demo_alone_prints_the_logins_once_unless_told_not_to(settings) -> None:
    settings.SITE_URL = "http://127.0.0.1:8123"
    assert seed().count("log in as alice") == 1
    assert "http://127.0.0.1:8123/api/docs/" in seed()
    quiet = StringIO()
    call_command("seed_demo", "--no-banner", stdout=quiet)
    assert "log in as" not in quiet.getvalue()


def test_demo_banner_waits_for_the_server_then_prints_the_logins_once(settings) -> None:
    """A real server on a free port: the banner names that port, and comes once."""
    with socketserver.TCPServer(("127.0.0.1", 0), _Answer) as server:
        port = server.server_address[1]
        threading.Thread(target=server.serve_forever, daemon=True).start()
        settings.SITE_URL = f"http://127.0.0.1:{port}"
        out = StringIO()
        call_command("demo_banner", "--wait", "5", stdout=out)
        server.shutdown()
    assert out.getvalue().count("log in as alice") == 1
    assert f"http://127.0.0.1:{port}/api/docs/" in out.getvalue()


def test_demo_banner_says_plainly_when_no_server_answers(settings) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.SITE_URL = f"http://127.0.0.1:{port}"
    with pytest.raises(CommandError, match=f"127.0.0.1:{port}/ did not answer within 0 seconds"):
        call_command("demo_banner", "--wait", "0", stdout=StringIO())


class _Answer(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(302)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass
