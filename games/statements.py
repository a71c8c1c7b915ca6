"""The statements every write to a game runs, as SQL built once (``celticsite.sql``).

Locking the game, reading its players and its turns, appending a turn and saving the turn's
columns: through the ORM these were most of a move's own cost. Each function answers what
its ORM counterpart would (tests/games/test_statements.py holds them to it).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper

from accounts.models import Profile, Vacation
from celticsite.sql import Table, sql_once
from games.models import ConditionalLine, Game, Move

_GAME: Table[Game] = Table(Game, "g")
_TURN: Table[Move] = Table(Move, "m")
_USER: Table[Any] = Table(get_user_model(), "u")
_PROFILE: Table[Profile] = Table(Profile, "p")
_LINE: Table[ConditionalLine] = Table(ConditionalLine, "cl")
_VACATION: Table[Vacation] = Table(Vacation, "v")


def game_for_update(game_id: int, *, flags_at: datetime | None = None) -> Game | None:
    """The game, its row locked for the transaction (on databases that lock rows), or None.

    ``flags_at``: also set ``has_lines`` (the game has queued conditional lines) and
    ``has_vacations`` (either player has a vacation that ends after that time) on it, from
    the same statement.
    """
    connection = _connection()
    flags = flags_at is not None
    params: list[Any] = [game_id]
    if flags:
        ends_at = Vacation._meta.get_field("ends_at")
        params.insert(0, ends_at.get_db_prep_value(flags_at, connection))
    sql = sql_once(("game_for_update", flags), connection, lambda c: _game_sql(c, flags=flags))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    game = _GAME.instance(row[: _GAME.width], connection)
    if flags:
        game.has_lines, game.has_vacations = (bool(flag) for flag in row[_GAME.width :])
    return game


def _game_sql(connection: BaseDatabaseWrapper, *, flags: bool) -> str:
    select = [_GAME.columns(connection)]
    if flags:
        select += [_has_lines(connection), _has_vacations(connection)]
    sql = (
        f"SELECT {', '.join(select)} FROM {_GAME.source(connection)} "
        f"WHERE {_GAME.column('id', connection)} = %s"
    )
    return sql + " FOR UPDATE" if connection.features.has_select_for_update else sql


def _has_lines(connection: BaseDatabaseWrapper) -> str:
    game = _LINE.column("game_id", connection)
    return (
        f"EXISTS (SELECT 1 FROM {_LINE.source(connection)} "
        f"WHERE {game} = {_GAME.column('id', connection)})"
    )


def _has_vacations(connection: BaseDatabaseWrapper) -> str:
    players = f"{_GAME.column('orange_id', connection)}, {_GAME.column('blue_id', connection)}"
    return (
        f"EXISTS (SELECT 1 FROM {_VACATION.source(connection)} "
        f"WHERE {_VACATION.column('user_id', connection)} IN ({players}) "
        f"AND {_VACATION.column('ends_at', connection)} > %s)"
    )


def players_by_id(user_ids: list[int]) -> dict[int, Any]:
    """The users with these ids, each with its profile (as ``select_related("profile")``),
    by id."""
    connection = _connection()
    sql = sql_once(
        ("players_by_id", len(user_ids)), connection, lambda c: _players_sql(c, len(user_ids))
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, user_ids)
        rows = cursor.fetchall()
    users = {}
    for row in rows:
        user = _USER.instance(row[: _USER.width], connection)
        profile_row = row[_USER.width :]
        profile = None if profile_row[0] is None else _PROFILE.instance(profile_row, connection)
        Profile.user.field.remote_field.set_cached_value(user, profile)  # user.profile
        if profile is not None:
            Profile.user.field.set_cached_value(profile, user)  # profile.user
        users[user.pk] = user
    return users


def _players_sql(connection: BaseDatabaseWrapper, count: int) -> str:
    return (
        f"SELECT {_USER.columns(connection)}, {_PROFILE.columns(connection)} "
        f"FROM {_USER.source(connection)} LEFT JOIN {_PROFILE.source(connection)} "
        f"ON {_PROFILE.column('user_id', connection)} = {_USER.column('id', connection)} "
        f"WHERE {_USER.column('id', connection)} IN ({', '.join(['%s'] * count)})"
    )


def turns(game: Game) -> list[Move]:
    """``game``'s recorded turns in order, as ``game.moves.order_by("ply")``."""
    connection = _connection()
    with connection.cursor() as cursor:
        cursor.execute(sql_once("turns", connection, _turns_sql), [game.pk])
        rows = cursor.fetchall()
    found = [_TURN.instance(row, connection) for row in rows]
    for move in found:
        Move.game.field.set_cached_value(move, game)  # move.game, without a query
    return found


def _turns_sql(connection: BaseDatabaseWrapper) -> str:
    return (
        f"SELECT {_TURN.columns(connection)} FROM {_TURN.source(connection)} "
        f"WHERE {_TURN.column('game_id', connection)} = %s "
        f"ORDER BY {_TURN.column('ply', connection)}"
    )


def turn_insert(move: Move) -> Move:
    """Append ``move`` (a new row) as ``Move.objects.create`` would."""
    _TURN.insert(move, using=DEFAULT_DB_ALIAS)
    return move


def game_columns_save(game: Game, attnames: list[str]) -> None:
    """Write ``attnames`` of ``game``, as ``game.save(update_fields=attnames)`` would."""
    _GAME.update(game, attnames, using=DEFAULT_DB_ALIAS)


def _connection() -> BaseDatabaseWrapper:
    return connections[DEFAULT_DB_ALIAS]
