"""The stored ranking lists, one per game kind: the list's order, ranks, rank changes and
grown deviations, kept in ``RankingPosition`` for one UTC date and one set of settings.

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
from rankings.rating.plackett_luce import SkillState
from rankings.rating.standings import Standing, place_players, ranks_at


def utc_date(moment: datetime) -> date:
    """The UTC calendar date of an aware datetime: the date the rating maths sees."""
    return moment.astimezone(UTC).date()


# The list's order, ranks, rank changes and grown deviations are stored in RankingPosition
# for one UTC date and one set of settings (RankingState.key). Rating transactions update it
# before they commit; a new day (or changed settings) rebuilds it on the next read or by the
# daily task, whichever comes first.


def _ranking_key(today: date, kind: str) -> str:
    """What a stored ranking depends on besides the ratings: the date and the settings."""
    settings = repr(rating_params().glicko) if conf.uses_elo(kind) else repr(conf.skill_params())
    parts = [today.isoformat(), conf.rating_system(kind), str(conf.active_days()), settings]
    return "|".join(parts)


def _previous_cutoff(today: date) -> datetime:
    """Rank changes compare with the ranking as it stood at 00:00 UTC RANK_CHANGE_DAYS ago."""
    return datetime.combine(today - timedelta(days=conf.RANK_CHANGE_DAYS), time(0), tzinfo=UTC)


#: The history column holding the rating that orders a list, by rating system.
_HISTORY_RATING = {"elo": "elo_after", "glicko": "glicko_rating", conf.SKILL_SYSTEM: "rating_after"}


def _previous_ranks(*, kind: str, cutoff: datetime) -> dict[int, int]:
    """Each player's world rank in ``kind``'s ranking as it stood at `cutoff` (from the
    history)."""
    latest = RatingSnapshot.objects.filter(
        player=OuterRef("pk"), kind=kind, finished_at__lt=cutoff
    ).order_by("-finished_at", "-result_id")
    field = _HISTORY_RATING[conf.rating_system(kind)]
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


def _locked_ranking_state(kind: str) -> RankingState:
    RankingState.objects.bulk_create([RankingState(kind=kind)], ignore_conflicts=True)
    return RankingState.objects.select_for_update().get(kind=kind)


def _standings(kind: str, today: date) -> tuple[list[Standing], dict[int, int], dict]:
    """``kind``'s players with a rated game: their standings, rating row ids and Glicko-2
    deviations grown to ``today`` (None for a kind without Glicko-2)."""
    glicko_params = rating_params().glicko
    skill = conf.skill_params()
    system = conf.rating_system(kind)
    ratings = PlayerRating.objects.filter(kind=kind, games__gt=0).values_list(
        "pk", "player_id", "player__name", "elo", "glicko_rating", "glicko_rd",
        "glicko_volatility", "mu", "sigma", "last_played",
    )  # fmt: skip
    standings, rating_ids, deviations = [], {}, {}
    for pk, player_id, name, elo, g_rating, g_rd, g_vol, mu, sigma, last_played in ratings:
        rating_ids[player_id] = pk
        if system == conf.SKILL_SYSTEM:
            shown = SkillState(mu=mu, sigma=sigma).display(skill)
            deviations[player_id] = None
        else:
            shown = g_rating if system == "glicko" else elo
            deviations[player_id] = inactive_periods(
                player=GlickoState(rating=g_rating, rd=g_rd, volatility=g_vol),
                periods=empty_months_between(last_played, today),
                params=glicko_params,
            ).rd
        standings.append(Standing(player_id, name, shown, last_played))
    return standings, rating_ids, deviations


def _ranking_write(*, kind: str, today: date, previous: dict[int, int | None]) -> None:
    """Bring ``kind``'s stored ranking in line with its current ratings; write only what
    differs."""
    standings, rating_ids, deviations = _standings(kind, today)
    wanted = {
        p.player_id: (p.position, p.rank, previous.get(p.player_id), deviations[p.player_id])
        for p in place_players(standings, active_since=today - timedelta(days=conf.active_days()))
    }
    positions = RankingPosition.objects.filter(kind=kind)
    stored = {
        row[0]: row[1:]
        for row in positions.values_list(
            "player_id", "position", "rank", "previous_rank", "glicko_rd"
        )
    }
    positions.filter(player_id__in=set(stored) - set(wanted)).delete()
    RankingPosition.objects.bulk_create(
        [
            RankingPosition(
                rating_id=rating_ids[player_id],
                player_id=player_id,
                kind=kind,
                position=position,
                rank=rank,
                previous_rank=prev,
                glicko_rd=rd,
            )
            for player_id, (position, rank, prev, rd) in wanted.items()
            if player_id not in stored
        ],
        batch_size=1000,
    )
    changed = [
        (*row, player_id, kind)
        for player_id, row in wanted.items()
        if player_id in stored and stored[player_id] != row
    ]
    if changed:
        quote = connection.ops.quote_name
        table = quote(RankingPosition._meta.db_table)
        sql = (
            f"UPDATE {table} SET {quote('position')} = %s, {quote('rank')} = %s, "
            f"{quote('previous_rank')} = %s, {quote('glicko_rd')} = %s "
            f"WHERE {quote('player_id')} = %s AND {quote('kind')} = %s"
        )
        with connection.cursor() as cursor:
            cursor.executemany(sql, changed)


def ranking_rebuild_in_recompute(*, kind: str) -> None:
    """Rebuild ``kind``'s stored ranking inside a recomputation (ratings already written),
    rank changes included; it covers every update of the kind still waiting for its task."""
    _ranking_rewrite_waiting(_locked_ranking_state(kind), full=True)


def _ranking_rewrite_waiting(state: RankingState, *, full: bool) -> bool:
    """Rewrite the stored ranking of ``state``'s kind (``state`` locked) for every
    ``RankingUpdate`` of it waiting, and drop them; with ``full``, rebuild the rank changes
    too, even with nothing waiting. Returns whether it rewrote."""
    waiting = list(RankingUpdate.objects.filter(kind=state.kind).values_list("pk", "changed_since"))
    if not waiting and not full:
        return False
    changed_since = None if full else min(since for _, since in waiting)
    _ranking_rewrite(state, changed_since=changed_since)
    RankingUpdate.objects.filter(pk__in=[pk for pk, _ in waiting]).delete()
    return True


def _ranking_rewrite(state: RankingState, *, changed_since: datetime | None) -> None:
    """Rewrite the stored ranking of ``state``'s kind; ``state`` is locked.

    Rank changes come from the history before the cutoff, which a result finishing after
    the cutoff leaves alone: then the stored previous ranks are kept. `changed_since=None`
    (a recomputation) or a stale stored ranking rebuilds them too.
    """
    kind = state.kind
    now = timezone.now()
    today = utc_date(now)
    key = _ranking_key(today, kind)
    cutoff = _previous_cutoff(today)
    if state.key == key and changed_since is not None and changed_since >= cutoff:
        previous = dict(
            RankingPosition.objects.filter(kind=kind).values_list("player_id", "previous_rank")
        )
    else:
        previous = dict(_previous_ranks(kind=kind, cutoff=cutoff))
    _ranking_write(kind=kind, today=today, previous=previous)
    state.key, state.built_at = key, now
    state.save()


def ranking_updates_apply() -> bool:
    """Bring every stored ranking in line with the rated results it does not show yet, one
    rewrite per kind. Returns whether there was anything to apply; cheap (one query) when
    not."""
    kinds = sorted(set(RankingUpdate.objects.values_list("kind", flat=True)))
    applied = False
    for kind in kinds:
        with transaction.atomic():  # under the lock, a concurrent run may have applied them
            applied = _ranking_rewrite_waiting(_locked_ranking_state(kind), full=False) or applied
    return applied


def ranking_refresh(
    *, kind: str = conf.DEFAULT_KIND, now: datetime | None = None, force: bool = False
) -> bool:
    """Rebuild ``kind``'s stored ranking if it was built for another date or other settings
    (or always, with `force`). Returns whether it was rebuilt. Cheap when it is current."""
    now = now or timezone.now()
    today = utc_date(now)
    key = _ranking_key(today, kind)
    if not force and RankingState.objects.filter(kind=kind, key=key).exists():
        return False
    with transaction.atomic():
        state = _locked_ranking_state(kind)
        if not force and state.key == key:  # rebuilt by someone else meanwhile
            return False
        previous = dict(_previous_ranks(kind=kind, cutoff=_previous_cutoff(today)))
        _ranking_write(kind=kind, today=today, previous=previous)
        state.key, state.built_at = key, now
        state.save()
    return True


def rankings_refresh_all(*, now: datetime | None = None) -> bool:
    """Rebuild every kind's stale stored ranking (the kinds with ratings, and the default
    one). Returns whether any was rebuilt."""
    kinds = set(PlayerRating.objects.values_list("kind", flat=True).distinct())
    rebuilt = [ranking_refresh(kind=kind, now=now) for kind in sorted(kinds | {conf.DEFAULT_KIND})]
    return any(rebuilt)
