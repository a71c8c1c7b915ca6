"""``celticsite.sql.Table``: rows read and written as the ORM reads and writes them, on
SQLite and on PostgreSQL (CI), including JSON, durations and a unique key already taken."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.utils import timezone

from celticsite.sql import Table
from notifications.models import OutboxEmail
from tests.accounts.factories import make_user

pytestmark = pytest.mark.django_db

OUTBOX: Table[OutboxEmail] = Table(OutboxEmail, "o")


def _row(user, key: str = "k-1", **fields) -> OutboxEmail:
    return OutboxEmail(
        recipient=user,
        to_address=user.email,
        event="your_turn",
        context={"ply": 3, "names": ["Ann", "Bo"], "nested": {"a": None}},
        dedupe_key=key,
        next_attempt_at=timezone.now(),
        **fields,
    )


def _columns(obj) -> dict:
    return {field.attname: getattr(obj, field.attname) for field in obj._meta.concrete_fields}


def _read(pk: int) -> OutboxEmail:
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {OUTBOX.columns(connection)} FROM {OUTBOX.source(connection)} "
            f"WHERE {OUTBOX.column('id', connection)} = %s",
            [pk],
        )
        return OUTBOX.instance(cursor.fetchone(), connection)


def test_an_inserted_row_reads_back_as_the_orm_reads_it():
    row = _row(make_user("ann"))
    assert OUTBOX.insert(row, using="default") is True
    assert row.pk is not None and row._state.adding is False
    by_orm = OutboxEmail.objects.get(pk=row.pk)
    assert _columns(by_orm) == _columns(row)
    assert _columns(_read(row.pk)) == _columns(by_orm)
    assert _read(row.pk).context == {"ply": 3, "names": ["Ann", "Bo"], "nested": {"a": None}}


def test_a_taken_unique_key_inserts_nothing_and_keeps_the_transaction():
    user = make_user("ann")
    first = _row(user, subject="first")
    assert OUTBOX.insert(first, using="default", unless_taken="dedupe_key")
    with transaction.atomic():
        repeat = _row(user, subject="repeat")
        assert OUTBOX.insert(repeat, using="default", unless_taken="dedupe_key") is False
        assert repeat.pk is None and repeat._state.adding is True
        # no error was raised, so the transaction goes on (PostgreSQL would refuse otherwise)
        assert OutboxEmail.objects.get().subject == "first"


def test_without_unless_taken_a_taken_key_is_an_integrity_error():
    from django.db import IntegrityError

    user = make_user("ann")
    OUTBOX.insert(_row(user), using="default")
    with pytest.raises(IntegrityError), transaction.atomic():
        OUTBOX.insert(_row(user), using="default")
    assert OutboxEmail.objects.count() == 1


def test_an_update_writes_the_named_columns_and_counts_the_rows():
    row = _row(make_user("ann"))
    OUTBOX.insert(row, using="default")
    row.subject, row.attempts, row.body_text = "Your turn", 2, "not saved"
    row.context = {"ply": 4}
    assert OUTBOX.update(row, ["subject", "attempts", "context"], using="default") == 1
    stored = OutboxEmail.objects.get(pk=row.pk)
    assert (stored.subject, stored.attempts, stored.context) == ("Your turn", 2, {"ply": 4})
    assert stored.body_text == ""
    OutboxEmail.objects.all().delete()
    assert OUTBOX.update(row, ["subject"], using="default") == 0
