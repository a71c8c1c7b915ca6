"""Challenges, games and their moves.

The list of ``Move`` rows of a game is the source of truth: the position is always rebuilt by
replaying it through the rules engine. ``Game`` keeps a few derived fields (``ply``,
``to_move``, clocks) so that lists can be filtered and sorted in the database, and so that its
row can be locked to serialise writes.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import (
    Exists,
    F,
    FilteredRelation,
    OuterRef,
    Prefetch,
    Q,
    prefetch_related_objects,
)

from games.clock import ClockKind, TimeControl
from games.kinds import DEFAULT_KIND, get_kind
from games.kinds.base import GameKind, SeededChance


class TimeControlFields(models.Model):
    """The time control columns shared by challenges and games."""

    clock_kind = models.CharField(
        max_length=10, choices=[(k.value, k.value) for k in ClockKind], default=ClockKind.PER_MOVE
    )
    days_per_move = models.PositiveSmallIntegerField(default=3)
    bank_days = models.PositiveSmallIntegerField(default=10)
    increment_days = models.PositiveSmallIntegerField(default=2)
    max_days = models.PositiveSmallIntegerField(default=20)
    weekends_off = models.BooleanField(
        default=False,
        help_text="Clocks stop on Saturday and Sunday in the time zone of the player to move.",
    )
    vacation_allowed = models.BooleanField(
        default=True,
        help_text="A player's vacation stops their clock in this game (organisers may forbid it).",
    )

    class Meta:
        abstract = True

    @staticmethod
    def time_control_columns(tc: TimeControl) -> dict[str, object]:
        """The column values that store ``tc``."""
        return {
            "clock_kind": tc.kind.value,
            "days_per_move": tc.days_per_move,
            "bank_days": tc.bank_days,
            "increment_days": tc.increment_days,
            "max_days": tc.max_days,
            "weekends_off": tc.weekends_off,
            "vacation_allowed": tc.vacation_allowed,
        }

    @property
    def time_control(self) -> TimeControl:
        return TimeControl(
            kind=ClockKind(self.clock_kind),
            days_per_move=self.days_per_move,
            bank_days=self.bank_days,
            increment_days=self.increment_days,
            max_days=self.max_days,
            weekends_off=self.weekends_off,
            vacation_allowed=self.vacation_allowed,
        )


class Challenge(TimeControlFields):
    """An invitation to play: open to anyone (a seek) or addressed to one opponent."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        CANCELLED = "cancelled", "Cancelled"

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent"
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenges_received",
        null=True,
        blank=True,
        help_text="Empty for an open seek that anyone may accept.",
    )
    kind = models.CharField(max_length=20, default=DEFAULT_KIND, help_text="The game to play.")
    seat_count = models.PositiveSmallIntegerField(default=2, help_text="Players in the game.")
    seat_choice = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The seat the challenger takes; empty: drawn at random."
    )
    rated = models.BooleanField(default=True)
    public = models.BooleanField(default=True, help_text="Anyone may watch the game.")
    window_forfeit = models.BooleanField(
        default=False, help_text="A move that breaks the 5x5 window forfeits the turn."
    )
    takebacks = models.BooleanField(
        default=False,
        help_text="A player may ask to take back their last move (unrated games always may).",
    )
    message = models.CharField(max_length=300, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(opponent=models.F("challenger")),
                name="challenge_not_self",
                violation_error_message="You cannot challenge yourself.",
            ),
        ]
        indexes = [models.Index(fields=["status", "-created_at"])]

    def __str__(self) -> str:
        target = self.opponent or "anyone"
        return f"Challenge #{self.pk}: {self.challenger} → {target} ({self.status})"

    @property
    def game_kind(self) -> GameKind:
        return get_kind(self.kind)


class ChallengeEntrant(models.Model):
    """A player who took a seat of an open seek for more than two players; the game starts
    when the seek is full (the challenger holds the first of its seats)."""

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seek_entries"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["challenge", "user"], name="seek_entrant_once")
        ]

    def __str__(self) -> str:
        return f"{self.user} in challenge #{self.challenge_id}"


class ChallengeInvitation(models.Model):
    """A player named in a direct challenge to several (a game for three or more): they
    accept (taking a seat, a ``ChallengeEntrant``) or decline, which closes the challenge for
    everyone. The game starts when every invited player has accepted."""

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenge_invitations"
    )

    class Meta:
        ordering = ["challenge", "id"]
        constraints = [
            models.UniqueConstraint(fields=["challenge", "user"], name="challenge_invitation_once")
        ]

    def __str__(self) -> str:
        return f"{self.user} invited to challenge #{self.challenge_id}"


class GameQuerySet(models.QuerySet["Game"]):
    """Filters on a game's seats, so code outside games never names them."""

    def played_by(self, user: object) -> GameQuerySet:
        """Games where ``user`` holds a seat."""
        return self.filter(Exists(GameSeat.objects.filter(game=OuterRef("pk"), user=user)))

    def awaiting(self, user: object) -> GameQuerySet:
        """Games in progress where it is ``user``'s turn."""
        to_move = GameSeat.objects.filter(
            game=OuterRef("pk"), seat=OuterRef("seat_to_move"), user=user
        )
        return self.filter(Exists(to_move), status="active")

    def awaiting_any(self, user_ids: list[int]) -> GameQuerySet:
        """Games in progress where it is the turn of one of ``user_ids``: their seats joined
        to the games once. (An ``awaiting`` per player ORed together is an EXISTS per player
        that PostgreSQL tests on every game: minutes for 200 players on 50,000 games.)"""
        to_move = GameSeat.objects.filter(user__in=user_ids, seat=F("game__seat_to_move"))
        return self.filter(pk__in=to_move.values("game_id"), status="active")

    def with_mover(self) -> GameQuerySet:
        """Annotate each game with what a scan of many games needs of its player to move, in
        the same query (one join of the seat to move) and without building seats, players or
        profiles: ``mover_user_id``, ``mover_time_left`` (their bank), and their profile's
        ``mover_time_zone`` and ``mover_reminder_hours`` (None when they have no profile)."""
        mover = "mover_seat__"
        return self.annotate(
            mover_seat=FilteredRelation("seats", condition=Q(seats__seat=F("seat_to_move")))
        ).annotate(
            mover_user_id=F(f"{mover}user_id"),
            mover_time_left=F(f"{mover}time_left"),
            mover_time_zone=F(f"{mover}user__profile__time_zone"),
            mover_reminder_hours=F(f"{mover}user__profile__reminder_hours"),
        )

    def with_players(self) -> GameQuerySet:
        """Load every seat, its player and profile with the games (one more query)."""
        return self.prefetch_related(SEATS_WITH_PLAYERS)


class Game(TimeControlFields):
    """A game between two players, Orange moving first."""

    class Status(models.TextChoices):
        ACTIVE = "active", "In progress"
        FINISHED = "finished", "Finished"
        ANNULLED = "annulled", "Annulled"

    class Termination(models.TextChoices):
        NONE = "", "—"
        NORMAL = "normal", "No moves left"
        RESIGNATION = "resignation", "Resignation"
        TIMEOUT = "timeout", "Time forfeit"
        ADJUDICATION = "adjudication", "Adjudicated"
        ANNULLED = "annulled", "Annulled"

    kind = models.CharField(max_length=20, default=DEFAULT_KIND, help_text="The game played.")
    seat_count = models.PositiveSmallIntegerField(default=2, help_text="Players in the game.")
    challenge = models.OneToOneField(
        Challenge, on_delete=models.SET_NULL, null=True, blank=True, related_name="game"
    )
    rated = models.BooleanField(default=True)
    public = models.BooleanField(default=True)
    window_forfeit = models.BooleanField(default=False)
    takebacks = models.BooleanField(
        default=False,
        help_text="A player may ask to take back their last move (unrated games always may).",
    )
    #: For a kind with chance: the secret seed every outcome is drawn from (hex), published
    #: only as its SHA-256 (``chance_commitment``) until the game ends. Never shown while the
    #: game runs: not on a page, in an API answer, an email or a log.
    chance_seed = models.CharField(max_length=64, blank=True, default="", editable=False)
    #: The clock as it was before the last move (``services.takebacks``): its ply, the mover's
    #: bank and the running time they had left then, so an agreed takeback loses no time.
    clock_before_last_move = models.JSONField(null=True, blank=True, editable=False)

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    result = models.CharField(
        max_length=40, blank=True, default="", help_text="The kind's result text, e.g. 1-0."
    )
    termination = models.CharField(
        max_length=12, choices=Termination.choices, blank=True, default=""
    )
    ply = models.PositiveIntegerField(default=0, help_text="Number of turns recorded so far.")
    seat_to_move = models.PositiveSmallIntegerField(
        null=True, blank=True, default=1, help_text="Whose turn it is; empty once over."
    )

    turn_started_at = models.DateTimeField()
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)

    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        permissions = [
            ("annul_game", "Can annul games (moderators)"),
            ("adjudicate_game", "Can adjudicate games (moderators)"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=(Q(status="active") & Q(result="") & Q(finished_at__isnull=True))
                | (Q(status="finished") & ~Q(result="") & Q(finished_at__isnull=False))
                | (Q(status="annulled") & Q(result="") & Q(finished_at__isnull=False)),
                name="game_status_matches_result",
            ),
            models.CheckConstraint(
                condition=Q(status="active", seat_to_move__isnull=False)
                | (~Q(status="active") & Q(seat_to_move__isnull=True)),
                name="game_to_move_only_while_active",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "deadline"]),
            # The game lists' order (newest first, selectors.NEWEST_FIRST), for everyone and
            # for visitors: a cursor page reads its rows from the index, sorting nothing.
            models.Index(fields=["-created_at", "-id"], name="game_newest_first"),
            models.Index(fields=["public", "-created_at", "-id"], name="game_public_newest_first"),
        ]

    def __str__(self) -> str:
        return f"Game #{self.pk}: " + " v ".join(
            f"{seat.user} ({self.seat_name(seat.seat)})" for seat in self.seat_list
        )

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def game_kind(self) -> GameKind:
        """The kind's rules and drawings (``games.kinds``)."""
        return get_kind(self.kind)

    @property
    def chance(self) -> SeededChance | None:
        """The chance source of a kind with chance (None for a kind without)."""
        return SeededChance(bytes.fromhex(self.chance_seed)) if self.chance_seed else None

    @property
    def chance_commitment(self) -> str:
        """The SHA-256 of the seed, public from the start ("" for a kind without chance)."""
        chance = self.chance
        return "" if chance is None else chance.commitment

    @property
    def options(self) -> dict[str, object]:
        """The kind's variant options stored on this game."""
        return {"window_forfeit": self.window_forfeit} if self.window_forfeit else {}

    @property
    def tournament(self) -> models.Model | None:
        """The tournament this game belongs to, or None.

        The link lives in the tournaments app (``TournamentGame``, related name
        ``tournament_link``); games only follow the reverse relation, so nothing here imports
        tournaments. Rankings read the event's name from this.
        """
        link = getattr(self, "tournament_link", None)
        return getattr(link, "tournament", None) if link is not None else None

    @property
    def in_competition(self) -> bool:
        """Whether the game belongs to a tournament (leagues' divisions included) or a ladder,
        followed by the reverse relations those apps declare (nothing here imports them)."""
        return any(
            getattr(self, related, None) is not None
            for related in ("tournament_link", "ladder_challenge")
        )

    # --- seats: what code outside games reads of a game's players and result ----------------

    @property
    def seat_list(self) -> list[GameSeat]:
        """The seats in order, with players and profiles: prefetched by ``with_players``, or
        read on first use; kept on the instance until ``refresh_from_db``."""
        seats = self.__dict__.get("_seats_read")
        if seats is None:
            prefetch_related_objects([self], SEATS_WITH_PLAYERS)  # no query once prefetched
            seats = self.__dict__["_seats_read"] = list(self.seats.all())
        return list(seats)

    def refresh_from_db(self, *args: Any, **kwargs: Any) -> None:
        """Read the game again; its seats too, on their next use."""
        self.__dict__.pop("_seats_read", None)
        super().refresh_from_db(*args, **kwargs)

    def seat_row(self, seat: int) -> GameSeat:
        return self.seat_list[seat - 1]

    def seat_users(self) -> list[Any]:
        """The players in seat order (seat 1 first)."""
        return [seat.user for seat in self.seat_list]

    def seat_of(self, user: object) -> int | None:
        """The seat ``user`` holds here (1, 2 ...), or None for a spectator."""
        user_id = getattr(user, "pk", None)
        return next((seat.seat for seat in self.seat_list if seat.user_id == user_id), None)

    def user_at(self, seat: int) -> Any:
        """The player in ``seat``."""
        return self.seat_row(seat).user

    def user_to_move(self) -> Any:
        """The player whose turn it is, None once the game is over."""
        seat = self.seat_to_move
        return None if seat is None else self.user_at(seat)

    def seat_name(self, seat: int) -> str:
        """The name the kind gives ``seat`` (Celtic!: Orange, Blue)."""
        return self.game_kind.seat_names(self.seat_count)[seat - 1]

    def seat_time_left(self, seat: int) -> timedelta | None:
        """The bank of the player in ``seat`` (None without a time limit)."""
        return self.seat_row(seat).time_left

    def placings(self) -> list[tuple[Any, int]]:
        """Each player in seat order with their finishing place (1 = first; a draw shares
        first place); empty unless the game is finished."""
        if self.status != self.Status.FINISHED:
            return []
        return [(seat.user, seat.place) for seat in self.seat_list if seat.place is not None]

    def end(self, *, status: str, result: str, termination: str, finished_at: datetime) -> None:
        """Set the columns of a game that is over (not saved): no one to move, no deadline."""
        self.status = status
        self.result = result
        self.termination = termination
        self.finished_at = finished_at
        self.seat_to_move = None
        self.deadline = None


class GameSeat(models.Model):
    """One player's seat in a game: who sits there, their clock, and their finishing place."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField(help_text="1 moves first, then 2, and so on.")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="game_seats"
    )
    time_left = models.DurationField(null=True, blank=True, help_text="The player's bank.")
    place = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Finishing place once the game is over (1 = first)."
    )
    left_at_ply = models.PositiveIntegerField(
        null=True, blank=True, help_text="When the player left a game the others play on."
    )

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="game_seat_once"),
            models.UniqueConstraint(fields=["game", "user"], name="game_player_once"),
            models.CheckConstraint(condition=Q(seat__gte=1), name="game_seat_from_one"),
        ]
        indexes = [models.Index(fields=["user", "game"], name="game_seat_user")]

    def __str__(self) -> str:
        return f"Game #{self.game_id} seat {self.seat}: {self.user}"


class Move(models.Model):
    """One recorded turn: a placed tile, an automatic pass, or a forfeited (window) move.

    Rows are only ever appended, and never changed; the one row ever deleted is the last one,
    when both players agree to a takeback (``services.takebacks``). A database trigger (see
    migration 0002) refuses a row whose ply is not the next one of its game or whose game is
    not in progress, so two moves at one ply and a move after the end cannot be stored,
    whatever the application does.
    """

    class Kind(models.TextChoices):
        MOVE = "move", "Move"
        PASS = "pass", "Pass"
        FORFEIT = "forfeit", "Forfeited turn"
        LEAVE = "leave", "Left the game"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField(help_text="The seat whose turn this was.")
    kind = models.CharField(max_length=7, choices=Kind.choices)
    notation = models.CharField(max_length=16, blank=True, help_text="Empty for a pass.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="move_one_per_ply"),
            models.CheckConstraint(
                condition=Q(kind="pass", notation="") | (~Q(kind="pass") & ~Q(notation="")),
                name="move_notation_matches_kind",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.ply} seat {self.seat} {self.kind} {self.notation}".rstrip()


class IdempotentRequest(models.Model):
    """The first answer to a request sent with an ``Idempotency-Key`` header, to repeat it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    key = models.CharField(max_length=100)
    fingerprint = models.CharField(max_length=64, help_text="Hash of method, path and body.")
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_once_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.key} → {self.status_code}"


class GameMessage(models.Model):
    """A message a player wrote in a game. Spectators of a public game may read them."""

    MAX_LENGTH = 2000

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="messages")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_messages"
    )
    body = models.TextField(max_length=MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The moderator who hid it.",
    )
    hidden_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        permissions = [("hide_gamemessage", "Can hide game messages (moderators)")]
        indexes = [models.Index(fields=["game", "created_at"])]

    def __str__(self) -> str:
        return f"Message #{self.pk} in game #{self.game_id}"

    @property
    def is_hidden(self) -> bool:
        return self.hidden_at is not None


class MessageReport(models.Model):
    """A reader's report that a message breaks the rules, for moderators to look at."""

    message = models.ForeignKey(GameMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="message_reports"
    )
    reason = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["message", "reporter"], name="message_report_once_per_reporter"
            )
        ]

    def __str__(self) -> str:
        return f"Report on message #{self.message_id}"


class ConditionalLine(models.Model):
    """A reply queued in advance: "if my opponent plays X, I play Y" (and maybe on).

    ``moves`` alternates the opponent's expected move and the owner's reply, starting with
    the opponent's move at ``start_ply``. When the opponent plays ``moves[0]`` there, the
    owner's reply is played at once; lines that no longer match are deleted. Only the owner
    may see their lines.
    """

    MAX_MOVES = 10  # five "if they play, I play" pairs

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="conditional_lines")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="conditional_lines"
    )
    start_ply = models.PositiveIntegerField(help_text="The ply of the opponent's expected move.")
    trigger = models.CharField(max_length=16, help_text="The opponent's expected move.")
    moves = models.JSONField(help_text="Notations, the opponent's first, then alternating.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "owner", "start_ply", "trigger"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "owner", "start_ply", "trigger"],
                name="conditional_line_one_per_trigger",
            )
        ]

    def __str__(self) -> str:
        return f"{self.game_id}@{self.start_ply} {self.owner}: {' / '.join(self.moves)}"


class GameNote(models.Model):
    """A player's private notes on one of their games. No one else reads them: not the
    opponent, not spectators, not moderators (nor the admin: the model is not registered)."""

    MAX_LENGTH = 10000

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="notes")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_notes"
    )
    body = models.TextField(max_length=MAX_LENGTH)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "owner"], name="game_note_one_per_player")
        ]

    def __str__(self) -> str:
        return f"Notes of player #{self.owner_id} on game #{self.game_id}"


class TakebackRequest(models.Model):
    """A player's request to take back their last move, before their opponent has moved.

    One per move (``ply``: the game's ply when it was asked, the move being the one before);
    the opponent accepts (the move is removed and the clocks restored) or declines. A request
    not answered before the opponent moves lapses.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for the opponent"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="takeback_requests")
    requester = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="takeback_requests"
    )
    ply = models.PositiveIntegerField(help_text="The game's ply when it was asked.")
    move = models.CharField(max_length=16, help_text="The move to take back.")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "-ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="takeback_once_per_move")
        ]

    def __str__(self) -> str:
        return f"Takeback of {self.move} in game #{self.game_id} ({self.status})"


#: A game's seats in order with each player and profile: one query for any number of games.
SEATS_WITH_PLAYERS = Prefetch(
    "seats", queryset=GameSeat.objects.select_related("user__profile").order_by("seat")
)
