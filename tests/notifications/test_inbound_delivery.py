"""How inbound mail arrives: the receive_email command (a mail server's pipe) and IMAP polling."""

from __future__ import annotations

import io
import runpy
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import OperationalError

from games.models import Move
from notifications import mailbox
from notifications.models import InboundEmail
from notifications.tasks import poll_inbound_mailbox
from tests.notifications import hostile_mail
from tests.notifications.test_inbound import email, token_for

pytestmark = pytest.mark.django_db

SETTINGS_FILE = Path(__file__).resolve().parents[2] / "celticsite" / "settings.py"


@pytest.fixture(autouse=True)
def _moves_address(settings):
    settings.CELTIC_MOVES_ADDRESS = "moves@celtic.example"


def run_command(raw: bytes) -> str:
    out = io.StringIO()
    call_command("receive_email", stdin=io.BytesIO(raw), stdout=out)
    return out.getvalue()


# --- the receive_email command ------------------------------------------------------------------


def test_the_command_plays_a_move_from_stdin(alice, game):
    raw = email(token=token_for(game, alice), message_id="<m1@mail.example.org>")
    output = run_command(raw)
    assert output == (
        f"moved: game #{game.pk} ply 0 'd5 ESW' from alice@example.org, <m1@mail.example.org>\n"
    )
    assert Move.objects.filter(game=game).count() == 1
    assert run_command(raw) == output  # a second delivery: the same record, nothing more
    assert Move.objects.filter(game=game).count() == 1


def test_the_command_reports_a_refusal_and_succeeds(alice, game):
    output = run_command(email(token=token_for(game, alice), body="f5 N"))
    assert output.startswith(f"refused (illegal_move): game #{game.pk} ply 0 'f5 N' from alice@")


def test_the_command_reports_a_dropped_message_and_succeeds(alice, game):
    output = run_command(email(token=None))
    assert output.startswith("malformed (no_token) from alice@example.org, <reply-")


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"", "malformed (empty) from unknown sender, sha256:"),
        (b"\x00\xff\xfe garbage\n", "malformed (unparseable) from unknown sender, sha256:"),
    ],
)
def test_the_command_records_input_that_is_not_an_email_and_exits_0(raw, message):
    """No bounce: the envelope sender of garbage may well be forged (backscatter)."""
    assert run_command(raw).startswith(message)
    assert InboundEmail.objects.get().outcome == "malformed"


def test_the_command_reads_raw_bytes_from_the_real_standard_input(monkeypatch, alice, game):
    """Through sys.stdin's byte buffer, as a mail server's pipe feeds it: bytes that are not
    UTF-8 must not be decoded as text on the way in."""
    raw = hostile_mail.reply(token_for(game, alice), subject=b"Re: caf\xe9 \xff")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="ascii"))
    out = io.StringIO()
    call_command("receive_email", stdout=out)
    assert out.getvalue().startswith(f"moved: game #{game.pk} ply 0 'd5 ESW' from alice@")
    assert InboundEmail.objects.get().subject == "Re: caf\ufffd \ufffd"


def test_the_command_exits_75_when_the_database_fails(monkeypatch, alice, game):
    def fail(**kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr(
        "notifications.management.commands.receive_email.inbound_email_receive", fail
    )
    with pytest.raises(CommandError, match="try again later: database is locked") as caught:
        run_command(email(token=token_for(game, alice)))
    assert caught.value.returncode == 75


# --- IMAP polling -------------------------------------------------------------------------------


class FakeImap:
    """A faithful fake of the few ``imaplib.IMAP4`` calls the poller makes, over messages held
    in memory: each returns ``(status, data)`` shaped as imaplib returns a server's answer.
    ``unavailable`` holds uids whose FETCH of the message the server answers with NO."""

    def __init__(self, messages: list[bytes], *, unavailable: tuple[bytes, ...] = ()) -> None:
        self.messages = {str(uid).encode(): raw for uid, raw in enumerate(messages, start=11)}
        self.flags: dict[bytes, set[str]] = {uid: set() for uid in self.messages}
        self.unavailable = set(unavailable)
        self.fetched: list[tuple[bytes, str]] = []
        self.logged_out = False

    def uid(self, command: str, *args: object) -> tuple[str, list[object]]:
        if command == "SEARCH":
            assert args == (None, "UNSEEN")
            unseen = [uid for uid, flags in self.flags.items() if "\\Seen" not in flags]
            return "OK", [b" ".join(unseen)]
        if command == "FETCH":
            uid, items = args
            assert isinstance(uid, bytes) and isinstance(items, str)
            self.fetched.append((uid, items))
            raw = self.messages[uid]
            if items == "(RFC822.SIZE)":
                return "OK", [b"1 (UID " + uid + b" RFC822.SIZE %d)" % len(raw)]
            if uid in self.unavailable:
                return "NO", [b"[UNAVAILABLE] the message cannot be read"]
            if items == "(BODY.PEEK[HEADER])":
                header = raw.partition(b"\r\n\r\n")[0] + b"\r\n\r\n"
                return "OK", [
                    (b"1 (UID " + uid + b" BODY[HEADER] {%d}" % len(header), header),
                    b")",
                ]
            assert items == "(BODY.PEEK[])"
            return "OK", [(b"1 (UID " + uid + b" BODY[] {%d}" % len(raw), raw), b")"]
        if command == "STORE":
            uid, action, flags = args
            assert action == "+FLAGS"
            self.flags[uid].update(str(flags).strip("()").split())
            return "OK", [b""]
        raise AssertionError(f"unexpected IMAP command {command}")

    def expunge(self) -> None:
        for uid in [uid for uid, flags in self.flags.items() if "\\Deleted" in flags]:
            del self.messages[uid], self.flags[uid]

    def logout(self) -> None:
        self.logged_out = True


@pytest.fixture
def imap(settings, monkeypatch, alice, bob, game):
    settings.CELTIC_IMAP_HOST = "imap.celtic.example"
    settings.CELTIC_IMAP_DELETE = False
    fake = FakeImap(
        [
            email(token=token_for(game, alice), message_id="<good@mail.example.org>"),
            email(token=None, sender="mallory@evil.example"),
            b"\n\n",
        ]
    )
    monkeypatch.setattr(mailbox, "imap_connect", lambda: fake)
    return fake


def test_polling_handles_unseen_messages_and_flags_them_seen(imap, game):
    assert poll_inbound_mailbox() == 3
    assert sorted(InboundEmail.objects.values_list("outcome", "reason")) == [
        ("malformed", "empty"),
        ("malformed", "no_token"),
        ("moved", ""),
    ]
    assert all("\\Seen" in flags for flags in imap.flags.values())
    assert imap.logged_out
    assert poll_inbound_mailbox() == 0  # nothing unseen left


def test_a_poll_that_died_before_flagging_handles_nothing_twice(imap, game):
    poll_inbound_mailbox()
    for flags in imap.flags.values():
        flags.clear()
    assert poll_inbound_mailbox() == 3
    assert InboundEmail.objects.count() == 3
    assert list(Move.objects.filter(game=game).values_list("notation", flat=True)) == ["d5 ESW"]


def test_polling_can_delete_what_it_handled(imap, settings):
    settings.CELTIC_IMAP_DELETE = True
    assert poll_inbound_mailbox() == 3
    assert imap.messages == {}


def test_a_database_failure_leaves_the_message_unseen(imap, monkeypatch):
    def fail(**kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr(mailbox, "inbound_email_receive", fail)
    assert poll_inbound_mailbox() == 0
    assert all(flags == set() for flags in imap.flags.values())  # the next poll tries again
    assert imap.logged_out


def test_polling_does_nothing_without_a_host(settings, monkeypatch):
    settings.CELTIC_IMAP_HOST = ""
    monkeypatch.setattr(mailbox, "imap_connect", lambda: pytest.fail("connected"))
    assert poll_inbound_mailbox() == 0


def test_the_beat_polls_the_mailbox_only_when_a_host_is_set(monkeypatch):
    monkeypatch.delenv("CELTIC_IMAP_HOST", raising=False)
    schedule = runpy.run_path(str(SETTINGS_FILE))["CELERY_BEAT_SCHEDULE"]
    assert "notifications-poll-inbound-mailbox" not in schedule
    monkeypatch.setenv("CELTIC_IMAP_HOST", "imap.celtic.example")
    monkeypatch.setenv("CELTIC_IMAP_POLL_SECONDS", "120")
    schedule = runpy.run_path(str(SETTINGS_FILE))["CELERY_BEAT_SCHEDULE"]
    assert schedule["notifications-poll-inbound-mailbox"] == {
        "task": "notifications.tasks.poll_inbound_mailbox",
        "schedule": 120.0,
    }


class RecordingImap:
    """Stands in for imaplib.IMAP4_SSL: records what the poller asks of the server."""

    calls: list[tuple[object, ...]] = []
    select_status = "OK"

    def __init__(self, host: str, port: int, *, timeout: float | None = None) -> None:
        self.calls.append(("connect", host, port, timeout))

    def login(self, user: str, password: str) -> None:
        self.calls.append(("login", user, password))

    def select(self, folder: str) -> tuple[str, list[bytes]]:
        self.calls.append(("select", folder))
        return self.select_status, [b"no such folder"]


def test_imap_connect_logs_in_and_selects_the_folder(settings, monkeypatch):
    settings.CELTIC_IMAP_HOST, settings.CELTIC_IMAP_PORT = "imap.celtic.example", 993
    settings.CELTIC_IMAP_SSL, settings.CELTIC_IMAP_FOLDER = True, "Moves"
    settings.CELTIC_IMAP_USER, settings.CELTIC_IMAP_PASSWORD = "moves", "secret"
    settings.CELTIC_IMAP_TIMEOUT = 12.5
    monkeypatch.setattr(mailbox.imaplib, "IMAP4_SSL", RecordingImap)
    monkeypatch.setattr(RecordingImap, "calls", [])
    assert isinstance(mailbox.imap_connect(), RecordingImap)
    assert RecordingImap.calls == [
        ("connect", "imap.celtic.example", 993, 12.5),
        ("login", "moves", "secret"),
        ("select", "Moves"),
    ]
    monkeypatch.setattr(RecordingImap, "select_status", "NO")
    with pytest.raises(mailbox.imaplib.IMAP4.error, match="IMAP SELECT failed: NO"):
        mailbox.imap_connect()


# --- a poison message ahead of a good reply (fault test) ---------------------------------------

POISONS = {
    # raw Latin-1 bytes in the headers: stored as they came, they crashed the poll
    "raw-bytes": lambda: hostile_mail.reply(None, subject=b"caf\xe9 \xff", message_id=b"<\xe9@x>"),
    # larger than CELTIC_INBOUND_MAX_BYTES: refused from its headers, its body never fetched
    "huge": lambda: hostile_mail.reply(None, body=b"x" * (hostile_mail.MAX_BYTES + 1)),
    # nested 1200 deep: refused before parsing, for its many containers
    "deep": lambda: hostile_mail.reply(None, *hostile_mail.nested_multipart(1200)),
    # the server answers the FETCH with NO
    "unavailable": lambda: hostile_mail.reply(None),
}


@pytest.mark.parametrize("poison", sorted(POISONS))
def test_a_poison_message_does_not_hold_up_the_reply_behind_it(
    poison, settings, monkeypatch, alice, game
):
    """Over a faithful fake of imaplib (FakeImap above), not a real IMAP server."""
    settings.CELTIC_IMAP_HOST, settings.CELTIC_IMAP_DELETE = "imap.celtic.example", False
    settings.CELTIC_INBOUND_MAX_BYTES = hostile_mail.MAX_BYTES
    reply = email(token=token_for(game, alice), message_id="<good@mail.example.org>")
    fake = FakeImap(
        [POISONS[poison](), reply], unavailable=(b"11",) if poison == "unavailable" else ()
    )
    monkeypatch.setattr(mailbox, "imap_connect", lambda: fake)

    poll_inbound_mailbox()

    assert list(Move.objects.filter(game=game).values_list("notation", flat=True)) == ["d5 ESW"]
    assert fake.flags == {b"11": {"\\Seen"}, b"12": {"\\Seen"}}  # the poison does not come back
    outcomes = dict(InboundEmail.objects.values_list("message_id", "reason"))
    assert outcomes.pop("<good@mail.example.org>") == ""
    expected = {"raw-bytes": ["no_token"], "huge": ["too_large"], "deep": ["too_many_parts"]}
    assert list(outcomes.values()) == expected.get(poison, [])
    if poison == "huge":
        assert (b"11", "(BODY.PEEK[])") not in fake.fetched
