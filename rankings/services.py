"""Writes to the rankings: results in, ratings updated in the same transaction.

The ranking hears of games' results (``rankings.receivers``, inside the games' transaction):
`rating_game_finished` when a rated game ends and `rating_game_changed` when a moderator
annuls a game or adjudicates a new result, both inside the games' own
`transaction.atomic()`. A result is a finishing order, rated within its game kind: Elo and
Glicko-2 for the kinds of `rankings.conf.ELO_KINDS`, Plackett-Luce for the others. A result
that finishes after every result already rated of its players updates them in place;
anything else (a result out of order, an annulment, an adjudication, an import) rebuilds
every rating of the kind from the full history. Both paths go through the same function
(`rankings.rating.history.rate_game`, `rankings.rating.plackett_luce.rate_finish`), so
they give the same floats.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, time
from itertools import groupby
from typing import Any

from django.db import connection, transaction
from django.db.models import Q

from celticsite.celery import task_delay_on_commit
from rankings.conf import DEFAULT_KIND, rating_params, skill_params, uses_elo
from rankings.csvimport import PAIR_PLACES, ImportedResult
from rankings.models import (
    Player,
    PlayerRating,
    RankingUpdate,
    RatedPlacing,
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
from rankings.rating.plackett_luce import (
    FinishRecord,
    FinishStep,
    SkillState,
    check_finish,
    rate_finish,
    replay_finish_steps,
)
from rankings.snapshots import finish_rows, pair_rows, snapshots_stored, snapshots_write

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


def _game_placings(game: Any) -> list[tuple[Any, int]] | None:
    """Each player (seat order) with their finishing place if the game counts for the
    ranking, else None."""
    if not game.rated or game.status == ANNULLED_STATUS or game.finished_at is None:
        return None
    placings = list(game.placings())
    return placings if len(placings) >= 2 else None


def _finishing_order(placings: list[tuple[Any, int]]) -> tuple[list[int], list[int]]:
    """The ranking players' ids (seat order) and their places, checked."""
    player_ids = [player_for_user(user=user).pk for user, _ in placings]
    places = [place for _, place in placings]
    check_finish(player_ids, places)
    return player_ids, places


def _pair_columns(player_ids: list[int], places: list[int]) -> dict[str, Any]:
    """`player1`, `player2` and `score1` of a two-player result; empty for more players."""
    if len(player_ids) != 2:
        return {"player1_id": None, "player2_id": None, "score1": None}
    place1, place2 = places
    score1 = 1.0 if place1 < place2 else 0.5 if place1 == place2 else 0.0
    return {"player1_id": player_ids[0], "player2_id": player_ids[1], "score1": score1}


def _placings_create(result_id: int, player_ids: list[int], places: list[int]) -> None:
    RatedPlacing.objects.bulk_create(
        RatedPlacing(result_id=result_id, player_id=player_id, seat=seat, place=place)
        for seat, (player_id, place) in enumerate(zip(player_ids, places, strict=True), start=1)
    )


def _tournament_name(game: Any) -> str:
    tournament = getattr(game, "tournament", None)
    return str(getattr(tournament, "name", "") or "") if tournament is not None else ""


@transaction.atomic
def rating_game_finished(*, game: Any) -> RatedResult | None:
    """Record a finished game's finishing order and move its players' ratings in its kind.

    Does nothing for an unrated game or one without a result; safe to call twice.
    """
    if RatedResult.objects.filter(game_id=game.pk).exists():
        return rating_game_changed(game=game)
    placings = _game_placings(game)
    if placings is None:
        return None
    player_ids, places = _finishing_order(placings)
    result = RatedResult.objects.create(
        kind=game.kind,
        finished_at=game.finished_at,
        game_id=game.pk,
        source=RatedResult.Source.GAME,
        tournament_name=_tournament_name(game),
        **_pair_columns(player_ids, places),
    )
    _placings_create(result.pk, player_ids, places)
    _rate_new_result(result, player_ids=player_ids, places=places)
    return result


@transaction.atomic
def rating_game_changed(*, game: Any) -> RatedResult | None:
    """Bring the ranking in line with a game a moderator annulled or adjudicated.

    The result row is kept (marked annulled when the game no longer counts) and every
    rating of its kind is rebuilt from the history.
    """
    result = RatedResult.objects.select_for_update().filter(game_id=game.pk).first()
    placings = _game_placings(game)
    if result is None:
        return rating_game_finished(game=game) if placings is not None else None
    since = min(result.finished_at, game.finished_at or result.finished_at)
    if placings is None:
        changed = not result.annulled
        result.annulled = True
    else:
        player_ids, places = _finishing_order(placings)
        stored = list(result.placings.order_by("seat").values_list("player_id", "place"))
        order_changed = stored != list(zip(player_ids, places, strict=True))
        changed = order_changed or result.annulled or result.finished_at != game.finished_at
        result.annulled = False
        result.finished_at = game.finished_at
        for name, value in _pair_columns(player_ids, places).items():
            setattr(result, name, value)
        if order_changed:
            result.placings.all().delete()
            _placings_create(result.pk, player_ids, places)
    if changed:
        result.save(update_fields=["annulled", "player1", "player2", "score1", "finished_at"])
        ratings_recompute(since=since, kind=result.kind)
    return result


def _locked_ratings(player_ids: Iterable[int], *, kind: str) -> dict[int, PlayerRating]:
    """The rating rows of these players in ``kind``, created if missing, locked in id order."""
    ids = sorted(set(player_ids))
    existing = set(
        PlayerRating.objects.filter(player_id__in=ids, kind=kind).values_list(
            "player_id", flat=True
        )
    )
    PlayerRating.objects.bulk_create(
        [_new_rating(player_id, kind) for player_id in ids if player_id not in existing],
        ignore_conflicts=True,
    )
    return {
        rating.player_id: rating
        for rating in PlayerRating.objects.select_for_update()
        .filter(player_id__in=ids, kind=kind)
        .order_by("pk")
    }


def _new_rating(player_id: int, kind: str) -> PlayerRating:
    if uses_elo(kind):
        return PlayerRating.from_state(
            player_id=player_id, state=PlayerState.new(rating_params()), kind=kind
        )
    return PlayerRating.from_skill_state(player_id=player_id, state=SkillState.new(), kind=kind)


def _rate_new_result(result: RatedResult, *, player_ids: list[int], places: list[int]) -> None:
    """Rate one new result: in place if it is each of its players' latest in its kind, else
    by a full recomputation of the kind.

    A game moves only its own players' ratings, so later results between other players
    commute with it: rating it now gives the numbers of a replay in order. (Two games that
    finish together, the later committing first, would otherwise replay the whole history
    in the first one's request, with every rating row locked.) The players' rows are locked
    before looking for their later results, so a concurrent one that committed first is
    seen and forces the recomputation.
    """
    ratings = _locked_ratings(player_ids, kind=result.kind)
    later = (
        RatedPlacing.objects.filter(
            player_id__in=player_ids, result__kind=result.kind, result__annulled=False
        )
        .filter(
            Q(result__finished_at__gt=result.finished_at)
            | Q(result__finished_at=result.finished_at, result_id__gt=result.id)
        )
        .exists()
    )
    if later:
        ratings_recompute(since=result.finished_at, kind=result.kind)
        return
    if uses_elo(result.kind):
        rows = _rate_pair(result, ratings)
    else:
        rows = _rate_finish(result, ratings, player_ids=player_ids, places=places)
    snapshots_write(rows)
    _ranking_update_later(kind=result.kind, changed_since=result.finished_at)


def _rate_pair(result: RatedResult, ratings: dict[int, PlayerRating]) -> list[tuple]:
    """Elo and Glicko-2: move both players' ratings; answers the history rows."""
    assert result.player1_id is not None and result.player2_id is not None
    assert result.score1 is not None
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
    step = GameStep(record, before1, before2, after1, after2)
    return pair_rows(result.id, result.kind, result.finished_at, step)


def _rate_finish(
    result: RatedResult,
    ratings: dict[int, PlayerRating],
    *,
    player_ids: list[int],
    places: list[int],
) -> list[tuple]:
    """Plackett-Luce: move every player's rating; answers the history rows."""
    record = FinishRecord(tuple(player_ids), tuple(places), utc_date(result.finished_at))
    before = tuple(ratings[player_id].to_skill_state() for player_id in player_ids)
    after = rate_finish(states=before, places=places, played_on=record.played_on)
    for player_id, state in zip(player_ids, after, strict=True):
        ratings[player_id].set_skill_state(state)
        ratings[player_id].save()
    step = FinishStep(record, before, after)
    return finish_rows(result.id, result.kind, result.finished_at, step, skill_params())


def _record(
    player1_id: int, player2_id: int, score1: float, finished_at: datetime
) -> GameRecord[int]:
    return GameRecord(player1_id, player2_id, score1, utc_date(finished_at))


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


@transaction.atomic
def ratings_recompute(
    *, since: datetime | None = None, kind: str | None = None, batch_size: int = 5000
) -> RecomputeSummary:
    """Rebuild the ratings of ``kind`` (every kind when None) from the full history of
    results that count.

    Results are rated in order of finish time, then id, always from the very first, so the
    numbers are those of a replay from scratch. The stored rating history (snapshots) is
    compared from `since` on (everything when None; rows before it are unaffected by a change
    at `since`) and only rows that differ are written. All rating rows of the kind are
    locked first so no incremental update interleaves. The summary adds up the kinds.
    """
    kinds = [kind] if kind is not None else _kinds_on_record()
    summaries = [_recompute_kind(each, since=since, batch_size=batch_size) for each in kinds]
    return RecomputeSummary(
        *(
            sum(getattr(summary, name) for summary in summaries)
            for name in RecomputeSummary.__dataclass_fields__
        )
    )


def _kinds_on_record() -> list[str]:
    """The kinds with results or ratings stored, and the default kind."""
    # without the models' ordering, which DISTINCT would add to its columns: a row a kind
    kinds = set(RatedResult.objects.order_by().values_list("kind", flat=True).distinct())
    kinds |= set(PlayerRating.objects.order_by().values_list("kind", flat=True).distinct())
    return sorted(kinds | {DEFAULT_KIND})


AnyState = PlayerState | SkillState


def _recompute_kind(kind: str, *, since: datetime | None, batch_size: int) -> RecomputeSummary:
    old = {
        rating.player_id: (rating.pk, _state_of(rating))
        for rating in PlayerRating.objects.select_for_update().filter(kind=kind)
    }
    states: dict[int, Any] = {}
    if uses_elo(kind):
        pairs = _pair_results(kind)
        rows = _pair_replay_rows(kind, pairs, states=states, since=since)
        count = len(pairs)
    else:
        finishes = _finish_results(kind)
        rows = _finish_replay_rows(kind, finishes, states=states, since=since)
        count = len(finishes)
    history = _history_compare(rows, kind=kind, since=since)
    _history_write(history, batch_size=batch_size)
    changed = _ratings_store(old, states, kind=kind, batch_size=batch_size)
    ranking_rebuild_in_recompute(kind=kind)
    return RecomputeSummary(
        results=count,
        annulled=RatedResult.objects.filter(kind=kind, annulled=True).count(),
        players=len(states),
        changed=changed,
        history_rows_written=history.rows_written,
    )


def _state_of(rating: PlayerRating) -> AnyState:
    return rating.to_state() if uses_elo(rating.kind) else rating.to_skill_state()


def _pair_results(kind: str) -> list[tuple[int, int, int, float, datetime]]:
    """The counting results of an Elo kind in rating order: id, players, score1, finish."""
    return list(
        RatedResult.objects.filter(annulled=False, kind=kind)
        .order_by("finished_at", "id")
        .values_list("id", "player1_id", "player2_id", "score1", "finished_at")
    )


def _pair_replay_rows(
    kind: str,
    results: list[tuple[int, int, int, float, datetime]],
    *,
    states: dict[int, PlayerState],
    since: datetime | None,
) -> Iterator[tuple]:
    """Rate ``results`` with Elo and Glicko-2 from scratch into ``states``; yield the
    history rows of the results from ``since`` on."""
    records = (_record(p1, p2, score, finished_at) for _, p1, p2, score, finished_at in results)
    for (result_id, _, _, _, finished_at), step in zip(
        results, replay_steps(records, params=rating_params(), states=states), strict=True
    ):
        if since is None or finished_at >= since:
            yield from pair_rows(result_id, kind, finished_at, step)


Finish = tuple[int, datetime, tuple[int, ...], tuple[int, ...]]


def _finish_results(kind: str) -> list[Finish]:
    """The counting results of a Plackett-Luce kind in rating order: id, finish, the
    players in seat order and their places."""
    placings = (
        RatedPlacing.objects.filter(result__kind=kind, result__annulled=False)
        .order_by("result__finished_at", "result_id", "seat")
        .values_list("result_id", "result__finished_at", "player_id", "place")
    )
    results = []
    for (result_id, finished_at), rows in groupby(placings, key=lambda row: row[:2]):
        seats = list(rows)
        players = tuple(row[2] for row in seats)
        results.append((result_id, finished_at, players, tuple(row[3] for row in seats)))
    return results


def _finish_replay_rows(
    kind: str, results: list[Finish], *, states: dict[int, SkillState], since: datetime | None
) -> Iterator[tuple]:
    """Rate ``results`` with Plackett-Luce from scratch into ``states``; yield the history
    rows of the results from ``since`` on."""
    params = skill_params()
    records = (
        FinishRecord(players, places, utc_date(finished_at))
        for _, finished_at, players, places in results
    )
    for (result_id, finished_at, _, _), step in zip(
        results, replay_finish_steps(records, states=states), strict=True
    ):
        if since is None or finished_at >= since:
            yield from finish_rows(result_id, kind, finished_at, step, params)


@dataclass(frozen=True, slots=True)
class _HistoryChanges:
    """How the replayed rating history differs from the stored snapshots."""

    new_rows: list[tuple]
    changed_rows: list[tuple]  # (*row, stored id)
    gone: list[int]  # stored ids no result of the replay has (annulled results' rows)

    @property
    def rows_written(self) -> int:
        return len(self.new_rows) + len(self.changed_rows) + len(self.gone)


def _history_compare(
    rows: Iterable[tuple], *, kind: str, since: datetime | None
) -> _HistoryChanges:
    """Compare replayed history rows with the stored rows of ``kind`` from ``since`` on."""
    stored = snapshots_stored(kind=kind, since=since)
    new_rows: list[tuple] = []
    changed_rows: list[tuple] = []
    for row in rows:
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
        snapshots_write(changed_rows[start : start + batch_size], update=True)
    for start in range(0, len(new_rows), batch_size):
        snapshots_write(new_rows[start : start + batch_size])


def _rating_row(player_id: int, state: AnyState, *, kind: str, pk: int | None) -> PlayerRating:
    if isinstance(state, PlayerState):
        rating = PlayerRating.from_state(player_id=player_id, state=state, kind=kind)
    else:
        rating = PlayerRating.from_skill_state(player_id=player_id, state=state, kind=kind)
    rating.pk = pk
    return rating


def _ratings_store(
    old: dict[int, tuple[int, AnyState]],
    states: dict[int, AnyState],
    *,
    kind: str,
    batch_size: int,
) -> int:
    """Bring the PlayerRating rows of ``kind`` (``old``: pk and state, as locked) in line
    with the replayed ``states``: delete, update and create only what differs. Answers how
    many players changed."""
    PlayerRating.objects.filter(kind=kind).exclude(player_id__in=states).delete()
    to_update = [
        _rating_row(player_id, state, kind=kind, pk=old[player_id][0])
        for player_id, state in states.items()
        if player_id in old and old[player_id][1] != state
    ]
    to_create = [
        _rating_row(player_id, state, kind=kind, pk=None)
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
    stored = RatedResult.objects.bulk_create(
        [
            RatedResult(
                kind=DEFAULT_KIND,
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
    RatedPlacing.objects.bulk_create(
        [
            RatedPlacing(result=row, player_id=player_id, seat=seat, place=place)
            for row in stored
            for seat, player_id, place in zip(
                (1, 2), (row.player1_id, row.player2_id), PAIR_PLACES[row.score1], strict=True
            )
        ],
        batch_size=5000,
    )
    return ImportSummary(
        results=len(results),
        new_players=len(new),
        recompute=ratings_recompute(kind=DEFAULT_KIND),
    )


# --- The stored ranking -----------------------------------------------------------------------
#
def _ranking_update_later(*, kind: str, changed_since: datetime) -> None:
    """Have the stored ranking follow a new result right after this transaction commits.

    Re-sorting the ranking costs about as much as the list is long; a move that finishes a
    rated game should not wait for it, nor hold the ranking's lock while its own
    transaction lasts. The result's ratings are written already; the ranking follows within
    moments, and many results finishing together cost one rewrite (``ranking_updates_apply``).
    """
    RankingUpdate.objects.create(kind=kind, changed_since=changed_since)
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
