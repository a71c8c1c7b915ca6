"""Reads from the rankings (one per game kind): the ranking list, a player's history and
tournaments, the rating change of a game."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import QuerySet

from games.kinds import KindError, all_kinds, get_kind
from rankings import conf
from rankings.models import Player, RankingPosition, RatedResult, RatingSnapshot
from rankings.ranking import ranking_refresh
from rankings.rating.performance import performance_rating
from rankings.rating.plackett_luce import SkillState


@dataclass(frozen=True, slots=True)
class RankingEntry:
    """One row of a kind's ranking list. `rank` is None for an inactive player. An Elo kind
    fills the Elo and Glicko-2 fields, another kind `mu`, `sigma` and `skill` (the shown
    Plackett-Luce rating)."""

    rank: int | None
    previous_rank: int | None
    player_id: int
    name: str
    country: str
    elo: float | None
    elo_peak: float | None
    glicko_rating: float | None
    glicko_rd: float | None
    glicko_volatility: float | None
    games: int
    provisional: bool
    active: bool
    last_played: date
    username: str | None = None
    """The site account's username, for the link to the player page; None for an import."""
    kind: str = conf.DEFAULT_KIND
    mu: float | None = None
    sigma: float | None = None
    skill: float | None = None

    @property
    def rank_change(self) -> int | None:
        """Places gained (positive) or lost since RANK_CHANGE_DAYS ago; None if unranked."""
        if self.rank is None or self.previous_rank is None:
            return None
        return self.previous_rank - self.rank

    @property
    def rating_system(self) -> str:
        """What orders the list: "elo" or "glicko" (RATING_ORDER_BY), or "openskill-pl"."""
        return conf.rating_system(self.kind)

    @property
    def rating(self) -> float:
        """The rating that orders the list."""
        system = self.rating_system
        value = {"glicko": self.glicko_rating, "elo": self.elo}.get(system, self.skill)
        assert value is not None, f"a {system} list entry without its rating"
        return value


#: The columns of a stored ranking row, as `ranking_rows` reads them.
RANKING_COLUMNS = (
    "rank", "previous_rank", "player_id", "player__name", "player__country",
    "rating__elo", "rating__elo_peak", "rating__glicko_rating", "glicko_rd",
    "rating__glicko_volatility", "rating__games", "rating__last_played",
    "player__user__username", "position", "kind", "rating__mu", "rating__sigma",
)  # fmt: skip


def ranking_rows(
    *,
    kind: str = conf.DEFAULT_KIND,
    country: str = "",
    include_inactive: bool = False,
    now: datetime | None = None,
) -> QuerySet[RankingPosition, tuple]:
    """``kind``'s stored ranking in list order (see `ranking_list`) as named rows, ready to
    paginate (by cursor on ``position``, unique within the stored list); each row becomes
    an entry with `ranking_entry`. Rebuilds the stored ranking first if it is not the one
    for today and the current settings."""
    ranking_refresh(kind=kind, now=now)
    rows = RankingPosition.objects.filter(kind=kind).order_by("position", "player_id")
    if not include_inactive:
        rows = rows.filter(rank__isnull=False)
    if country:
        rows = rows.filter(player__country=country)
    return rows.values_list(*RANKING_COLUMNS, named=True)


def ranking_entry(row: tuple) -> RankingEntry:
    """One stored ranking row (`RANKING_COLUMNS`) as the list shows it."""
    (
        rank, previous_rank, player_id, name, country, elo, elo_peak, glicko_rating,
        glicko_rd, glicko_volatility, games, last_played, username, _position, kind, mu, sigma,
    ) = row  # fmt: skip
    skill = None
    if mu is not None and sigma is not None:
        skill = SkillState(mu=mu, sigma=sigma).display(conf.skill_params())
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
        kind=kind,
        mu=mu,
        sigma=sigma,
        skill=skill,
    )


def ranking_list(
    *,
    kind: str = conf.DEFAULT_KIND,
    country: str = "",
    include_inactive: bool = False,
    now: datetime | None = None,
) -> list[RankingEntry]:
    """``kind``'s ranking: active players by rating (RATING_ORDER_BY for Elo kinds, the
    shown Plackett-Luce rating for the others), best first, then (if asked) inactive players
    without a rank. Ranks are world ranks, also when filtered by country."""
    rows = ranking_rows(kind=kind, country=country, include_inactive=include_inactive, now=now)
    return [ranking_entry(row) for row in rows]


def ranking_countries(*, kind: str = conf.DEFAULT_KIND) -> list[str]:
    """The countries of players with at least one rated game of ``kind``, for the filter."""
    return sorted(
        Player.objects.filter(ratings__kind=kind, ratings__games__gt=0)
        .exclude(country="")
        .values_list("country", flat=True)
        .distinct()
    )


def kinds_with_results() -> list[str]:
    """The kinds with at least one result that counts, the default kind first (it is
    always listed, for an empty site's page)."""
    counting = RatedResult.objects.filter(annulled=False).order_by()  # no ordering: DISTINCT
    kinds = set(counting.values_list("kind", flat=True).distinct())  # a row a kind
    return [conf.DEFAULT_KIND, *sorted(kinds - {conf.DEFAULT_KIND})]


def known_kinds() -> list[str]:
    """The ids of the game kinds this site hosts."""
    return [kind.id for kind in all_kinds()]


def kind_name(kind: str) -> str:
    """The kind's name for people (its id if it is no longer hosted)."""
    try:
        return get_kind(kind).name
    except KindError:
        return kind


def player_kinds(*, player: Player) -> list[str]:
    """The kinds ``player`` has a rating in, the default kind first."""
    kinds = set(player.ratings.filter(games__gt=0).values_list("kind", flat=True))
    return sorted(kinds, key=lambda kind: (kind != conf.DEFAULT_KIND, kind))


def player_get(*, player_id: int) -> Player | None:
    return Player.objects.filter(pk=player_id).first()


def player_entry(
    *, player: Player, kind: str = conf.DEFAULT_KIND, now: datetime | None = None
) -> RankingEntry | None:
    """The player's row of ``kind``'s ranking (with their rank if active); None before any
    game of it."""
    rows = ranking_rows(kind=kind, include_inactive=True, now=now)
    row = rows.filter(player_id=player.pk).first()
    return None if row is None else ranking_entry(row)


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One rated game from one player's side, with their ratings after it. A two-player Elo
    kind's game names the opponent and fills the Elo and Glicko-2 fields; another kind's
    game fills `place` of `players`, `mu`, `sigma` and the shown rating before and after."""

    result_id: int
    game_id: int | None
    finished_at: datetime
    opponent_id: int | None
    opponent_name: str
    opponent_elo: float | None
    score: float
    tournament_name: str
    elo_before: float | None
    elo_after: float | None
    glicko_rating: float | None
    glicko_rd: float | None
    kind: str = conf.DEFAULT_KIND
    place: int = 1
    players: int = 2
    mu: float | None = None
    sigma: float | None = None
    skill_before: float | None = None
    skill_after: float | None = None

    @property
    def rating_before(self) -> float:
        """The rating shown before the game: Elo, or the Plackett-Luce rating."""
        value = self.elo_before if self.elo_before is not None else self.skill_before
        assert value is not None
        return value

    @property
    def rating_after(self) -> float:
        """The rating shown after the game: Elo, or the Plackett-Luce rating."""
        value = self.elo_after if self.elo_after is not None else self.skill_after
        assert value is not None
        return value

    @property
    def rating_change(self) -> float:
        return self.rating_after - self.rating_before

    @property
    def elo_change(self) -> float:
        """The Elo change (an Elo kind's game); the shown rating's change otherwise."""
        return self.rating_change


def player_history(*, player: Player, kind: str = conf.DEFAULT_KIND) -> list[HistoryEntry]:
    """The player's rated games of ``kind``, oldest first (annulled games are not in it)."""
    snapshots = (
        RatingSnapshot.objects.filter(player=player, kind=kind)
        .select_related("opponent", "result")
        .order_by("finished_at", "result_id")
    )
    return [
        HistoryEntry(
            result_id=s.result_id,
            game_id=s.result.game_id,
            finished_at=s.finished_at,
            opponent_id=s.opponent_id,
            opponent_name=s.opponent.name if s.opponent is not None else "",
            opponent_elo=s.opponent_elo_before,
            score=s.score,
            tournament_name=s.result.tournament_name,
            elo_before=s.elo_before,
            elo_after=s.elo_after,
            glicko_rating=s.glicko_rating,
            glicko_rd=s.glicko_rd,
            kind=s.kind,
            place=s.place,
            players=s.players,
            mu=s.mu,
            sigma=s.sigma,
            skill_before=s.rating_before,
            skill_after=s.rating_after,
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
    tournament, most recent first. Games outside tournaments, and games without an Elo
    opponent (Plackett-Luce kinds), are left out."""
    groups: dict[str, list[HistoryEntry]] = defaultdict(list)
    for entry in history:
        if entry.tournament_name and entry.opponent_elo is not None:
            groups[entry.tournament_name].append(entry)
    performances = []
    for name, games in groups.items():
        opponents = [game.opponent_elo for game in games if game.opponent_elo is not None]
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
    """How one rated game moved a player's shown rating (for the result email): Elo for an
    Elo kind, the Plackett-Luce rating for another."""

    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before

    @property
    def signed_delta(self) -> str:
        """The change with its sign, e.g. "+16", "-16" or "±0"."""
        return f"{self.delta:+d}" if self.delta else "±0"


def _change(snapshot: RatingSnapshot) -> RatingChange:
    if snapshot.elo_before is not None and snapshot.elo_after is not None:
        before, after = snapshot.elo_before, snapshot.elo_after
    else:
        assert snapshot.rating_before is not None and snapshot.rating_after is not None
        before, after = snapshot.rating_before, snapshot.rating_after
    return RatingChange(before=round(before), after=round(after))


_CHANGE_FIELDS = ("elo_before", "elo_after", "rating_before", "rating_after")


def rating_change_for_game(*, game_id: int, user_id: int) -> RatingChange | None:
    """The rating ``user_id`` had before and after the rated game ``game_id``, rounded as
    the ranking shows it; None for an unrated or annulled game, or another player."""
    snapshot = (
        RatingSnapshot.objects.filter(
            result__game_id=game_id, result__annulled=False, player__user_id=user_id
        )
        .only(*_CHANGE_FIELDS)
        .first()
    )
    return None if snapshot is None else _change(snapshot)


def rating_changes_for_game(*, game_id: int) -> dict[int, RatingChange]:
    """Every site player's rating change in the rated game ``game_id``, by user id (one
    query); empty for an unrated or annulled game."""
    snapshots = (
        RatingSnapshot.objects.filter(
            result__game_id=game_id, result__annulled=False, player__user__isnull=False
        )
        .select_related("player")
        .only("player__user_id", *_CHANGE_FIELDS)
    )
    return {snapshot.player.user_id: _change(snapshot) for snapshot in snapshots}
