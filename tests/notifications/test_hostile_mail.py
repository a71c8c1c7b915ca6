"""The hostile inbound mail corpus (``hostile_mail.py``) through the pipe and the service.

Each message must be recorded with its outcome and reason, answered only when the corpus
says so (and then only to alice, the token's player, at her account's address), and never
end in a traceback: ``receive_email`` exits 0 for every one of them, so a mail server
neither retries nor bounces it.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from games.models import Move
from notifications.inbound import inbound_email_receive
from notifications.models import InboundEmail, OutboxEmail
from tests.notifications import hostile_mail
from tests.notifications.hostile_mail import CORPUS, HostileCase, Mailer
from tests.notifications.test_inbound import tampered, token_for

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _inbound_settings(settings):
    settings.CELTIC_MOVES_ADDRESS = "moves@celtic.example"
    settings.CELTIC_MAIL_TRUSTED_AUTHSERV_ID = hostile_mail.TRUSTED_AUTHSERV_ID
    settings.CELTIC_INBOUND_MAX_BYTES = hostile_mail.MAX_BYTES
    settings.CELTIC_INBOUND_MAX_MIME_DEPTH = hostile_mail.MAX_DEPTH


@pytest.fixture
def mailer(alice, game) -> Mailer:
    token = token_for(game, alice)
    return Mailer(token=token, forged_token=tampered(token))


def assert_outcome(case: HostileCase, record: InboundEmail, game) -> None:
    record.refresh_from_db()  # it was stored (PostgreSQL refuses NUL and broken UTF-8)
    assert (record.outcome, record.reason) == (case.outcome, case.reason), record.detail
    assert record.message_id and len(record.message_id) <= 255
    for text in (record.message_id, record.from_address, record.subject, record.detail):
        text.encode("utf-8")  # no surrogates escaped from raw bytes
        assert "\x00" not in text
    answered = list(
        OutboxEmail.objects.filter(event="email_move_reply").values_list("to_address", flat=True)
    )
    assert answered == (["alice@example.org"] if case.answered else [])
    moves = list(Move.objects.filter(game=game).values_list("notation", flat=True))
    assert moves == (["d5 ESW"] if case.moved else [])


@pytest.mark.parametrize("case", CORPUS, ids=[case.name for case in CORPUS])
def test_the_service_records_each_hostile_message(case, mailer, game):
    raw = case.build(mailer)
    record = inbound_email_receive(raw=raw)
    assert_outcome(case, record, game)
    assert inbound_email_receive(raw=raw).pk == record.pk  # a second delivery: the same record
    assert InboundEmail.objects.count() == 1


@pytest.mark.parametrize("case", CORPUS, ids=[case.name for case in CORPUS])
def test_receive_email_records_each_hostile_message_and_exits_0(case, mailer, game):
    out = io.StringIO()
    call_command("receive_email", stdin=io.BytesIO(case.build(mailer)), stdout=out)
    [record] = InboundEmail.objects.all()
    assert out.getvalue().startswith(
        f"{case.outcome}" + (f" ({case.reason})" if case.reason else "")
    )
    assert_outcome(case, record, game)


def test_the_reasons_are_told_to_the_player(mailer, game):
    cases = {case.name: case for case in CORPUS}
    expected = {
        "huge-body": "is more than 100000 bytes",
        "nesting-past-the-limit": "nested more than 10 levels deep",
        "containers-past-the-limit": "more than 40 parts that hold other parts",
        "dmarc-fail-from-the-trusted-host": "failed the DMARC check of mx.celtic.example",
        "spf-fail-from-the-trusted-host": "failed the SPF check of mx.celtic.example",
    }
    for name, words in expected.items():
        record = inbound_email_receive(raw=cases[name].build(mailer))
        answer = OutboxEmail.objects.get(dedupe_key=f"email_move_reply:{record.pk}")
        assert words in record.detail
        assert words in answer.body_text
        InboundEmail.objects.filter(pk=record.pk).delete()


def test_authentication_results_are_ignored_without_a_trusted_host(settings, mailer, game):
    settings.CELTIC_MAIL_TRUSTED_AUTHSERV_ID = ""
    [case] = [case for case in CORPUS if case.name == "dmarc-fail-from-the-trusted-host"]
    record = inbound_email_receive(raw=case.build(mailer))
    assert (record.outcome, record.reason) == ("moved", "")


def test_the_command_reads_no_more_than_the_limit_from_a_huge_input(mailer, game):
    """A gigantic message is drained in chunks, not held in memory, and refused by size."""

    class Endless(io.RawIOBase):
        def __init__(self, head: bytes, size: int) -> None:
            self.head, self.left, self.largest_read = head, size, 0

        def readable(self) -> bool:
            return True

        def readinto(self, buffer) -> int:
            n = min(len(buffer), self.left)
            self.largest_read = max(self.largest_read, n)
            chunk = self.head[:n] if self.head else b"z" * n
            self.head = self.head[n:]
            buffer[: len(chunk)] = chunk
            self.left -= len(chunk)
            return len(chunk)

    head = hostile_mail.reply(mailer.token, body=b"d5 ESW\r\n")
    stream = Endless(head, 50_000_000)
    out = io.StringIO()
    call_command("receive_email", stdin=stream, stdout=out)
    record = InboundEmail.objects.get()
    assert (record.outcome, record.reason) == ("refused", "too_large")
    assert "is 50000000 bytes" in record.detail
    assert stream.left == 0 and stream.largest_read <= 1 << 20


def test_message_ids_differing_only_in_raw_bytes_stay_distinct(mailer, game):
    """Raw bytes in a Message-ID are kept as escapes, not all turned into U+FFFD: otherwise a
    second message would pass for a duplicate of the first and never be handled."""
    first = inbound_email_receive(raw=hostile_mail.reply(None, message_id=b"<caf\xe9@x.example>"))
    second = inbound_email_receive(raw=hostile_mail.reply(None, message_id=b"<caf\xe8@x.example>"))
    assert (first.message_id, second.message_id) == ("<caf\\xe9@x.example>", "<caf\\xe8@x.example>")
    assert InboundEmail.objects.count() == 2


def test_nesting_past_the_parsers_recursion_is_refused_too(settings, mailer, game):
    """With limits high enough to let the parser try, its RecursionError is caught."""
    settings.CELTIC_INBOUND_MAX_MIME_DEPTH = 5000
    content_type, body = hostile_mail.nested_multipart(1200)
    record = inbound_email_receive(raw=hostile_mail.reply(mailer.token, content_type, body))
    assert (record.outcome, record.reason) == ("refused", "too_deep")
    assert "nested more than 5000 levels deep" in record.detail
