"""The stored rating history (`RatingSnapshot` rows): built from replayed games and written
around the ORM, since a recomputation writes one row per player of every result.

Rows are tuples in the order of `SNAPSHOT_FIELDS`, ready for the database (the datetime
adapted for the backend), so stored and replayed rows compare with ``==``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import connection

from rankings.models import RatingSnapshot
from rankings.rating.history import GameStep
from rankings.rating.plackett_luce import FinishStep, SkillParams, share_beaten

SNAPSHOT_FIELDS = (
    "result_id", "player_id", "kind", "opponent_id", "finished_at", "place", "players",
    "score", "games", "elo_before", "elo_after", "opponent_elo_before", "glicko_rating",
    "glicko_rd", "glicko_volatility", "mu", "sigma", "rating_before", "rating_after",
)  # fmt: skip

_FINISHED_AT = SNAPSHOT_FIELDS.index("finished_at")


def pair_rows(result_id: int, kind: str, finished_at: datetime, step: GameStep[int]) -> list[tuple]:
    """The two rows of a game rated with Elo and Glicko-2."""
    r = step.record
    finished_at = connection.ops.adapt_datetimefield_value(finished_at)
    return [
        (
            result_id, player_id, kind, opponent_id, finished_at, 1 if score >= 0.5 else 2, 2,
            score, after.elo.games, before.elo.rating, after.elo.rating,
            opponent_before.elo.rating, after.glicko.rating, after.glicko.rd,
            after.glicko.volatility, None, None, None, None,
        )
        for player_id, opponent_id, score, before, after, opponent_before in (
            (r.player1, r.player2, r.score1, step.before1, step.after1, step.before2),
            (r.player2, r.player1, 1.0 - r.score1, step.before2, step.after2, step.before1),
        )
    ]  # fmt: skip


def finish_rows(
    result_id: int, kind: str, finished_at: datetime, step: FinishStep[int], params: SkillParams
) -> list[tuple]:
    """One row per player of a game rated with Plackett-Luce."""
    r = step.record
    finished_at = connection.ops.adapt_datetimefield_value(finished_at)
    return [
        (
            result_id, player_id, kind, None, finished_at, place, len(r.players),
            share_beaten(r.places, index), after.games, None, None, None, None, None, None,
            after.mu, after.sigma, before.display(params), after.display(params),
        )
        for index, (player_id, place, before, after) in enumerate(
            zip(r.players, r.places, step.before, step.after, strict=True)
        )
    ]  # fmt: skip


def snapshots_write(rows: list[tuple], *, update: bool = False) -> None:
    """Insert snapshot rows (or, with `update`, rewrite the rows whose id ends each tuple).

    A recomputation writes a row per player of every result, so this goes around the ORM's
    per-object work: on PostgreSQL the rows go in with COPY (an update copies them into a
    temporary table and updates from it in one statement); elsewhere with multi-row INSERTs
    (an update: one executemany). See docs/BENCHMARKS.md.
    """
    if not rows:
        return
    meta = RatingSnapshot._meta
    quote = connection.ops.quote_name
    table = quote(meta.db_table)
    columns = [quote(meta.get_field(name).column) for name in SNAPSHOT_FIELDS]
    with connection.cursor() as cursor:
        if hasattr(cursor.cursor, "copy"):  # psycopg 3 (PostgreSQL)
            _copy_snapshots(cursor, rows, table=table, columns=columns, update=update)
        elif update:
            assignments = ", ".join(f"{column} = %s" for column in columns)
            pk = quote(meta.pk.column)
            cursor.executemany(f"UPDATE {table} SET {assignments} WHERE {pk} = %s", rows)
        else:
            limit = connection.features.max_query_params or 65535
            per_statement = max(1, limit // len(columns))
            row_sql = "(" + ", ".join(["%s"] * len(columns)) + ")"
            for start in range(0, len(rows), per_statement):
                chunk = rows[start : start + per_statement]
                cursor.execute(
                    f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
                    + ", ".join([row_sql] * len(chunk)),
                    [value for row in chunk for value in row],
                )


def _copy_snapshots(
    cursor: Any, rows: list[tuple], *, table: str, columns: list[str], update: bool
) -> None:
    """PostgreSQL: COPY the rows in; for an update, through a temporary table."""
    pk = connection.ops.quote_name(RatingSnapshot._meta.pk.column)
    target = table
    if update:
        target = "rating_snapshot_changes"
        cursor.execute(f"CREATE TEMPORARY TABLE {target} (LIKE {table}) ON COMMIT DROP")
    copied = [*columns, pk] if update else columns
    with cursor.cursor.copy(f"COPY {target} ({', '.join(copied)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
    if update:
        assignments = ", ".join(f"{column} = c.{column}" for column in columns)
        cursor.execute(
            f"UPDATE {table} AS s SET {assignments} FROM {target} AS c WHERE s.{pk} = c.{pk}"
        )
        cursor.execute(f"DROP TABLE {target}")


def snapshots_stored(
    *, kind: str, since: datetime | None
) -> dict[tuple[int, int], tuple[int, tuple]]:
    """Stored rows of ``kind`` (from `since` on) by (result id, player id): (row id, the row
    as SNAPSHOT_FIELDS in the database's own representation, comparable with the builders')."""
    meta = RatingSnapshot._meta
    quote = connection.ops.quote_name
    columns = ", ".join(quote(meta.get_field(name).column) for name in ("id", *SNAPSHOT_FIELDS))
    sql = f"SELECT {columns} FROM {quote(meta.db_table)} WHERE {quote('kind')} = %s"
    params: list[Any] = [kind]
    if since is not None:
        sql += f" AND {quote(meta.get_field('finished_at').column)} >= %s"
        params.append(connection.ops.adapt_datetimefield_value(since))
    adapt = connection.ops.adapt_datetimefield_value  # SQLite reads back a naive datetime
    position = _FINISHED_AT + 1
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return {
            (row[1], row[2]): (
                row[0],
                (*row[1:position], adapt(row[position]), *row[position + 1 :]),
            )
            for row in cursor.fetchall()
        }
