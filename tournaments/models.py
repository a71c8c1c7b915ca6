"""Tournaments, their entries, rounds, byes, knockout matches and games.

A tournament game is an ordinary ``games.Game`` with a ``TournamentGame`` row pointing at it
(the arrow points up: games never import tournaments). ``TournamentGame.result`` is the
result as the event counts it: the game's own result, or a forfeit, or a cancellation, so
standings read one column and never guess from the game's termination.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q, QuerySet

from games.kinds import DEFAULT_KIND, get_kind
from games.kinds.pairs import pair_seat_names
from games.models import Game, TimeControlFields


class Tournament(TimeControlFields):
    """An event: its settings, its life-cycle status, and its winner once finished."""

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", "Round robin"
        KNOCKOUT = "knockout", "Knockout"
        SWISS = "swiss", "Swiss"

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        REGISTRATION = "registration", "Registration open"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    class RegistrationMode(models.TextChoices):
        OPEN = "open", "Open to anyone eligible"
        INVITATION = "invitation", "By invitation of the organiser"
        APPROVAL = "approval", "Open, each entry approved by the organiser"

    class StartMode(models.TextChoices):
        AT_DATE = "at_date", "Automatically at the start date"
        WHEN_FULL = "when_full", "Automatically when the maximum number of players is reached"
        BY_ORGANISER = "by_organiser", "When the organiser starts it"

    class RoundStartMode(models.TextChoices):
        ALL_AT_ONCE = "all_at_once", "All games at once"
        ROUND_BY_ROUND = "round_by_round", "Each round when the previous one is complete"
        ON_DATES = "on_dates", "Each round on its start date (or when the previous is complete)"

    class KnockoutDecider(models.TextChoices):
        HIGHER_SEED = "higher_seed", "The higher seed goes through"
        MORE_GAMES = "more_games", "More pairs of games until one player wins a pair"
        ORGANISER = "organiser", "The organiser decides"

    class WithdrawalPolicy(models.TextChoices):
        HALF_RULE = (
            "half_rule",
            ("Results cancelled if under half the games were played, else the rest forfeited"),
        )
        FORFEIT_REST = "forfeit_rest", "Results kept, the remaining games forfeited"
        CANCEL_ALL = "cancel_all", "All the player's results cancelled"

    name = models.CharField(max_length=200, unique=True)
    description = models.TextField(blank=True)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments_organised"
    )
    kind = models.CharField(
        max_length=20,
        default=DEFAULT_KIND,
        help_text="The game kind (games.kinds); its games must allow two seats.",
    )
    format = models.CharField(max_length=12, choices=Format.choices, default=Format.ROUND_ROBIN)
    cycles = models.PositiveSmallIntegerField(
        default=1, help_text="Round robin: 1 single, 2 double (each pair meets with both colours)."
    )
    rounds_planned = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Swiss: the number of rounds. Computed for other formats."
    )
    section_size = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Round robin: split the players into sections of about this size.",
    )
    rated = models.BooleanField(default=True)
    public = models.BooleanField(default=True, help_text="Anyone may see the event and games.")
    window_forfeit = models.BooleanField(default=False)

    registration_mode = models.CharField(
        max_length=10, choices=RegistrationMode.choices, default=RegistrationMode.OPEN
    )
    entry_code = models.CharField(
        max_length=50, blank=True, help_text="If set, players must give it to register."
    )
    registration_opens_at = models.DateTimeField(null=True, blank=True)
    registration_closes_at = models.DateTimeField(null=True, blank=True)
    min_players = models.PositiveSmallIntegerField(default=2)
    max_players = models.PositiveSmallIntegerField(null=True, blank=True)
    rating_min = models.PositiveSmallIntegerField(null=True, blank=True)
    rating_max = models.PositiveSmallIntegerField(null=True, blank=True)
    min_finished_games = models.PositiveSmallIntegerField(
        default=0, help_text="Finished games a player needs on the site to register."
    )
    max_running_games = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="A player with this many games in progress cannot register.",
    )

    start_mode = models.CharField(
        max_length=12, choices=StartMode.choices, default=StartMode.BY_ORGANISER
    )
    starts_at = models.DateTimeField(null=True, blank=True)
    round_start_mode = models.CharField(
        max_length=14, choices=RoundStartMode.choices, default=RoundStartMode.ROUND_BY_ROUND
    )
    round_interval_days = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="On dates: days between the start dates of rounds."
    )
    round_duration_days = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Optional: a round's games not over this many days after it starts go to "
        "the organiser for adjudication.",
    )
    ends_at = models.DateTimeField(
        null=True, blank=True, help_text="Optional: games still running then are adjudicated."
    )

    knockout_extra_pairs = models.PositiveSmallIntegerField(
        default=1, help_text="Knockout: extra pairs of games played after a tied pair."
    )
    knockout_decider = models.CharField(
        max_length=12, choices=KnockoutDecider.choices, default=KnockoutDecider.HIGHER_SEED
    )
    withdrawal_policy = models.CharField(
        max_length=12, choices=WithdrawalPolicy.choices, default=WithdrawalPolicy.HALF_RULE
    )
    late_entry_last_round = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Swiss: players may still join until this round is paired (empty: no late "
        "entries).",
    )
    late_entry_bye = models.CharField(
        max_length=1,
        choices=[("Z", "No points"), ("H", "Half a point")],
        default="Z",
        help_text="Swiss: what a late entrant scores for each round missed (a zero- or "
        "half-point bye).",
    )
    half_point_byes_max = models.PositiveSmallIntegerField(
        default=0,
        help_text="Swiss: half-point byes a player may request ahead of a round (0: none).",
    )
    forfeits_to_withdraw = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Swiss: a player who loses this many games by forfeit is withdrawn (empty: "
        "never).",
    )
    accelerated = models.BooleanField(
        default=False,
        help_text="Swiss: Baku acceleration (FIDE C.04.5) for the first half of the rounds.",
    )
    forbidden_pairs = models.JSONField(
        default=list,
        blank=True,
        help_text="Swiss: pairs of entry ids who must never be paired together, "
        "e.g. [[12, 15]] (same club or family).",
    )
    tiebreaks = models.JSONField(
        default=list,
        blank=True,
        help_text="Tie-break codes in order, e.g. ['de', 'sb', 'win'] (tournaments.standings).",
    )
    tiebreak_edition = models.CharField(
        max_length=4, default="2026", help_text="The edition of FIDE C.07: 2026 or 2024."
    )

    status = models.CharField(max_length=12, choices=Status.choices, default=Status.DRAFT)
    status_note = models.CharField(
        max_length=300, blank=True, help_text="Why the event was cancelled, for instance."
    )
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments_won",
    )
    imported = models.BooleanField(default=False, help_text="Imported from a TRF file.")
    trf = models.JSONField(
        default=dict,
        blank=True,
        help_text="An imported file's tournament records and other lines, written back on "
        "export: {'header': [[code, text], ...], 'extra_lines': [...]}.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        permissions = [
            ("organise_tournament", "Can organise tournaments"),
            ("adjudicate_tournament_game", "Can adjudicate and fix tournament results"),
            ("manage_tournament_entries", "Can remove players and pair rounds by hand"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(max_players__isnull=True) | Q(max_players__gte=models.F("min_players")),
                name="tournament_max_players_at_least_min",
            ),
            models.CheckConstraint(
                condition=Q(min_players__gte=2), name="tournament_min_players_at_least_two"
            ),
            models.CheckConstraint(condition=Q(cycles__in=[1, 2]), name="tournament_cycles_1_or_2"),
        ]
        indexes = [models.Index(fields=["status", "starts_at"])]

    def __str__(self) -> str:
        return self.name

    @property
    def kind_name(self) -> str:
        """The name of the game kind played (Celtic!)."""
        return get_kind(self.kind).name

    @property
    def colour_names(self) -> list[str]:
        """The names of a pairing's two colours, Orange's first: the seat names of the kind
        (Celtic!: Orange, Blue)."""
        return pair_seat_names(self.kind)

    @property
    def is_round_robin(self) -> bool:
        return self.format == self.Format.ROUND_ROBIN

    @property
    def is_knockout(self) -> bool:
        return self.format == self.Format.KNOCKOUT

    @property
    def division(self) -> models.Model | None:
        """The league division this round robin is played as, or None for an event of its own.

        The link lives in the leagues app (``leagues.Division.tournament``, related name
        ``league_division``); tournaments only follow the reverse relation, so nothing here
        imports leagues. The selectors read it with the event (``selectors.WITH_DIVISION``).
        """
        return getattr(self, "league_division", None)

    @property
    def winners(self) -> list[Entry]:
        """Who finished first (in section 1), best seed first: one player, or every player
        the tie-breaks leave level on first place, who share it. Empty until the event is
        over. The lists read them with the event (``selectors.WITH_WINNERS``)."""
        prefetched = getattr(self, "winner_entries", None)
        if prefetched is not None:
            return prefetched
        if self.status != self.Status.FINISHED:
            return []
        return list(winners_of(self.entries.all()))


class Entry(models.Model):
    """A player's place in a tournament, from registration to the end."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for approval"
        INVITED = "invited", "Invited"
        APPROVED = "approved", "Registered"
        ACTIVE = "active", "Playing"
        WITHDRAWN = "withdrawn", "Withdrawn"
        REMOVED = "removed", "Removed by the organiser"
        DECLINED = "declined", "Declined"

    # Entries that take a place in the field (counted against max_players).
    PLACE_TAKING = (Status.APPROVED, Status.ACTIVE)

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_entries",
        help_text="Empty for a player of an imported event who has no account here.",
    )
    name = models.CharField(max_length=100, help_text="The player's name in this event.")
    status = models.CharField(max_length=10, choices=Status.choices)
    seed = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The starting number (1 = highest rated) once started."
    )
    rating_at_start = models.PositiveSmallIntegerField(null=True, blank=True)
    section = models.PositiveSmallIntegerField(default=1)
    joined_round = models.PositiveSmallIntegerField(
        default=1, help_text="The first round the player could be paired in (late entries)."
    )
    registered_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    results_cancelled = models.BooleanField(
        default=False, help_text="Withdrew under the half rule: their results do not count."
    )
    final_rank = models.PositiveSmallIntegerField(null=True, blank=True)
    final_points = models.DecimalField(max_digits=5, decimal_places=1, null=True, blank=True)
    extra = models.JSONField(default=dict, blank=True, help_text="TRF fields kept on import.")

    class Meta:
        ordering = ["tournament", "seed", "registered_at", "id"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="entry_once_per_tournament"
            ),
            models.UniqueConstraint(
                fields=["tournament", "seed"], name="entry_seed_unique_per_tournament"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.tournament_id}"


class Round(models.Model):
    """One round (a knockout stage) of a tournament, all sections together."""

    class Status(models.TextChoices):
        PLANNED = "planned", "Planned"
        PAIRING = "pairing", "Pairing…"  # due: a task pairs it and starts its games
        RUNNING = "running", "Running"
        COMPLETE = "complete", "Complete"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLANNED)
    starts_at = models.DateTimeField(null=True, blank=True, help_text="Planned start date.")
    ends_at = models.DateTimeField(
        null=True, blank=True, help_text="Games not over by then go to the organiser."
    )
    pairing_queued_at = models.DateTimeField(
        null=True, blank=True, help_text="When the task pairing this round was last queued."
    )
    started_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class KnockoutMatch(models.Model):
    """Two players of a knockout round; pairs of games (one with each colour) until decided."""

    class DecidedBy(models.TextChoices):
        NONE = "", "—"
        GAMES = "games", "Games"
        BYE = "bye", "Bye"
        HIGHER_SEED = "higher_seed", "Higher seed"
        ORGANISER = "organiser", "Organiser"
        WITHDRAWAL = "withdrawal", "Withdrawal"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    number = models.PositiveSmallIntegerField(help_text="Position in the bracket, 1-based.")
    higher = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")
    lower = models.ForeignKey(
        Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    pairs_started = models.PositiveSmallIntegerField(default=0)
    winner = models.ForeignKey(
        Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_by = models.CharField(
        max_length=12, choices=DecidedBy.choices, blank=True, default=DecidedBy.NONE
    )

    class Meta:
        ordering = ["round", "number"]
        verbose_name_plural = "knockout matches"
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="match_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.round} match {self.number}"


class TournamentGame(models.Model):
    """The place of a game in a tournament: round, board, section, knockout match."""

    class Result(models.TextChoices):
        PENDING = "", "Not decided"
        ORANGE_WINS = "1-0", "Orange wins"
        BLUE_WINS = "0-1", "Blue wins"
        DRAW = "1/2-1/2", "Draw"
        ORANGE_FORFEIT_WIN = "+/-", "Orange wins by forfeit"
        BLUE_FORFEIT_WIN = "-/+", "Blue wins by forfeit"
        DOUBLE_FORFEIT = "-/-", "Both lose by forfeit"
        # TRF's W, D, L: a game that lasted less than one move (imported events only).
        UNRATED_ORANGE_WINS = "W/L", "Orange wins (unrated, under one move)"
        UNRATED_BLUE_WINS = "L/W", "Blue wins (unrated, under one move)"
        UNRATED_DRAW = "D/D", "Draw (unrated, under one move)"
        CANCELLED = "cancelled", "Cancelled (not counted)"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="games")
    game = models.OneToOneField(
        Game,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_link",
        help_text="Empty for a result imported from a TRF file.",
    )
    orange = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")
    blue = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")
    board = models.PositiveSmallIntegerField()
    section = models.PositiveSmallIntegerField(default=1)
    match = models.ForeignKey(
        KnockoutMatch, on_delete=models.CASCADE, null=True, blank=True, related_name="games"
    )
    pair = models.PositiveSmallIntegerField(default=1, help_text="Knockout: the pair of games.")
    result = models.CharField(
        max_length=9, choices=Result.choices, blank=True, default=Result.PENDING
    )
    colours_unknown = models.BooleanField(
        default=False, help_text="Imported forfeit whose file gave no colours."
    )
    result_fixed = models.BooleanField(
        default=False,
        help_text="Set by a withdrawal or the organiser: a later change to the game's own "
        "result does not overwrite it.",
    )
    needs_adjudication = models.BooleanField(
        default=False, help_text="A deadline passed with the game unfinished."
    )

    class Meta:
        ordering = ["round", "section", "board"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "section", "board"], name="tournament_game_board_unique"
            )
        ]
        indexes = [models.Index(fields=["tournament", "result"])]

    def __str__(self) -> str:
        return f"{self.round} board {self.board}"

    @property
    def is_decided(self) -> bool:
        return self.result != self.Result.PENDING


ADJUDICATED_RESULTS = (
    TournamentGame.Result.ORANGE_WINS,
    TournamentGame.Result.BLUE_WINS,
    TournamentGame.Result.DRAW,
)
"""The results a game may be adjudicated to: a win or a draw, as if it had been played out."""


class Bye(models.Model):
    """A round in which a player has no game: a pairing bye, or an absence."""

    class Kind(models.TextChoices):
        PAIRING = "U", "Pairing bye, worth a win"
        FULL = "F", "Full-point bye"
        HALF = "H", "Half-point bye"
        ZERO = "Z", "Zero-point bye"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="byes")
    kind = models.CharField(max_length=1, choices=Kind.choices, default=Kind.PAIRING)

    class Meta:
        ordering = ["round", "entry"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="bye_once_per_round")
        ]

    def __str__(self) -> str:
        return f"{self.entry.name}: {self.get_kind_display()} in {self.round}"


def winners_of(entries: QuerySet[Entry]) -> QuerySet[Entry]:
    """The entries of ``entries`` placed first in section 1 (``Tournament.winners``)."""
    return (
        entries.filter(final_rank=1, section=1)
        .select_related("player__profile")
        .order_by("seed", "pk")
    )
