"""The stored world ranking: the list's order, ranks, rank changes and grown deviations,
kept in ``RankingPosition`` for one UTC date and one set of settings.

The rating services (``rankings.services``) write the ratings and leave a ``RankingUpdate``;
the task ``apply_ranking_updates`` (``ranking_updates_apply``) brings the list in line right
after their commit, and ``ranking_refresh`` rebuilds it for a new day. Kept apart from the
services so the tasks can call it while the services queue the tasks.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from django.db import connection, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from rankings import conf
from rankings.conf import rating_params
from rankings.models import (
    Player,
    PlayerRating,
    RankingPosition,
    RankingState,
    RankingUpdate,
    RatingSnapshot,
)
from rankings.rating.glicko2 import GlickoState, inactive_periods
from rankings.rating.history import empty_months_between
from rankings.rating.standings import Standing, place_players, ranks_at


def utc_date(moment: datetime) -> date:
    """The UTC calendar date of an aware datetime: the date the rating maths sees."""
    return moment.astimezone(UTC).date()


# The list's order, ranks, rank changes and grown deviations are stored in RankingPosition
# for one UTC date and one set of settings (RankingState.key). Rating transactions update it
# before they commit; a new day (or changed settings) rebuilds it on the next read or by the
# daily task, whichever comes first.


def _ranking_key(today: date) -> str:
    """What the stored ranking depends on besides the ratings: the date and the settings."""
    return "|".join(
        [today.isoformat(), conf.order_by(), str(conf.active_days()), repr(rating_params().glicko)]
    )


def _previous_cutoff(today: date) -> datetime:
    """Rank changes compare with the ranking as it stood at 00:00 UTC RANK_CHANGE_DAYS ago."""
    return datetime.combine(today - timedelta(days=conf.RANK_CHANGE_DAYS), time(0), tzinfo=UTC)


def _previous_ranks(*, cutoff: datetime) -> dict[int, int]:
    """Each player's world rank in the ranking as it stood at `cutoff` (from the history)."""
    latest = RatingSnapshot.objects.filter(player=OuterRef("pk"), finished_at__lt=cutoff).order_by(
        "-finished_at", "-result_id"
    )
    field = "glicko_rating" if conf.order_by() == "glicko" else "elo_after"
    rows = (
        Player.objects.annotate(
            then_rating=Subquery(latest.values(field)[:1]),
            then_played=Subquery(latest.values("finished_at")[:1]),
        )
        .filter(then_played__isnull=False)
        .values_list("pk", "name", "then_rating", "then_played")
    )
    standings = (Standing(pk, name, rating, utc_date(played)) for pk, name, rating, played in rows)
    return ranks_at(standings, active_since=utc_date(cutoff) - timedelta(days=conf.active_days()))


def _locked_ranking_state() -> RankingState:
    RankingState.objects.bulk_create([RankingState(pk=1)], ignore_conflicts=True)
    return RankingState.objects.select_for_update().get(pk=1)


def _ranking_write(*, today: date, previous: dict[int, int | None]) -> None:
    """Bring the stored ranking in line with the current ratings; write only what differs."""
    params = rating_params()
    by_glicko = conf.order_by() == "glicko"
    ratings = PlayerRating.objects.filter(games__gt=0).values_list(
        "player_id", "player__name", "elo", "glicko_rating", "glicko_rd",
        "glicko_volatility", "last_played",
    )  # fmt: skip
    standings, deviations = [], {}
    for player_id, name, elo, g_rating, g_rd, g_volatility, last_played in ratings:
        standings.append(Standing(player_id, name, g_rating if by_glicko else elo, last_played))
        grown = inactive_periods(
            player=GlickoState(rating=g_rating, rd=g_rd, volatility=g_volatility),
            periods=empty_months_between(last_played, today),
            params=params.glicko,
        )
        deviations[player_id] = grown.rd
    wanted = {
        p.player_id: (p.position, p.rank, previous.get(p.player_id), deviations[p.player_id])
        for p in place_players(standings, active_since=today - timedelta(days=conf.active_days()))
    }
    stored = {
        row[0]: row[1:]
        for row in RankingPosition.objects.values_list(
            "player_id", "position", "rank", "previous_rank", "glicko_rd"
        )
    }
    RankingPosition.objects.filter(player_id__in=set(stored) - set(wanted)).delete()
    RankingPosition.objects.bulk_create(
        [
            RankingPosition(
                player_id=player_id, position=position, rank=rank, previous_rank=prev, glicko_rd=rd
            )
            for player_id, (position, rank, prev, rd) in wanted.items()
            if player_id not in stored
        ],
        batch_size=1000,
    )
    changed = [
        (*row, player_id)
        for player_id, row in wanted.items()
        if player_id in stored and stored[player_id] != row
    ]
    if changed:
        quote = connection.ops.quote_name
        table = quote(RankingPosition._meta.db_table)
        sql = (
            f"UPDATE {table} SET {quote('position')} = %s, {quote('rank')} = %s, "
            f"{quote('previous_rank')} = %s, {quote('glicko_rd')} = %s "
            f"WHERE {quote('player_id')} = %s"
        )
        with connection.cursor() as cursor:
            cursor.executemany(sql, changed)


def ranking_rebuild_in_recompute() -> None:
    """Rebuild the stored ranking inside a recomputation (ratings already written), rank
    changes included; it covers every update still waiting for its task."""
    _ranking_rewrite_waiting(_locked_ranking_state(), full=True)


def _ranking_rewrite_waiting(state: RankingState, *, full: bool) -> bool:
    """Rewrite the stored ranking (``state`` locked) for every ``RankingUpdate`` waiting, and
    drop them; with ``full``, rebuild the rank changes too, even with nothing waiting.
    Returns whether it rewrote."""
    waiting = list(RankingUpdate.objects.values_list("pk", "changed_since"))
    if not waiting and not full:
        return False
    changed_since = None if full else min(since for _, since in waiting)
    _ranking_rewrite(state, changed_since=changed_since)
    RankingUpdate.objects.filter(pk__in=[pk for pk, _ in waiting]).delete()
    return True


def _ranking_rewrite(state: RankingState, *, changed_since: datetime | None) -> None:
    """Rewrite the stored ranking; ``state`` is locked.

    Rank changes come from the history before the cutoff, which a result finishing after
    the cutoff leaves alone: then the stored previous ranks are kept. `changed_since=None`
    (a recomputation) or a stale stored ranking rebuilds them too.
    """
    now = timezone.now()
    today = utc_date(now)
    key = _ranking_key(today)
    cutoff = _previous_cutoff(today)
    if state.key == key and changed_since is not None and changed_since >= cutoff:
        previous = dict(RankingPosition.objects.values_list("player_id", "previous_rank"))
    else:
        previous = dict(_previous_ranks(cutoff=cutoff))
    _ranking_write(today=today, previous=previous)
    state.key, state.built_at = key, now
    state.save()


def ranking_updates_apply() -> bool:
    """Bring the stored ranking in line with every rated result it does not show yet, in one
    rewrite. Returns whether there was anything to apply; cheap (one query) when not."""
    if not RankingUpdate.objects.exists():
        return False
    with transaction.atomic():  # under the lock, a concurrent run may have applied them
        return _ranking_rewrite_waiting(_locked_ranking_state(), full=False)


def ranking_refresh(*, now: datetime | None = None, force: bool = False) -> bool:
    """Rebuild the stored ranking if it was built for another date or other settings (or
    always, with `force`). Returns whether it was rebuilt. Cheap when it is current."""
    now = now or timezone.now()
    today = utc_date(now)
    key = _ranking_key(today)
    if not force and RankingState.objects.filter(pk=1, key=key).exists():
        return False
    with transaction.atomic():
        state = _locked_ranking_state()
        if not force and state.key == key:  # rebuilt by someone else meanwhile
            return False
        _ranking_write(today=today, previous=dict(_previous_ranks(cutoff=_previous_cutoff(today))))
        state.key, state.built_at = key, now
        state.save()
    return True
