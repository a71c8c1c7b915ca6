"""Reads from the world ranking: the ranking list, a player's history and tournaments."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import QuerySet

from rankings import conf
from rankings.models import Player, RankingPosition, RatingSnapshot
from rankings.ranking import ranking_refresh
from rankings.rating.performance import performance_rating


@dataclass(frozen=True, slots=True)
class RankingEntry:
    """One row of the ranking list. `rank` is None for an inactive player."""

    rank: int | None
    previous_rank: int | None
    player_id: int
    name: str
    country: str
    elo: float
    elo_peak: float
    glicko_rating: float
    glicko_rd: float
    glicko_volatility: float
    games: int
    provisional: bool
    active: bool
    last_played: date
    username: str | None = None
    """The site account's username, for the link to the player page; None for an import."""

    @property
    def rank_change(self) -> int | None:
        """Places gained (positive) or lost since RANK_CHANGE_DAYS ago; None if unranked."""
        if self.rank is None or self.previous_rank is None:
            return None
        return self.previous_rank - self.rank

    @property
    def rating(self) -> float:
        """The rating that orders the list (RATING_ORDER_BY)."""
        return self.glicko_rating if conf.order_by() == "glicko" else self.elo


#: The columns of a stored ranking row, as `ranking_rows` reads them.
RANKING_COLUMNS = (
    "rank", "previous_rank", "player_id", "player__name", "player__country",
    "player__rating__elo", "player__rating__elo_peak", "player__rating__glicko_rating",
    "glicko_rd", "player__rating__glicko_volatility", "player__rating__games",
    "player__rating__last_played", "player__user__username", "position",
)  # fmt: skip


def ranking_rows(
    *, country: str = "", include_inactive: bool = False, now: datetime | None = None
) -> QuerySet[RankingPosition, tuple]:
    """The stored ranking in list order (see `ranking_list`) as named rows, ready to
    paginate (by cursor on ``position``, unique within the stored list); each row becomes
    an entry with `ranking_entry`. Rebuilds the stored ranking first if it is not the one
    for today and the current settings."""
    ranking_refresh(now=now)
    rows = RankingPosition.objects.order_by("position", "player_id")
    if not include_inactive:
        rows = rows.filter(rank__isnull=False)
    if country:
        rows = rows.filter(player__country=country)
    return rows.values_list(*RANKING_COLUMNS, named=True)


def ranking_entry(row: tuple) -> RankingEntry:
    """One stored ranking row (`RANKING_COLUMNS`) as the list shows it."""
    (
        rank, previous_rank, player_id, name, country, elo, elo_peak, glicko_rating,
        glicko_rd, glicko_volatility, games, last_played, username, _position,
    ) = row  # fmt: skip
    return RankingEntry(
        rank=rank,
        previous_rank=previous_rank if rank is not None else None,
        player_id=player_id,
        name=name,
        country=country,
        elo=elo,
        elo_peak=elo if elo_peak is None else elo_peak,
        glicko_rating=glicko_rating,
        glicko_rd=glicko_rd,
        glicko_volatility=glicko_volatility,
        games=games,
        provisional=games < conf.provisional_games(),
        active=rank is not None,
        last_played=last_played,
        username=username,
    )


def ranking_list(
    *, country: str = "", include_inactive: bool = False, now: datetime | None = None
) -> list[RankingEntry]:
    """The ranking: active players by rating (RATING_ORDER_BY), best first, then (if asked)
    inactive players without a rank. Ranks are world ranks, also when filtered by country."""
    rows = ranking_rows(country=country, include_inactive=include_inactive, now=now)
    return [ranking_entry(row) for row in rows]


def ranking_countries() -> list[str]:
    """The countries of players with at least one rated game, for the filter."""
    return sorted(
        Player.objects.filter(rating__games__gt=0)
        .exclude(country="")
        .values_list("country", flat=True)
        .distinct()
    )


def player_get(*, player_id: int) -> Player | None:
    return Player.objects.filter(pk=player_id).first()


def player_entry(*, player: Player, now: datetime | None = None) -> RankingEntry | None:
    """The player's row of the ranking (with their rank if active); None before any game."""
    row = ranking_rows(include_inactive=True, now=now).filter(player_id=player.pk).first()
    return None if row is None else ranking_entry(row)


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One rated game from one player's side, with their ratings after it."""

    result_id: int
    game_id: int | None
    finished_at: datetime
    opponent_id: int
    opponent_name: str
    opponent_elo: float
    score: float
    tournament_name: str
    elo_before: float
    elo_after: float
    glicko_rating: float
    glicko_rd: float

    @property
    def elo_change(self) -> float:
        return self.elo_after - self.elo_before


def player_history(*, player: Player) -> list[HistoryEntry]:
    """The player's rated games, oldest first (annulled games are not in it)."""
    snapshots = (
        RatingSnapshot.objects.filter(player=player)
        .select_related("opponent", "result")
        .order_by("finished_at", "result_id")
    )
    return [
        HistoryEntry(
            result_id=s.result_id,
            game_id=s.result.game_id,
            finished_at=s.finished_at,
            opponent_id=s.opponent_id,
            opponent_name=s.opponent.name,
            opponent_elo=s.opponent_elo_before,
            score=s.score,
            tournament_name=s.result.tournament_name,
            elo_before=s.elo_before,
            elo_after=s.elo_after,
            glicko_rating=s.glicko_rating,
            glicko_rd=s.glicko_rd,
        )
        for s in snapshots
    ]


@dataclass(frozen=True, slots=True)
class TournamentPerformance:
    tournament_name: str
    games: int
    score: float
    average_opponent_elo: float
    performance: float
    elo_change: float
    first_played: datetime
    last_played: datetime


def player_tournaments(*, history: list[HistoryEntry]) -> list[TournamentPerformance]:
    """Score and performance rating (against opponents' Elo before each game) per
    tournament, most recent first. Games outside tournaments are left out."""
    groups: dict[str, list[HistoryEntry]] = defaultdict(list)
    for entry in history:
        if entry.tournament_name:
            groups[entry.tournament_name].append(entry)
    performances = []
    for name, games in groups.items():
        opponents = [game.opponent_elo for game in games]
        score = sum(game.score for game in games)
        performances.append(
            TournamentPerformance(
                tournament_name=name,
                games=len(games),
                score=score,
                average_opponent_elo=sum(opponents) / len(opponents),
                performance=performance_rating(opponent_ratings=opponents, score=score),
                elo_change=sum(game.elo_change for game in games),
                first_played=games[0].finished_at,
                last_played=games[-1].finished_at,
            )
        )
    performances.sort(key=lambda p: p.last_played, reverse=True)
    return performances


@dataclass(frozen=True, slots=True)
class RatingChange:
    """How one rated game moved a player's Elo rating (for the result email)."""

    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before

    @property
    def signed_delta(self) -> str:
        """The change with its sign, e.g. "+16", "-16" or "±0"."""
        return f"{self.delta:+d}" if self.delta else "±0"


def rating_change_for_game(*, game_id: int, user_id: int) -> RatingChange | None:
    """The Elo rating ``user_id`` had before and after the rated game ``game_id``, rounded
    as the ranking shows it; None for an unrated or annulled game, or another player."""
    snapshot = (
        RatingSnapshot.objects.filter(
            result__game_id=game_id, result__annulled=False, player__user_id=user_id
        )
        .only("elo_before", "elo_after")
        .first()
    )
    if snapshot is None:
        return None
    return RatingChange(before=round(snapshot.elo_before), after=round(snapshot.elo_after))
