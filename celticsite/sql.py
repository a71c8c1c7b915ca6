"""A model's rows read and written with SQL that is built once, for the hottest statements.

The ORM compiles every statement anew: about a thousand Python calls each, which was most of
a move's own cost (docs/SCALING.md, "What a move does now"). ``Table`` builds a model's
column list from its fields, turns rows into instances with the same converters the ORM
applies, and writes the values the ORM would write (``pre_save``, ``get_db_prep_save``), so
the statements hold on SQLite and PostgreSQL alike and follow the model when a field is
added. ``sql_once`` keeps each statement's text after its first use. Save signals are not
sent: use it only for models nothing listens to.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model

M = TypeVar("M", bound=Model)

Converter = Callable[[Any, Any, BaseDatabaseWrapper], Any]

_BUILT: dict[tuple[str, Hashable], str] = {}


def sql_once(
    key: Hashable, connection: BaseDatabaseWrapper, build: Callable[[BaseDatabaseWrapper], str]
) -> str:
    """The statement ``build`` writes for ``connection``'s kind of database, built on its
    first use and kept; ``key`` names it, with whatever varies its text."""
    cache_key = (connection.vendor, key)
    sql = _BUILT.get(cache_key)
    if sql is None:
        sql = _BUILT[cache_key] = build(connection)
    return sql


class Table(Generic[M]):
    """``model``'s table under the SQL alias ``alias`` (as in ``FROM "games_game" "g"``)."""

    def __init__(self, model: type[M], alias: str) -> None:
        self.model = model
        self.alias = alias
        self.fields: list[Field[Any, Any]] = list(model._meta.concrete_fields)
        self.attnames = [field.attname for field in self.fields]
        self._converters: dict[str, list[tuple[int, list[Converter], Any]]] = {}

    @property
    def width(self) -> int:
        """How many columns ``columns`` selects."""
        return len(self.fields)

    def source(self, connection: BaseDatabaseWrapper) -> str:
        """The table and its alias, for a FROM or JOIN clause."""
        quote = connection.ops.quote_name
        return f"{quote(self.model._meta.db_table)} {quote(self.alias)}"

    def column(self, attname: str, connection: BaseDatabaseWrapper) -> str:
        """One column, qualified by the alias: ``"g"."ply"``."""
        quote = connection.ops.quote_name
        return f"{quote(self.alias)}.{quote(self.model._meta.get_field(attname).column)}"

    def columns(self, connection: BaseDatabaseWrapper) -> str:
        """Every concrete field's column, in the order ``instance`` reads them back."""
        return ", ".join(self.column(attname, connection) for attname in self.attnames)

    def instance(self, values: Sequence[Any], connection: BaseDatabaseWrapper) -> M:
        """The model instance of one row's ``values`` (in ``columns`` order), converted as
        the ORM converts them (SQLite's dates, JSON, durations)."""
        converted = list(values)
        for index, converters, expression in self._converters_for(connection):
            value = converted[index]
            for convert in converters:
                value = convert(value, expression, connection)
            converted[index] = value
        return self.model.from_db(connection.alias, self.attnames, converted)

    def _converters_for(
        self, connection: BaseDatabaseWrapper
    ) -> list[tuple[int, list[Converter], Any]]:
        found = self._converters.get(connection.vendor)
        if found is None:
            found = []
            for index, field in enumerate(self.fields):
                expression = field.get_col(self.alias)
                converters = [
                    *connection.ops.get_db_converters(expression),
                    *expression.get_db_converters(connection),
                ]
                if converters:
                    found.append((index, converters, expression))
            self._converters[connection.vendor] = found
        return found

    def insert(self, obj: M, *, using: str, unless_taken: str | None = None) -> bool:
        """Insert ``obj`` and set its primary key, as ``save()`` does for a new row (its
        ``auto_now_add`` fields filled in); answers True. ``unless_taken``: a unique field;
        if a row already holds ``obj``'s value there, insert nothing and answer False."""
        connection = connections[using]
        meta = self.model._meta
        with_pk = obj.pk is not None
        fields = [field for field in self.fields if with_pk or not field.primary_key]
        values = [
            field.get_db_prep_save(field.pre_save(obj, add=True), connection) for field in fields
        ]
        returning = connection.features.can_return_columns_from_insert

        def build(connection: BaseDatabaseWrapper) -> str:
            quote = connection.ops.quote_name
            sql = (
                f"INSERT INTO {quote(meta.db_table)} "
                f"({', '.join(quote(field.column) for field in fields)}) "
                f"VALUES ({', '.join(['%s'] * len(fields))})"
            )
            if unless_taken is not None:
                sql += f" ON CONFLICT ({quote(meta.get_field(unless_taken).column)}) DO NOTHING"
            if returning:
                sql += f" RETURNING {quote(self._pk_column())}"
            return sql

        sql = sql_once(self._key("insert", with_pk, unless_taken, returning), connection, build)
        with connection.cursor() as cursor:
            cursor.execute(sql, values)
            if returning:
                row = cursor.fetchone()
                pk = None if row is None else row[0]
            else:  # SQLite before 3.35
                pk = cursor.lastrowid if cursor.rowcount == 1 else None
        if pk is None:
            return False
        if not with_pk:
            obj.pk = pk
        obj._state.adding = False
        obj._state.db = using
        return True

    def update(self, obj: M, attnames: Sequence[str], *, using: str) -> int:
        """Write ``obj``'s ``attnames`` to its row, as ``save(update_fields=...)`` does;
        answers how many rows changed (0: the row is gone)."""
        connection = connections[using]
        meta = self.model._meta
        fields = [meta.get_field(attname) for attname in attnames]
        values = [
            field.get_db_prep_save(field.pre_save(obj, add=False), connection) for field in fields
        ]

        def build(connection: BaseDatabaseWrapper) -> str:
            quote = connection.ops.quote_name
            assignments = ", ".join(f"{quote(field.column)} = %s" for field in fields)
            pk = quote(self._pk_column())
            return f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {pk} = %s"

        sql = sql_once(self._key("update", tuple(attnames)), connection, build)
        with connection.cursor() as cursor:
            cursor.execute(sql, [*values, obj.pk])
            return int(cursor.rowcount)

    def _pk_column(self) -> str:
        pk = self.model._meta.pk
        assert pk is not None
        return pk.column

    def _key(self, *parts: Hashable) -> tuple[Hashable, ...]:
        return (self.model._meta.label, *parts)
