"""Writes to the world ranking: results in, ratings updated in the same transaction.

The ranking hears of games' results (``rankings.receivers``, inside the games' transaction):
`rating_game_finished` when a rated game ends and `rating_game_changed` when a moderator
annuls a game or adjudicates a new result, both inside the games' own
`transaction.atomic()`. A result that finishes after every result already rated updates its
two players in place; anything else (a result out of order, an annulment, an adjudication,
an import) rebuilds every rating from the full history. Both paths go through
`rankings.rating.history.rate_game`, so they give the same floats.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, time
from typing import Any

from django.db import connection, transaction
from django.db.models import Q

from celticsite.celery import task_delay_on_commit
from rankings.conf import rating_params
from rankings.csvimport import SCORES, ImportedResult
from rankings.models import (
    Player,
    PlayerRating,
    RankingUpdate,
    RatedResult,
    RatingSnapshot,
)
from rankings.ranking import (  # the stored ranking, which the rating transactions update
    ranking_rebuild_in_recompute,
    utc_date,
)
from rankings.rating.history import (
    GameRecord,
    GameStep,
    PlayerState,
    rate_game,
    replay_steps,
)

#: The game status under which a game's result does not count.
ANNULLED_STATUS = "annulled"


@dataclass(frozen=True, slots=True)
class RecomputeSummary:
    results: int
    annulled: int
    players: int
    changed: int
    history_rows_written: int


@dataclass(frozen=True, slots=True)
class ImportSummary:
    results: int
    new_players: int
    recompute: RecomputeSummary


def player_for_user(*, user: Any) -> Player:
    """The ranking player of a site user, created on first need.

    The name is the username (with the user id appended if an imported player already has
    that name: linking an imported person to an account is a moderator's decision, made in
    the admin). The country follows the user's profile when it has one.
    """
    country = getattr(getattr(user, "profile", None), "country", "") or ""
    player = Player.objects.filter(user=user).first()
    if player is None:
        name = user.get_username()
        if Player.objects.filter(name=name).exists():
            name = f"{name} ({user.pk})"
        player = Player.objects.create(user=user, name=name, country=country)
    elif country and player.country != country:
        player.country = country
        player.save(update_fields=["country"])
    return player


def _game_score(game: Any) -> float | None:
    """Orange's score if the game counts for the ranking, else None."""
    if not game.rated or game.status == ANNULLED_STATUS or game.finished_at is None:
        return None
    return SCORES.get(game.result)


def _tournament_name(game: Any) -> str:
    tournament = getattr(game, "tournament", None)
    return str(getattr(tournament, "name", "") or "") if tournament is not None else ""


@transaction.atomic
def rating_game_finished(*, game: Any) -> RatedResult | None:
    """Record a finished game's result and move both players' ratings.

    Does nothing for an unrated game or one without a result; safe to call twice.
    """
    if RatedResult.objects.filter(game_id=game.pk).exists():
        return rating_game_changed(game=game)
    score = _game_score(game)
    if score is None:
        return None
    result = RatedResult.objects.create(
        player1=player_for_user(user=game.orange),
        player2=player_for_user(user=game.blue),
        score1=score,
        finished_at=game.finished_at,
        game_id=game.pk,
        source=RatedResult.Source.GAME,
        tournament_name=_tournament_name(game),
    )
    _rate_new_result(result)
    return result


@transaction.atomic
def rating_game_changed(*, game: Any) -> RatedResult | None:
    """Bring the ranking in line with a game a moderator annulled or adjudicated.

    The result row is kept (marked annulled when the game no longer counts) and every
    rating is rebuilt from the history.
    """
    result = RatedResult.objects.select_for_update().filter(game_id=game.pk).first()
    score = _game_score(game)
    if result is None:
        return rating_game_finished(game=game) if score is not None else None
    since = min(result.finished_at, game.finished_at or result.finished_at)
    if score is None:
        changed = not result.annulled
        result.annulled = True
    else:
        changed = (
            result.annulled or result.score1 != score or result.finished_at != game.finished_at
        )
        result.annulled = False
        result.score1 = score
        result.finished_at = game.finished_at
    if changed:
        result.save(update_fields=["annulled", "score1", "finished_at"])
        ratings_recompute(since=since)
    return result


def _locked_ratings(player_ids: Iterable[int]) -> dict[int, PlayerRating]:
    """The rating rows of these players, created if missing, locked in id order."""
    params = rating_params()
    ids = sorted(set(player_ids))
    existing = set(
        PlayerRating.objects.filter(player_id__in=ids).values_list("player_id", flat=True)
    )
    PlayerRating.objects.bulk_create(
        [
            PlayerRating.from_state(player_id=player_id, state=PlayerState.new(params))
            for player_id in ids
            if player_id not in existing
        ],
        ignore_conflicts=True,
    )
    return {
        rating.player_id: rating
        for rating in PlayerRating.objects.select_for_update()
        .filter(player_id__in=ids)
        .order_by("pk")
    }


def _rate_new_result(result: RatedResult) -> None:
    """Rate one new result: in place if it is either player's latest, else by a full
    recomputation.

    A game moves only its two players' ratings, so later results between other players
    commute with it: rating it now gives the numbers of a replay in order. (Two games that
    finish together, the later committing first, would otherwise replay the whole history
    in the first one's request, with every rating row locked.) The players' rows are locked
    before looking for their later results, so a concurrent one that committed first is
    seen and forces the recomputation.
    """
    players = [result.player1_id, result.player2_id]
    ratings = _locked_ratings(players)
    later = (
        RatedResult.objects.filter(Q(player1_id__in=players) | Q(player2_id__in=players))
        .filter(annulled=False)
        .filter(
            Q(finished_at__gt=result.finished_at)
            | Q(finished_at=result.finished_at, id__gt=result.id)
        )
        .exists()
    )
    if later:
        ratings_recompute(since=result.finished_at)
        return
    rating1, rating2 = ratings[result.player1_id], ratings[result.player2_id]
    before1, before2 = rating1.to_state(), rating2.to_state()
    record = _record(result.player1_id, result.player2_id, result.score1, result.finished_at)
    after1, after2 = rate_game(
        state1=before1,
        state2=before2,
        score1=record.score1,
        played_on=record.played_on,
        params=rating_params(),
    )
    rating1.set_state(after1)
    rating2.set_state(after2)
    rating1.save()
    rating2.save()
    _write_snapshots(
        _snapshot_rows(
            result.id, result.finished_at, GameStep(record, before1, before2, after1, after2)
        )
    )
    _ranking_update_later(changed_since=result.finished_at)


def _record(
    player1_id: int, player2_id: int, score1: float, finished_at: datetime
) -> GameRecord[int]:
    return GameRecord(player1_id, player2_id, score1, utc_date(finished_at))


SNAPSHOT_FIELDS = (
    "result_id", "player_id", "opponent_id", "finished_at", "score", "games", "elo_before",
    "elo_after", "opponent_elo_before", "glicko_rating", "glicko_rd", "glicko_volatility",
)  # fmt: skip


def _snapshot_rows(result_id: int, finished_at: datetime, step: GameStep[int]) -> list[tuple]:
    """The two RatingSnapshot rows of one rated game, as SNAPSHOT_FIELDS tuples ready for the
    database (the datetime adapted for the backend)."""
    r = step.record
    finished_at = connection.ops.adapt_datetimefield_value(finished_at)
    return [
        (
            result_id, player_id, opponent_id, finished_at, score, after.elo.games,
            before.elo.rating, after.elo.rating, opponent_before.elo.rating,
            after.glicko.rating, after.glicko.rd, after.glicko.volatility,
        )
        for player_id, opponent_id, score, before, after, opponent_before in (
            (r.player1, r.player2, r.score1, step.before1, step.after1, step.before2),
            (r.player2, r.player1, 1.0 - r.score1, step.before2, step.after2, step.before1),
        )
    ]  # fmt: skip


def _write_snapshots(rows: list[tuple], *, update: bool = False) -> None:
    """Insert snapshot rows (or, with `update`, rewrite the rows whose id ends each tuple).

    A recomputation writes up to two rows per result, so this goes around the ORM's
    per-object work: on PostgreSQL the rows go in with COPY (an update copies them into a
    temporary table and updates from it in one statement); elsewhere with multi-row INSERTs
    (an update: one executemany). See docs/BENCHMARKS.md. The rows come from
    `_snapshot_rows`, whose datetime is already adapted for the backend; the rest are ints
    and floats.
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


def _update_ratings(ratings: list[PlayerRating]) -> None:
    """Save changed PlayerRating rows with one executemany (bulk_update's CASE expressions
    cost seconds for a few thousand players)."""
    if not ratings:
        return
    meta = PlayerRating._meta
    quote = connection.ops.quote_name
    fields = [field for field in meta.concrete_fields if not field.primary_key]
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in fields)
    sql = f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"
    rows = [
        (
            *(
                field.get_db_prep_save(getattr(rating, field.attname), connection)
                for field in fields
            ),
            rating.pk,
        )
        for rating in ratings
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


def _stored_snapshots(*, since: datetime | None) -> dict[tuple[int, int], tuple[int, tuple]]:
    """Stored snapshot rows (from `since` on) by (result id, player id): (row id, the row as
    SNAPSHOT_FIELDS in the database's own representation, comparable with `_snapshot_rows`)."""
    meta = RatingSnapshot._meta
    quote = connection.ops.quote_name
    columns = ", ".join(quote(meta.get_field(name).column) for name in ("id", *SNAPSHOT_FIELDS))
    sql = f"SELECT {columns} FROM {quote(meta.db_table)}"
    params: list[Any] = []
    if since is not None:
        sql += f" WHERE {quote(meta.get_field('finished_at').column)} >= %s"
        params.append(connection.ops.adapt_datetimefield_value(since))
    adapt = connection.ops.adapt_datetimefield_value  # SQLite reads back a naive datetime
    position = SNAPSHOT_FIELDS.index("finished_at") + 1
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return {
            (row[1], row[2]): (
                row[0],
                (*row[1:position], adapt(row[position]), *row[position + 1 :]),
            )
            for row in cursor.fetchall()
        }


@transaction.atomic
def ratings_recompute(*, since: datetime | None = None, batch_size: int = 5000) -> RecomputeSummary:
    """Rebuild every rating from the full history of results that count.

    Results are rated in order of finish time, then id, always from the very first, so the
    numbers are those of a replay from scratch. The stored rating history (snapshots) is
    compared from `since` on (everything when None; rows before it are unaffected by a change
    at `since`) and only rows that differ are written. All rating rows are locked first so
    no incremental update interleaves.
    """
    old = {
        rating.player_id: rating.to_state() for rating in PlayerRating.objects.select_for_update()
    }
    results = list(
        RatedResult.objects.filter(annulled=False)
        .order_by("finished_at", "id")
        .values_list("id", "player1_id", "player2_id", "score1", "finished_at")
    )
    states: dict[int, PlayerState] = {}
    history = _history_replay(results, states=states, since=since)
    _history_write(history, batch_size=batch_size)
    changed = _ratings_store(old, states, batch_size=batch_size)
    ranking_rebuild_in_recompute()
    return RecomputeSummary(
        results=len(results),
        annulled=RatedResult.objects.filter(annulled=True).count(),
        players=len(states),
        changed=changed,
        history_rows_written=history.rows_written,
    )


@dataclass(frozen=True, slots=True)
class _HistoryChanges:
    """How the replayed rating history differs from the stored snapshots."""

    new_rows: list[tuple]
    changed_rows: list[tuple]  # (*row, stored id)
    gone: list[int]  # stored ids no result of the replay has (annulled results' rows)

    @property
    def rows_written(self) -> int:
        return len(self.new_rows) + len(self.changed_rows) + len(self.gone)


def _history_replay(
    results: list[tuple[int, int, int, float, datetime]],
    *,
    states: dict[int, PlayerState],
    since: datetime | None,
) -> _HistoryChanges:
    """Rate ``results`` from scratch into ``states`` and compare the snapshot rows from
    ``since`` on with the stored ones."""
    stored = _stored_snapshots(since=since)
    records = (_record(p1, p2, score, finished_at) for _, p1, p2, score, finished_at in results)
    new_rows: list[tuple] = []
    changed_rows: list[tuple] = []
    for (result_id, _, _, _, finished_at), step in zip(
        results, replay_steps(records, params=rating_params(), states=states), strict=True
    ):
        if since is None or finished_at >= since:
            for row in _snapshot_rows(result_id, finished_at, step):
                stored_id, stored_row = stored.pop((row[0], row[1]), (None, None))
                if stored_id is None:
                    new_rows.append(row)
                elif stored_row != row:
                    changed_rows.append((*row, stored_id))
    gone = [stored_id for stored_id, _ in stored.values()]
    return _HistoryChanges(new_rows=new_rows, changed_rows=changed_rows, gone=gone)


def _history_write(history: _HistoryChanges, *, batch_size: int) -> None:
    """Delete, rewrite and add the snapshot rows that differ, ``batch_size`` at a time."""
    gone, changed_rows, new_rows = history.gone, history.changed_rows, history.new_rows
    for start in range(0, len(gone), batch_size):
        RatingSnapshot.objects.filter(pk__in=gone[start : start + batch_size]).delete()
    for start in range(0, len(changed_rows), batch_size):
        _write_snapshots(changed_rows[start : start + batch_size], update=True)
    for start in range(0, len(new_rows), batch_size):
        _write_snapshots(new_rows[start : start + batch_size])


def _ratings_store(
    old: dict[int, PlayerState], states: dict[int, PlayerState], *, batch_size: int
) -> int:
    """Bring the PlayerRating rows (``old``, as locked) in line with the replayed ``states``:
    delete, update and create only what differs. Answers how many players changed."""
    PlayerRating.objects.exclude(player_id__in=states).delete()
    to_update = [
        PlayerRating.from_state(player_id=player_id, state=state)
        for player_id, state in states.items()
        if player_id in old and old[player_id] != state
    ]
    to_create = [
        PlayerRating.from_state(player_id=player_id, state=state)
        for player_id, state in states.items()
        if player_id not in old
    ]
    _update_ratings(to_update)
    PlayerRating.objects.bulk_create(to_create, batch_size=batch_size)
    return len(to_update) + len(to_create) + len(set(old) - set(states))


@transaction.atomic
def results_import(*, results: list[ImportedResult]) -> ImportSummary:
    """Store past results (already validated) as rated results and rebuild the ratings.

    Players are matched by exact name and created when new. Each result finishes at 00:00
    UTC of its date; results of one date keep their order in the file.
    """
    names = {name for result in results for name in (result.player1, result.player2)}
    players = {player.name: player for player in Player.objects.filter(name__in=names)}
    new = [Player(name=name) for name in sorted(names - set(players))]
    Player.objects.bulk_create(new)
    players.update({player.name: player for player in Player.objects.filter(name__in=names)})
    ordered = sorted(results, key=lambda result: (result.played_on, result.line))
    RatedResult.objects.bulk_create(
        [
            RatedResult(
                player1=players[result.player1],
                player2=players[result.player2],
                score1=result.score1,
                finished_at=datetime.combine(result.played_on, time(0, 0), tzinfo=UTC),
                source=RatedResult.Source.IMPORT,
            )
            for result in ordered
        ],
        batch_size=5000,
    )
    return ImportSummary(results=len(results), new_players=len(new), recompute=ratings_recompute())


# --- The stored ranking -----------------------------------------------------------------------
#
def _ranking_update_later(*, changed_since: datetime) -> None:
    """Have the stored ranking follow a new result right after this transaction commits.

    Re-sorting the ranking costs about as much as the list is long; a move that finishes a
    rated game should not wait for it, nor hold the ranking's lock while its own
    transaction lasts. The result's ratings are written already; the ranking follows within
    moments, and many results finishing together cost one rewrite (``ranking_updates_apply``).
    """
    RankingUpdate.objects.create(changed_since=changed_since)
    _ranking_updates_queue()


def _ranking_updates_queue() -> None:
    """Ask a worker to apply the waiting updates once this transaction commits. A broker
    outage is logged, not raised: the update is safe in the database and the beat applies
    it within a minute."""
    from rankings.tasks import apply_ranking_updates

    task_delay_on_commit(
        apply_ranking_updates,
        on_outage="Could not queue the ranking update; the beat will apply it",
    )
