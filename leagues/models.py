"""Leagues: standing competitions played season after season in tiers of divisions.

Each division of a season IS a round robin of the tournaments app (a ``Tournament`` with all
its games at once), so games, withdrawals, adjudication, standings and possible places are
the tournaments'. This app decides who plays in which division, and who goes up or down.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.kinds import DEFAULT_KIND, get_kind
from games.models import TimeControlFields
from tournaments.models import Tournament


class League(TimeControlFields):
    """A league and its rules; the time control columns are those of every league game."""

    name = models.CharField(max_length=150, unique=True)
    description = models.TextField(blank=True)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="leagues_organised"
    )
    kind = models.CharField(
        max_length=20,
        default=DEFAULT_KIND,
        help_text="The game kind (games.kinds); its games must allow two seats.",
    )
    division_size = models.PositiveSmallIntegerField(
        default=8, help_text="The target number of players in a division."
    )
    division_min_size = models.PositiveSmallIntegerField(
        default=4, help_text="Fewer players left over join the division above."
    )
    promotion_count = models.PositiveSmallIntegerField(null=True, blank=True)
    promotion_percent = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Instead of a count: a share of the division, in %."
    )
    relegation_count = models.PositiveSmallIntegerField(null=True, blank=True)
    relegation_percent = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Instead of a count: a share of the division, in %."
    )
    rookie_division = models.BooleanField(
        default=False, help_text="Newcomers play their first season in a division of their own."
    )
    tiebreaks = models.JSONField(default=list, blank=True)
    tiebreak_edition = models.CharField(max_length=4, default="2026")
    withdrawal_policy = models.CharField(
        max_length=12,
        choices=Tournament.WithdrawalPolicy.choices,
        default=Tournament.WithdrawalPolicy.HALF_RULE,
    )
    rated = models.BooleanField(default=True)
    public = models.BooleanField(default=True)
    season_days = models.PositiveSmallIntegerField(
        default=90, help_text="Days from a season's start to its end date."
    )
    registration_days = models.PositiveSmallIntegerField(
        default=14, help_text="Days registration is open before each season starts."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        permissions = [
            ("organise_league", "Can organise leagues"),
            ("manage_league_players", "Can move players between league divisions"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(promotion_count__isnull=True, promotion_percent__isnull=False)
                | Q(promotion_count__isnull=False, promotion_percent__isnull=True),
                name="league_promotion_count_or_percent",
            ),
            models.CheckConstraint(
                condition=Q(relegation_count__isnull=True, relegation_percent__isnull=False)
                | Q(relegation_count__isnull=False, relegation_percent__isnull=True),
                name="league_relegation_count_or_percent",
            ),
            models.CheckConstraint(
                condition=Q(division_min_size__gte=2)
                & Q(division_size__gte=models.F("division_min_size")),
                name="league_division_sizes",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def kind_name(self) -> str:
        """The name of the game kind played (Celtic!)."""
        return get_kind(self.kind).name


class Season(models.Model):
    """One season of a league: registration, then its divisions play, then moves."""

    class Status(models.TextChoices):
        PLANNED = "planned", "Registration not open yet"
        REGISTRATION = "registration", "Registration open"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PLANNED)
    status_note = models.CharField(max_length=300, blank=True)
    registration_opens_at = models.DateTimeField()
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(help_text="Games unfinished then go to the organiser.")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["league", "number"]
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="season_number_unique"),
            models.CheckConstraint(
                condition=Q(registration_opens_at__lte=models.F("starts_at"))
                & Q(starts_at__lt=models.F("ends_at")),
                name="season_dates_in_order",
            ),
        ]
        indexes = [models.Index(fields=["status", "starts_at"])]

    def __str__(self) -> str:
        return f"{self.league} season {self.number}"


class Division(models.Model):
    """A division of a season: a tier (1 = top), and the round robin it plays."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    tier = models.PositiveSmallIntegerField()
    group = models.PositiveSmallIntegerField(
        default=1, help_text="Rookie divisions of one season are numbered 1, 2, ..."
    )
    rookie = models.BooleanField(default=False)
    tournament = models.OneToOneField(
        Tournament, on_delete=models.PROTECT, related_name="league_division"
    )

    class Meta:
        ordering = ["season", "tier", "group"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "tier", "group"], name="division_tier_group_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.season}: {self.name}"

    @property
    def name(self) -> str:
        if self.rookie:
            return "Rookies" if self.group == 1 else f"Rookies {self.group}"
        return f"Division {self.tier}"


class Membership(models.Model):
    """A player in a season: invited, registered (or carried over), placed, and their result."""

    class Status(models.TextChoices):
        INVITED = "invited", "Invited by the organiser"
        DECLINED = "declined", "Invitation declined"
        REGISTERED = "registered", "Registered"
        CANCELLED = "cancelled", "Registration cancelled"
        REMOVED = "removed", "Removed by the organiser"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    class Outcome(models.TextChoices):
        NONE = "", "—"
        PROMOTED = "promoted", "Promoted"
        STAYED = "stayed", "Stayed"
        RELEGATED = "relegated", "Relegated"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="league_memberships"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.REGISTERED)
    carried_over = models.BooleanField(
        default=False, help_text="Registered automatically from the season before."
    )
    this_season_only = models.BooleanField(
        default=False, help_text="Not carried into the next season."
    )
    tier_requested = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The organiser placed the player in this tier."
    )
    division = models.ForeignKey(
        Division, on_delete=models.PROTECT, null=True, blank=True, related_name="memberships"
    )
    placed_how = models.CharField(max_length=16, blank=True)
    final_place = models.PositiveSmallIntegerField(null=True, blank=True)
    outcome = models.CharField(
        max_length=10, choices=Outcome.choices, blank=True, default=Outcome.NONE
    )
    next_tier = models.PositiveSmallIntegerField(null=True, blank=True)
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["season", "registered_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="membership_once_per_season")
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.season}"
