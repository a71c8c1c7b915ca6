"""Challenge ladders: a ranked list anyone may join at the bottom, climbed by challenging
players a few places above. The order lives in ``LadderPlayer.place``; every change to it
is also written as a ``LadderEvent`` (the ladder's history), with the whole order after it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.kinds import DEFAULT_KIND, get_kind
from games.kinds.pairs import pair_seat_names
from games.models import Game, TimeControlFields
from ladders.rules import LadderRules


class Ladder(TimeControlFields):
    """A ladder and its limits; the time control columns are those of every challenge game."""

    name = models.CharField(max_length=150, unique=True)
    description = models.TextField(blank=True)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="ladders_organised"
    )
    kind = models.CharField(
        max_length=20,
        default=DEFAULT_KIND,
        help_text="The game kind (games.kinds); its games must allow two seats.",
    )
    challenge_range = models.PositiveSmallIntegerField(
        default=3, help_text="How many places above themselves a player may challenge."
    )
    max_open_challenges = models.PositiveSmallIntegerField(
        default=2, help_text="Open challenges (issued or received) a player may have at once."
    )
    rematch_days = models.PositiveSmallIntegerField(
        default=7, help_text="Days after a challenge is decided before the same two may meet."
    )
    timeout_drop_places = models.PositiveSmallIntegerField(
        default=2, help_text="Places a player who loses on time drops (0: none)."
    )
    inactivity_days = models.PositiveSmallIntegerField(
        default=30, help_text="A player with no challenge game for this long leaves the ladder."
    )
    rated = models.BooleanField(default=True)
    public = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        permissions = [
            ("organise_ladder", "Can create ladders"),
            ("manage_ladder_players", "Can remove players from any ladder"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def kind_name(self) -> str:
        """The name of the game kind played (Celtic!)."""
        return get_kind(self.kind).name

    @property
    def challenger_seat_name(self) -> str:
        """The name of the challenger's seat, who moves first (Celtic!: Orange)."""
        return pair_seat_names(self.kind)[0]

    @property
    def rules(self) -> LadderRules:
        return LadderRules(
            challenge_range=self.challenge_range,
            max_open_challenges=self.max_open_challenges,
            rematch_days=self.rematch_days,
            timeout_drop_places=self.timeout_drop_places,
            inactivity_days=self.inactivity_days,
        )


class LadderPlayer(models.Model):
    """A player on a ladder, at ``place`` (1 is the top). Leaving deletes the row; the
    history keeps what happened."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="players")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ladder_places"
    )
    place = models.PositiveIntegerField()
    joined_at = models.DateTimeField()
    last_active_at = models.DateTimeField(
        help_text="Joining, challenging, being challenged or a result; inactivity counts from here."
    )

    class Meta:
        ordering = ["ladder", "place"]
        constraints = [
            models.UniqueConstraint(fields=["ladder", "player"], name="ladder_player_once"),
            models.CheckConstraint(condition=Q(place__gte=1), name="ladder_place_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.place}. {self.player} ({self.ladder})"


class LadderChallenge(models.Model):
    """A challenge up the ladder and its game, which starts at once (the challenger plays
    Orange and moves first)."""

    class Status(models.TextChoices):
        PLAYING = "playing", "Being played"
        DECIDED = "decided", "Decided"
        VOID = "void", "Void (game annulled)"

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="challenges")
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="ladder_challenges_made"
    )
    defender = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="ladder_challenges_received",
    )
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="ladder_challenge")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING)
    challenger_place = models.PositiveIntegerField(help_text="When the challenge was made.")
    defender_place = models.PositiveIntegerField(help_text="When the challenge was made.")
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(challenger=models.F("defender")), name="ladder_challenge_two_players"
            ),
            models.CheckConstraint(
                condition=Q(status="playing", decided_at__isnull=True)
                | (~Q(status="playing") & Q(decided_at__isnull=False)),
                name="ladder_challenge_decided_at",
            ),
        ]
        indexes = [models.Index(fields=["ladder", "status"])]

    def __str__(self) -> str:
        return f"{self.challenger} challenges {self.defender} ({self.ladder})"


class LadderEvent(models.Model):
    """One change to a ladder, with the whole order after it (player ids, top first)."""

    class Kind(models.TextChoices):
        JOINED = "joined", "Joined"
        CHALLENGED = "challenged", "Challenged"
        RESULT = "result", "Result"
        DROPPED = "dropped", "Dropped after a time forfeit"
        LEFT = "left", "Left"
        INACTIVE = "inactive", "Removed for inactivity"
        REMOVED = "removed", "Removed by the organiser"

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="ladder_events"
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    challenge = models.ForeignKey(
        LadderChallenge, on_delete=models.PROTECT, null=True, blank=True, related_name="events"
    )
    place_before = models.PositiveIntegerField(null=True, blank=True)
    place_after = models.PositiveIntegerField(null=True, blank=True)
    opponent_place_before = models.PositiveIntegerField(null=True, blank=True)
    opponent_place_after = models.PositiveIntegerField(null=True, blank=True)
    order_after = models.JSONField(default=list, help_text="Player ids, top of the ladder first.")
    note = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["ladder", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.player} ({self.ladder})"
