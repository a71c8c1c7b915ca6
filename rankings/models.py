"""The world ranking's data: players, rated results, per-result rating rows, current ratings.

`RatedResult` is the history; `RatingSnapshot` and `PlayerRating` are derived from it by
`rankings.services` and can always be rebuilt with `manage.py ratings_recompute`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from rankings.csvimport import NAME_MAX_LENGTH
from rankings.rating.elo import EloState
from rankings.rating.glicko2 import GlickoState
from rankings.rating.history import PlayerState
from rankings.rating.plackett_luce import SkillState


class Player(models.Model):
    """Someone in the ranking: a site user, or a person imported from an earlier ranking."""

    name = models.CharField(max_length=NAME_MAX_LENGTH, unique=True)
    country = models.CharField(
        max_length=2, blank=True, help_text="ISO 3166-1 alpha-2 code, e.g. IE."
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="ranking_player",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


KIND_MAX_LENGTH = 20
"""The longest game kind id the ranking stores."""


def _kind_field() -> models.CharField:
    return models.CharField(
        max_length=KIND_MAX_LENGTH, default="celtic", help_text="The game kind's id."
    )


class RatedResult(models.Model):
    """One game that counts (or counted) for the ranking of its kind, from this site or an
    import.

    The finishing order is in `placings` (one `RatedPlacing` per player). A result of two
    players also keeps `player1`, `player2` and `score1` (player 1 holds seat 1: Orange in
    Celtic!), which the Elo and Glicko-2 replay reads; they are empty for more players.
    Annulled results stay for the record but no longer count.
    """

    class Source(models.TextChoices):
        GAME = "game", "Game on this site"
        IMPORT = "import", "Imported"

    kind = models.CharField(
        max_length=KIND_MAX_LENGTH, default="celtic", db_index=True, help_text="The game kind's id."
    )
    player1 = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    player2 = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    score1 = models.FloatField(
        null=True,
        blank=True,
        help_text="Player 1's score: 1 win, 0.5 draw, 0 loss; empty for more than two players.",
    )
    finished_at = models.DateTimeField()
    game = models.OneToOneField(
        "games.Game",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="rated_result",
    )
    source = models.CharField(max_length=6, choices=Source.choices)
    tournament_name = models.CharField(max_length=200, blank=True)
    annulled = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["finished_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(player1=F("player2")), name="rated_result_two_players"
            ),
            models.CheckConstraint(
                condition=Q(score1__in=[0.0, 0.5, 1.0]), name="rated_result_score"
            ),
            models.CheckConstraint(
                condition=Q(source="import") | Q(game__isnull=False),
                name="rated_result_game_source",
            ),
            models.CheckConstraint(
                condition=Q(player1__isnull=False, player2__isnull=False, score1__isnull=False)
                | Q(player1__isnull=True, player2__isnull=True, score1__isnull=True),
                name="rated_result_pair_complete",
            ),
        ]
        indexes = [models.Index(fields=["finished_at", "id"], name="rated_result_order")]

    def __str__(self) -> str:
        when = f"{self.finished_at:%Y-%m-%d}"
        if self.score1 is None:
            return f"{self.kind} result {self.pk} ({when})"
        return f"{self.player1_id} v {self.player2_id} {self.result_text} ({when})"

    @property
    def result_text(self) -> str:
        """1-0, 0-1 or 1/2-1/2 for two players; empty for more (see the placings)."""
        if self.score1 is None:
            return ""
        return {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}[self.score1]


class RatedPlacing(models.Model):
    """One player's seat and finishing place in a rated result (1 = first; a tie shares a
    place). A table rather than a JSON column: the ratings look up a player's later results
    by it, and it keeps players with results from being deleted."""

    result = models.ForeignKey(RatedResult, on_delete=models.CASCADE, related_name="placings")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="placings")
    seat = models.PositiveSmallIntegerField(help_text="1 = the first seat.")
    place = models.PositiveSmallIntegerField(help_text="1 = first; a tie shares a place.")

    class Meta:
        ordering = ["result", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["result", "seat"], name="placing_once_per_seat"),
            models.UniqueConstraint(fields=["result", "player"], name="placing_once_per_player"),
            models.CheckConstraint(condition=Q(seat__gte=1), name="placing_seat_from_1"),
            models.CheckConstraint(condition=Q(place__gte=1), name="placing_place_from_1"),
        ]

    def __str__(self) -> str:
        return f"result {self.result_id} seat {self.seat}: place {self.place}"


class RatingSnapshot(models.Model):
    """A player's ratings after one rated result: the history behind charts and rank changes.

    Elo kinds fill the Elo and Glicko-2 columns (and the opponent); the other kinds fill
    `mu`, `sigma` and the shown rating before and after (`rating_before`, `rating_after`).
    """

    # Derived data, written in bulk by every recomputation (two rows per result), so:
    # - no index of their own: `snapshot_once_per_player` starts with the result and
    #   `snapshot_player_time` with the player, and players with results cannot be deleted
    #   (RatedResult protects them), so the opponent is never looked up;
    # - no database constraint: checking 600,000 deferred references took longer at commit
    #   than writing the rows (docs/BENCHMARKS.md). Django still cascades deletes, only
    #   `rankings.services` writes these rows, and a recomputation deletes any row whose
    #   result no longer counts.
    result = models.ForeignKey(
        RatedResult,
        on_delete=models.CASCADE,
        related_name="snapshots",
        db_index=False,
        db_constraint=False,
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        related_name="snapshots",
        db_index=False,
        db_constraint=False,
    )
    kind = _kind_field()
    opponent = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
        db_constraint=False,
        help_text="The opponent of a two-player Elo kind's game.",
    )
    finished_at = models.DateTimeField()
    place = models.PositiveSmallIntegerField(help_text="Finishing place: 1 = first.")
    players = models.PositiveSmallIntegerField(default=2, help_text="Players in the game.")
    score = models.FloatField(
        help_text="Share of the other players beaten, a tie half: 1 win, 0.5 draw, 0 loss."
    )
    games = models.PositiveIntegerField(help_text="Rated games including this one.")
    elo_before = models.FloatField(null=True, blank=True)
    elo_after = models.FloatField(null=True, blank=True)
    opponent_elo_before = models.FloatField(null=True, blank=True)
    glicko_rating = models.FloatField(null=True, blank=True)
    glicko_rd = models.FloatField(null=True, blank=True)
    glicko_volatility = models.FloatField(null=True, blank=True)
    mu = models.FloatField(null=True, blank=True)
    sigma = models.FloatField(null=True, blank=True)
    rating_before = models.FloatField(null=True, blank=True, help_text="Shown rating before.")
    rating_after = models.FloatField(null=True, blank=True, help_text="Shown rating after.")

    class Meta:
        ordering = ["finished_at", "result_id"]
        constraints = [
            models.UniqueConstraint(fields=["result", "player"], name="snapshot_once_per_player")
        ]
        indexes = [
            models.Index(fields=["player", "kind", "finished_at"], name="snapshot_player_time"),
        ]

    def __str__(self) -> str:
        after = self.elo_after if self.elo_after is not None else self.rating_after
        return f"{self.player_id} after result {self.result_id}: {after or 0:.0f}"


class PlayerRating(models.Model):
    """A player's ratings in one kind now: exactly the state the next update starts from.

    Elo kinds fill the Elo and Glicko-2 columns; the other kinds `mu` and `sigma`.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    kind = _kind_field()
    elo = models.FloatField(null=True, blank=True)
    games = models.PositiveIntegerField(default=0)
    elo_peak = models.FloatField(null=True, blank=True)
    elo_master = models.BooleanField(
        default=False, help_text="Reached the master threshold: K is the master K for good."
    )
    glicko_rating = models.FloatField(null=True, blank=True)
    glicko_rd = models.FloatField(null=True, blank=True)
    glicko_volatility = models.FloatField(null=True, blank=True)
    mu = models.FloatField(null=True, blank=True, help_text="Plackett-Luce skill mean.")
    sigma = models.FloatField(null=True, blank=True, help_text="Its standard deviation.")
    last_played = models.DateField(null=True, blank=True, help_text="UTC date of the last game.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "kind"], name="rating_once_per_kind")
        ]

    def __str__(self) -> str:
        shown = self.elo if self.elo is not None else self.mu
        return f"{self.player_id} ({self.kind}): {shown or 0:.1f}"

    @property
    def shown(self) -> float:
        """The rating people see: Elo for Celtic!, the Plackett-Luce display otherwise."""
        if self.elo is not None:
            return self.elo
        from rankings.conf import skill_params

        return self.to_skill_state().display(skill_params())

    def to_state(self) -> PlayerState:
        return PlayerState(
            elo=EloState(
                rating=self.elo, games=self.games, master=self.elo_master, peak=self.elo_peak
            ),
            glicko=GlickoState(
                rating=self.glicko_rating, rd=self.glicko_rd, volatility=self.glicko_volatility
            ),
            last_played=self.last_played,
        )

    def set_state(self, state: PlayerState) -> None:
        self.elo = state.elo.rating
        self.games = state.elo.games
        self.elo_peak = state.elo.peak
        self.elo_master = state.elo.master
        self.glicko_rating = state.glicko.rating
        self.glicko_rd = state.glicko.rd
        self.glicko_volatility = state.glicko.volatility
        self.last_played = state.last_played

    @classmethod
    def from_state(
        cls, *, player_id: int, state: PlayerState, kind: str = "celtic"
    ) -> PlayerRating:
        rating = cls(player_id=player_id, kind=kind)
        rating.set_state(state)
        return rating

    def to_skill_state(self) -> SkillState:
        assert self.mu is not None and self.sigma is not None, "not a Plackett-Luce rating"
        return SkillState(
            mu=self.mu, sigma=self.sigma, games=self.games, last_played=self.last_played
        )

    def set_skill_state(self, state: SkillState) -> None:
        self.mu, self.sigma = state.mu, state.sigma
        self.games, self.last_played = state.games, state.last_played

    @classmethod
    def from_skill_state(cls, *, player_id: int, state: SkillState, kind: str) -> PlayerRating:
        rating = cls(player_id=player_id, kind=kind)
        rating.set_skill_state(state)
        return rating


class RankingPosition(models.Model):
    """A player's place in the stored ranking list of one kind (players with at least one
    rated game of it).

    Kept up to date by `rankings.services` in the rating transaction and rebuilt once a
    day (activity, rank changes and grown deviations depend on the date), so reading the
    list is a paginated query ordered by `position`.
    """

    rating = models.OneToOneField(
        PlayerRating, on_delete=models.CASCADE, related_name="ranking_position"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ranking_positions")
    kind = _kind_field()
    position = models.PositiveIntegerField(help_text="Place in the list: ranked players first.")
    rank = models.PositiveIntegerField(null=True, blank=True, help_text="None if inactive.")
    previous_rank = models.PositiveIntegerField(
        null=True, blank=True, help_text="World rank RANK_CHANGE_DAYS ago, None if unranked."
    )
    glicko_rd = models.FloatField(
        null=True, blank=True, help_text="Glicko-2 RD grown to the ranking's date (Elo kinds)."
    )

    class Meta:
        # The list's order, the player breaking ties (for its cursor pages).
        indexes = [
            models.Index(fields=["kind", "position", "player"], name="ranking_position_order")
        ]
        constraints = [
            models.UniqueConstraint(fields=["player", "kind"], name="position_once_per_kind")
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: #{self.rank or '-'}"


class RankingState(models.Model):
    """One row per kind: which date and settings its stored ranking was built for. Its row
    lock serialises every rewrite of that kind's stored ranking."""

    kind = models.CharField(max_length=KIND_MAX_LENGTH, default="celtic", unique=True)
    key = models.CharField(max_length=500, blank=True)
    built_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.kind}: {self.key or 'never built'}"


class RankingUpdate(models.Model):
    """A rated result the stored ranking does not show yet: written in the result's
    transaction, applied (with every other one waiting) by a task right after its commit."""

    kind = _kind_field()
    changed_since = models.DateTimeField(help_text="When the result that changed it finished.")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.kind} since {self.changed_since:%Y-%m-%d %H:%M}"
