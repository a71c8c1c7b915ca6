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


class RatedResult(models.Model):
    """One game that counts (or counted) for the ranking, from this site or an import.

    Player 1 is Orange for games played here. Annulled results stay for the record but no
    longer count.
    """

    class Source(models.TextChoices):
        GAME = "game", "Game on this site"
        IMPORT = "import", "Imported"

    player1 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player2 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    score1 = models.FloatField(help_text="Player 1's score: 1 win, 0.5 draw, 0 loss.")
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
        ]
        indexes = [models.Index(fields=["finished_at", "id"], name="rated_result_order")]

    def __str__(self) -> str:
        when = f"{self.finished_at:%Y-%m-%d}"
        return f"{self.player1_id} v {self.player2_id} {self.result_text} ({when})"

    @property
    def result_text(self) -> str:
        return {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}[self.score1]


class RatingSnapshot(models.Model):
    """A player's ratings after one rated result: the history behind charts and rank changes."""

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
    opponent = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", db_index=False, db_constraint=False
    )
    finished_at = models.DateTimeField()
    score = models.FloatField(help_text="This player's score: 1 win, 0.5 draw, 0 loss.")
    games = models.PositiveIntegerField(help_text="Rated games including this one.")
    elo_before = models.FloatField()
    elo_after = models.FloatField()
    opponent_elo_before = models.FloatField()
    glicko_rating = models.FloatField()
    glicko_rd = models.FloatField()
    glicko_volatility = models.FloatField()

    class Meta:
        ordering = ["finished_at", "result_id"]
        constraints = [
            models.UniqueConstraint(fields=["result", "player"], name="snapshot_once_per_player")
        ]
        indexes = [
            models.Index(fields=["player", "finished_at"], name="snapshot_player_time"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} after result {self.result_id}: {self.elo_after:.0f}"


class PlayerRating(models.Model):
    """A player's ratings now: exactly the state the next update starts from."""

    player = models.OneToOneField(
        Player, primary_key=True, on_delete=models.CASCADE, related_name="rating"
    )
    elo = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    elo_peak = models.FloatField(null=True, blank=True)
    elo_master = models.BooleanField(
        default=False, help_text="Reached the master threshold: K is the master K for good."
    )
    glicko_rating = models.FloatField()
    glicko_rd = models.FloatField()
    glicko_volatility = models.FloatField()
    last_played = models.DateField(null=True, blank=True, help_text="UTC date of the last game.")

    def __str__(self) -> str:
        return f"{self.player_id}: {self.elo:.0f}"

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
    def from_state(cls, *, player_id: int, state: PlayerState) -> PlayerRating:
        rating = cls(player_id=player_id)
        rating.set_state(state)
        return rating


class RankingPosition(models.Model):
    """A player's place in the stored ranking list (players with at least one rated game).

    Kept up to date by `rankings.services` in the rating transaction and rebuilt once a
    day (activity, rank changes and grown deviations depend on the date), so reading the
    list is a paginated query ordered by `position`.
    """

    player = models.OneToOneField(
        Player, primary_key=True, on_delete=models.CASCADE, related_name="ranking_position"
    )
    position = models.PositiveIntegerField(help_text="Place in the list: ranked players first.")
    rank = models.PositiveIntegerField(null=True, blank=True, help_text="None if inactive.")
    previous_rank = models.PositiveIntegerField(
        null=True, blank=True, help_text="World rank RANK_CHANGE_DAYS ago, None if unranked."
    )
    glicko_rd = models.FloatField(help_text="Glicko-2 RD grown to the ranking's date.")

    class Meta:
        # The list's order, the player breaking ties (for its cursor pages).
        indexes = [models.Index(fields=["position", "player"], name="ranking_position_order")]

    def __str__(self) -> str:
        return f"{self.player_id}: #{self.rank or '-'}"


class RankingState(models.Model):
    """One row: which date and settings the stored ranking was built for. Its row lock
    serialises every rewrite of the stored ranking."""

    key = models.CharField(max_length=500, blank=True)
    built_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return self.key or "never built"


class RankingUpdate(models.Model):
    """A rated result the stored ranking does not show yet: written in the result's
    transaction, applied (with every other one waiting) by a task right after its commit."""

    changed_since = models.DateTimeField(help_text="When the result that changed it finished.")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"since {self.changed_since:%Y-%m-%d %H:%M}"
