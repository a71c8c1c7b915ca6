"""Input and output serializers of the games API. They validate shape, never game rules."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from celticsite.api import StrictJsonTypes
from games.clock import ClockKind, ClockReading, PauseReason, TimeControl
from games.kinds import DEFAULT_KIND
from games.kinds.base import GameKind
from games.models import Challenge, ConditionalLine, Game, GameSeat, Move
from games.position_serializers import POSITION
from games.selectors import game_clock


class PlayerSerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.SerializerMethodField()

    def get_display_name(self, user: AbstractBaseUser) -> str:
        profile = getattr(user, "profile", None)
        return getattr(profile, "display_name", "") or user.get_username()

    def to_representation(self, instance: AbstractBaseUser) -> dict[str, Any]:
        """The two fields, without copying the declared fields for each player (a page of
        games shows 100 players: the copies were a third of its time)."""
        return {
            "username": instance.get_username(),
            "display_name": self.get_display_name(instance),
        }


DAY_RANGES = {"days_per_move": (1, 60), "bank_days": (1, 120), "increment_days": (0, 30),
              "max_days": (1, 365)}  # fmt: skip
"""Each number of days a time control stores, checked whatever its kind (the clock checks
only those its kind uses; the others are stored too and must fit)."""


def _days_field(name: str, *, default: int, help_text: str) -> serializers.IntegerField:
    low, high = DAY_RANGES[name]

    @extend_schema_field({"type": "integer", "minimum": low, "maximum": high})
    class DaysField(serializers.IntegerField):
        pass  # the range is checked in TimeControlSerializer.validate, with its message

    return DaysField(default=default, help_text=help_text)


class TimeControlSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=[k.value for k in ClockKind],
        default=ClockKind.PER_MOVE.value,
        help_text="per_move: fixed days for every move; fischer: a bank of days with an "
        "increment per move and a cap; none: no time limit.",
    )
    days_per_move = _days_field("days_per_move", default=3, help_text="per_move: days per move.")
    bank_days = _days_field("bank_days", default=10, help_text="fischer: the starting bank.")
    increment_days = _days_field(
        "increment_days", default=2, help_text="fischer: days added per move."
    )
    max_days = _days_field(
        "max_days", default=20, help_text="fischer: the bank's cap, at least bank_days."
    )
    weekends_off = serializers.BooleanField(
        default=False,
        help_text="The clock of the player to move stops from Saturday 00:00 to Monday 00:00 "
        "in their own profile time zone.",
    )
    vacation_allowed = serializers.BooleanField(
        default=True, help_text="A player's vacation stops their clock in this game."
    )

    FIELDS = (
        "days_per_move",
        "bank_days",
        "increment_days",
        "max_days",
        "weekends_off",
        "vacation_allowed",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        for name, (low, high) in DAY_RANGES.items():
            if not low <= attrs[name] <= high:
                raise serializers.ValidationError(
                    f"{name} is {attrs[name]}: expected {low} to {high} days"
                )
        try:
            attrs["time_control"] = TimeControl(
                kind=ClockKind(attrs["kind"]), **{k: attrs[k] for k in self.FIELDS}
            )
        except ValueError as exc:
            raise serializers.ValidationError(str(exc)) from None
        return attrs


def time_control_data(obj: Challenge | Game) -> dict[str, Any]:
    return {
        "kind": obj.clock_kind,
        "days_per_move": obj.days_per_move,
        "bank_days": obj.bank_days,
        "increment_days": obj.increment_days,
        "max_days": obj.max_days,
        "weekends_off": obj.weekends_off,
        "vacation_allowed": obj.vacation_allowed,
        "description": obj.time_control.describe(),
    }


class TimeControlOutputSerializer(TimeControlSerializer):
    description = serializers.CharField(help_text="The time control in words.")


COLOURS = ("orange", "blue", "random")
"""The values of the deprecated ``colour`` of a challenge: a two-seat kind's seat names in
lower case, or random (Celtic!: orange moves first)."""


@extend_schema_serializer(deprecate_fields=["colour"])
class ChallengeInputSerializer(StrictJsonTypes, serializers.Serializer):
    opponent = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        help_text="Username of the player challenged (a game for two); leave empty for an "
        "open seek or a challenge to several (`invited`).",
    )
    invited = serializers.ListField(
        child=serializers.CharField(max_length=150),
        required=False,
        default=list,
        max_length=5,
        help_text="Usernames of the players challenged to a game for three or more (2 to 5 "
        "names; `seat_count` is then the challenger and them). Each accepts or declines; "
        "the game starts when all have accepted, and one decline closes the challenge.",
    )
    kind = serializers.CharField(
        default=DEFAULT_KIND,
        max_length=20,
        help_text="The game to play: an `id` of GET /api/v1/game-kinds/.",
    )
    seat_count = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Players in the game, within the kind's `seats` (default: its fewest). A "
        "challenge to one opponent is for two; an open seek for more fills seat by seat.",
    )
    seat = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="The seat you take, 1 (moves first) to `seat_count`; null: drawn at random.",
    )
    colour = serializers.ChoiceField(
        choices=COLOURS,
        required=False,
        help_text="Deprecated, use `seat`: the colour you play in a game for two (orange: "
        "seat 1, blue: seat 2, random: no choice).",
    )
    rated = serializers.BooleanField(default=True)
    public = serializers.BooleanField(default=True, help_text="Anyone may watch the game.")
    window_forfeit = serializers.BooleanField(
        default=False,
        help_text="Variant: a move that breaks only the 5x5 window forfeits the turn "
        "instead of being rejected.",
    )
    takebacks = serializers.BooleanField(
        default=False,
        help_text="A rated game allows takebacks only if this is set (an unrated one always "
        "does; a tournament game never).",
    )
    time_control = TimeControlSerializer(required=False)
    message = serializers.CharField(required=False, allow_blank=True, max_length=300, default="")


def seat_names(kind: GameKind, count: int) -> list[str]:
    """The seat names of a game of ``kind`` for ``count`` (none for a count it refuses)."""
    return kind.seat_names(count) if count in kind.seats else []


class InvitedPlayerSerializer(serializers.Serializer):
    user = PlayerSerializer()
    accepted = serializers.BooleanField(help_text="Whether they accepted (took their seat).")


@extend_schema_serializer(deprecate_fields=["colour"])
class ChallengeOutputSerializer(serializers.ModelSerializer):
    challenger = PlayerSerializer()
    opponent = PlayerSerializer(allow_null=True)
    seat = serializers.IntegerField(
        source="seat_choice",
        allow_null=True,
        help_text="The challenger's seat (1 moves first); null: drawn at random.",
    )
    colour = serializers.SerializerMethodField(
        help_text="Deprecated, use `seat`: the challenger's seat name in lower case, or "
        "random; null for a game of more than two."
    )
    entrants = serializers.SerializerMethodField(
        help_text="The players who took a seat of an open seek for more than two, or "
        "accepted a challenge to several, in the order they joined (the challenger holds "
        "one more seat)."
    )
    invited = serializers.SerializerMethodField(
        help_text="The players a challenge to several invites, each with whether they "
        "accepted; empty for a challenge to one opponent or an open seek."
    )
    time_control = serializers.SerializerMethodField()
    game_id = serializers.SerializerMethodField()

    class Meta:
        model = Challenge
        fields = [
            "id",
            "challenger",
            "opponent",
            "kind",
            "seat_count",
            "seat",
            "colour",
            "entrants",
            "invited",
            "rated",
            "public",
            "window_forfeit",
            "takebacks",
            "time_control",
            "message",
            "status",
            "created_at",
            "decided_at",
            "game_id",
        ]

    def get_colour(self, obj: Challenge) -> str | None:
        if obj.seat_count != 2:
            return None
        if obj.seat_choice is None:
            return "random"
        return seat_names(obj.game_kind, obj.seat_count)[obj.seat_choice - 1].lower()

    @extend_schema_field(PlayerSerializer(many=True))
    def get_entrants(self, obj: Challenge) -> list[dict[str, Any]]:
        if obj.seat_count <= 2:
            return []
        return [PlayerSerializer(entry.user).data for entry in obj.entrants.all()]

    @extend_schema_field(InvitedPlayerSerializer(many=True))
    def get_invited(self, obj: Challenge) -> list[dict[str, Any]]:
        if obj.seat_count <= 2:
            return []
        seated = {entry.user_id for entry in obj.entrants.all()}
        return [
            {"user": PlayerSerializer(invited.user).data, "accepted": invited.user_id in seated}
            for invited in obj.invitations.all()
        ]

    @extend_schema_field(TimeControlOutputSerializer)
    def get_time_control(self, obj: Challenge) -> dict[str, Any]:
        return time_control_data(obj)

    def get_game_id(self, obj: Challenge) -> int | None:
        game = getattr(obj, "game", None)
        return game.pk if game else None


@extend_schema_serializer(deprecate_fields=["side"])
class ClockSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="The seat whose clock runs.")
    side = serializers.CharField(
        help_text="Deprecated, use `seat`: that seat's name in lower case (orange, blue)."
    )
    seconds_left = serializers.IntegerField(
        help_text="Running time left before the deadline: it does not shrink while the clock "
        "is stopped."
    )
    deadline = serializers.DateTimeField(help_text="When the player to move runs out of time.")
    paused = serializers.ChoiceField(
        choices=[r.value for r in PauseReason],
        allow_null=True,
        help_text="Why the clock is stopped now (weekend, vacation), or null while it runs.",
    )
    resumes_at = serializers.DateTimeField(
        allow_null=True, help_text="When the stopped clock runs again (null while it runs)."
    )


def clock_data(game: Game, reading: ClockReading | None) -> dict[str, Any] | None:
    """What ``ClockSerializer`` shows of ``game``'s running clock (None: no clock runs)."""
    if reading is None or game.seat_to_move is None:
        return None
    return {
        "seat": game.seat_to_move,
        "side": game.seat_name(game.seat_to_move).lower(),
        "seconds_left": int(reading.time_left.total_seconds()),
        "deadline": game.deadline,
        "paused": reading.paused,
        "resumes_at": reading.resumes_at,
    }


class GameSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="1 moves first, then 2, and so on.")
    name = serializers.CharField(help_text="The kind's name for the seat (Celtic!: Orange, Blue).")
    user = PlayerSerializer()
    seconds_left = serializers.IntegerField(
        allow_null=True,
        help_text="The player's remaining time in seconds for their next move (null: no "
        "limit); while they are to move, the running time left before the deadline.",
    )
    place = serializers.IntegerField(
        allow_null=True,
        help_text="Finishing place once the game is finished (1 = first; a draw shares first "
        "place); null before.",
    )
    left_at_ply = serializers.IntegerField(
        allow_null=True, help_text="When the player left a game the others played on."
    )


LEGACY_COLOURS = ("Orange", "Blue")
"""The seat names behind the deprecated per-colour fields (``orange``, ``blue_seconds_left``
...): a game whose seats are named otherwise answers them null."""

DEPRECATED_GAME_FIELDS = ["orange", "blue", "to_move", "orange_seconds_left", "blue_seconds_left"]


@extend_schema_serializer(deprecate_fields=DEPRECATED_GAME_FIELDS)
class GameSummarySerializer(serializers.ModelSerializer):
    seats = serializers.SerializerMethodField(help_text="The players in seat (play) order.")
    seat_to_move = serializers.IntegerField(
        allow_null=True, help_text="The seat whose turn it is; null once the game is over."
    )
    orange = serializers.SerializerMethodField(
        help_text="Deprecated, use `seats`: the player of seat 1 in a game of Orange and "
        "Blue; null for other games."
    )
    blue = serializers.SerializerMethodField(
        help_text="Deprecated, use `seats`: the player of seat 2 in a game of Orange and "
        "Blue; null for other games."
    )
    to_move = serializers.SerializerMethodField(
        help_text="Deprecated, use `seat_to_move`: the name of the seat to move in lower case "
        "(orange, blue), empty once the game is over."
    )
    time_control = serializers.SerializerMethodField()
    orange_seconds_left = serializers.SerializerMethodField(
        help_text="Deprecated, use `seats`: Orange's remaining time in seconds for their next "
        "move (null: no limit, or not a game of Orange and Blue); while Orange is to move, "
        "the running time left before the deadline."
    )
    blue_seconds_left = serializers.SerializerMethodField(
        help_text="Deprecated, use `seats`: Blue's remaining time in seconds, as "
        "`orange_seconds_left`."
    )
    clock = serializers.SerializerMethodField(
        help_text="The running clock of the player to move; null when the game is over or has "
        "no time limit."
    )

    class Meta:
        model = Game
        fields = [
            "id",
            "kind",
            "seat_count",
            "seats",
            "seat_to_move",
            "orange",
            "blue",
            "status",
            "result",
            "termination",
            "ply",
            "to_move",
            "rated",
            "public",
            "window_forfeit",
            "takebacks",
            "time_control",
            "deadline",
            "orange_seconds_left",
            "blue_seconds_left",
            "clock",
            "created_at",
            "finished_at",
        ]

    def to_representation(self, instance: Game) -> dict[str, Any]:
        clocks = self.context.get("clocks")  # read for a whole page at once (game_clocks)
        if clocks is not None and instance.pk in clocks:
            self._clock = clocks[instance.pk]
        else:
            self._clock = game_clock(game=instance, now=timezone.now())  # read once per game
        return super().to_representation(instance)

    @extend_schema_field(GameSeatSerializer(many=True))
    def get_seats(self, obj: Game) -> list[dict[str, Any]]:
        return [
            {
                "seat": seat.seat,
                "name": obj.seat_name(seat.seat),
                "user": PlayerSerializer(seat.user).data,
                "seconds_left": self._seconds_left(obj, seat),
                "place": seat.place,
                "left_at_ply": seat.left_at_ply,
            }
            for seat in obj.seat_list
        ]

    @extend_schema_field(PlayerSerializer(allow_null=True))
    def get_orange(self, obj: Game) -> dict[str, Any] | None:
        seat = _colour_seat(obj, "Orange")
        return None if seat is None else PlayerSerializer(seat.user).data

    @extend_schema_field(PlayerSerializer(allow_null=True))
    def get_blue(self, obj: Game) -> dict[str, Any] | None:
        seat = _colour_seat(obj, "Blue")
        return None if seat is None else PlayerSerializer(seat.user).data

    def get_to_move(self, obj: Game) -> str:
        return "" if obj.seat_to_move is None else obj.seat_name(obj.seat_to_move).lower()

    @extend_schema_field(TimeControlOutputSerializer)
    def get_time_control(self, obj: Game) -> dict[str, Any]:
        return time_control_data(obj)

    def get_orange_seconds_left(self, obj: Game) -> int | None:
        seat = _colour_seat(obj, "Orange")
        return None if seat is None else self._seconds_left(obj, seat)

    def get_blue_seconds_left(self, obj: Game) -> int | None:
        seat = _colour_seat(obj, "Blue")
        return None if seat is None else self._seconds_left(obj, seat)

    @extend_schema_field(ClockSerializer(allow_null=True))
    def get_clock(self, obj: Game) -> dict[str, Any] | None:
        data = clock_data(obj, self._clock)
        return None if data is None else self._clock_serializer.to_representation(data)

    @cached_property
    def _clock_serializer(self) -> ClockSerializer:
        """One for every game of a page, as a nested field would be (a serializer made per
        game copies its declared fields each time)."""
        return ClockSerializer()

    def _seconds_left(self, game: Game, seat: GameSeat) -> int | None:
        """The running time left while it is ``seat``'s turn, else their stored bank."""
        if self._clock is not None and game.seat_to_move == seat.seat:
            return int(self._clock.time_left.total_seconds())
        return None if seat.time_left is None else int(seat.time_left.total_seconds())


def _colour_seat(game: Game, colour: str) -> GameSeat | None:
    """The seat named ``colour`` in a game of Orange and Blue (None in any other game)."""
    names = game.game_kind.seat_names(game.seat_count)
    if tuple(names) != LEGACY_COLOURS:
        return None
    return game.seat_row(names.index(colour) + 1)


@extend_schema_serializer(deprecate_fields=["side"])
class TurnSerializer(serializers.ModelSerializer):
    side = serializers.SerializerMethodField(
        help_text="Deprecated, use `seat`: the seat's name in lower case (orange, blue)."
    )

    class Meta:
        model = Move
        fields = ["ply", "seat", "side", "kind", "notation", "created_at"]
        extra_kwargs = {"seat": {"help_text": "The seat whose turn it was."}}

    def get_side(self, obj: Move) -> str:
        return obj.game.seat_name(obj.seat).lower()  # the game's rows know their game


@extend_schema_serializer(deprecate_fields=[*DEPRECATED_GAME_FIELDS, "your_side"])
class GameDetailSerializer(GameSummarySerializer):
    your_seat = serializers.SerializerMethodField(help_text="Your seat, or null if watching.")
    your_side = serializers.SerializerMethodField(
        help_text="Deprecated, use `your_seat`: your seat's name in lower case (orange, "
        "blue), or null if watching."
    )
    moves = serializers.SerializerMethodField()
    position = serializers.SerializerMethodField()
    chance_commitment = serializers.CharField(
        help_text="For a kind with chance (Celtic Knot's coin flips): the SHA-256 (hex) of "
        "the secret seed every outcome is drawn from, published from the start (the record's "
        "FlipCommit); empty for a kind without chance."
    )
    chance_seed = serializers.SerializerMethodField(
        help_text="The seed itself (hex, the record's FlipSeed), once the game is over: "
        "check that its SHA-256 is `chance_commitment` and re-derive every outcome "
        "(docs/KNOT.md). Null while the game runs and for a kind without chance."
    )

    class Meta(GameSummarySerializer.Meta):
        fields = [
            *GameSummarySerializer.Meta.fields,
            "your_seat",
            "your_side",
            "chance_commitment",
            "chance_seed",
            "moves",
            "position",
        ]

    def get_chance_seed(self, obj: Game) -> str | None:
        return None if obj.is_active or not obj.chance_seed else obj.chance_seed

    def get_your_seat(self, obj: Game) -> int | None:
        request = self.context.get("request")
        return obj.seat_of(request.user) if request else None

    def get_your_side(self, obj: Game) -> str | None:
        seat = self.get_your_seat(obj)
        return None if seat is None else obj.seat_name(seat).lower()

    @extend_schema_field(TurnSerializer(many=True))
    def get_moves(self, obj: Game) -> list[dict[str, Any]]:
        """The recorded turns, oldest first (from the context when already read)."""
        rows = self.context.get("moves")
        if rows is None:
            rows = obj.moves.all()
        return list(TurnSerializer(rows, many=True).data)

    @extend_schema_field(POSITION)
    def get_position(self, obj: Game) -> dict[str, Any]:
        return self.context["position"]


class ConditionalLineInputSerializer(StrictJsonTypes, serializers.Serializer):
    ply = serializers.IntegerField(
        min_value=0, help_text="The game's current `ply`: the line starts at your opponent's move."
    )
    moves = serializers.ListField(
        child=serializers.CharField(max_length=40),
        min_length=2,
        max_length=ConditionalLine.MAX_MOVES,
        help_text="Your opponent's move, your reply, and optionally more pairs: ['e4 N', 'f5 W'].",
    )


class ConditionalLineSerializer(serializers.ModelSerializer):
    class Meta:
        model = ConditionalLine
        fields = ["id", "start_ply", "moves", "created_at"]
        extra_kwargs = {"moves": {"help_text": "Your opponent's move first, then alternating."}}


@extend_schema_serializer(deprecate_fields=["to_move"])
class LiveStatusSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    ply = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    seat_to_move = serializers.IntegerField(
        allow_null=True, help_text="The seat whose turn it is; null once the game is over."
    )
    to_move = serializers.CharField(
        allow_null=True,
        help_text="Deprecated, use `seat_to_move`: the name of the seat to move in lower case.",
    )
    result = serializers.CharField(allow_null=True)
    your_turn = serializers.BooleanField()


class LiveStatusListSerializer(serializers.Serializer):
    your_turn = serializers.IntegerField(help_text="How many games wait for your move.")
    games = LiveStatusSerializer(many=True)


class MoveInputSerializer(StrictJsonTypes, serializers.Serializer):
    ply = serializers.IntegerField(
        min_value=0,
        help_text="The ply you are answering (the game's current `ply`). If the game has moved "
        "on, the move is refused with 409 and nothing changes.",
    )
    move = serializers.CharField(
        max_length=40,
        help_text="Cell, open sides (any order) and an optional n for neutral: 'f5 NE', "
        "'d5 NESW n'.",
    )


class MoveOutcomeSerializer(serializers.Serializer):
    turns = TurnSerializer(
        many=True,
        help_text="The steps recorded: your choice (with any chance outcome it drew, e.g. "
        "Celtic Knot's `a1 HT`) and any passes.",
    )
    flips = serializers.ListField(
        child=serializers.CharField(),
        help_text="Celtic Knot: the flips of the stack now to be moved (one `H` or `T` per "
        "coin), drawn by your square or by the extra move your destination earned; empty "
        "when no stack waits for its destination (and for kinds without coins).",
    )
    legal_moves = serializers.ListField(
        child=serializers.CharField(),
        help_text="What the seat to move (`game.seat_to_move`) may send now, as "
        "GET legal-moves answers it: after your square, its destinations; empty once over.",
    )
    game = GameDetailSerializer(help_text="The game after the move, its `position` included.")


@extend_schema_serializer(deprecate_fields=["to_move"])
class LegalMovesSerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    seat_to_move = serializers.IntegerField(
        allow_null=True, help_text="The seat the moves are for; null when no one moves."
    )
    to_move = serializers.CharField(
        allow_null=True,
        help_text="Deprecated, use `seat_to_move`: that seat's name in lower case.",
    )
    moves = serializers.ListField(
        child=serializers.CharField(), help_text="The kind's canonical notation, sorted."
    )


class ReasonSerializer(StrictJsonTypes, serializers.Serializer):
    reason = serializers.CharField(max_length=2000)


# --- Messages ---------------------------------------------------------------------------------


class MessageInputSerializer(StrictJsonTypes, serializers.Serializer):
    body = serializers.CharField(
        allow_blank=True,
        trim_whitespace=False,
        help_text="The message, 1 to 2000 characters once surrounding blanks are removed.",
    )


class MessageReportInputSerializer(StrictJsonTypes, serializers.Serializer):
    reason = serializers.CharField(
        allow_blank=True,
        trim_whitespace=False,
        help_text="What is wrong with the message, 1 to 500 characters.",
    )


class MessageHideInputSerializer(StrictJsonTypes, serializers.Serializer):
    reason = serializers.CharField(
        allow_blank=True,
        trim_whitespace=False,
        help_text="Why it is hidden, 1 to 300 characters: kept in the audit log.",
    )


class MessageOutputSerializer(serializers.Serializer):
    """A message as its reader may see it: a hidden one keeps its place but not its body."""

    id = serializers.IntegerField()
    author = PlayerSerializer()
    created_at = serializers.DateTimeField()
    hidden = serializers.BooleanField(source="is_hidden")
    body = serializers.CharField(
        source="shown_body",
        allow_null=True,
        help_text="None when the message is hidden (moderators still see it).",
    )
    hidden_reason = serializers.CharField(
        source="shown_reason",
        allow_null=True,
        help_text="Why a moderator hid it; shown to moderators only, else None.",
    )


class MessageReportOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    message = serializers.IntegerField(source="message_id")
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()


# --- Notes --------------------------------------------------------------------------------------


class GameNoteSerializer(serializers.Serializer):
    body = serializers.CharField(help_text="Your notes; empty if you wrote none.")
    updated_at = serializers.DateTimeField(allow_null=True, help_text="When you last saved them.")


class GameNoteInputSerializer(StrictJsonTypes, serializers.Serializer):
    body = serializers.CharField(
        allow_blank=True,
        trim_whitespace=False,
        help_text="Your notes, up to 10000 characters; empty deletes them.",
    )


# --- Takebacks ----------------------------------------------------------------------------------


class TakebackSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    requester = PlayerSerializer()
    ply = serializers.IntegerField(help_text="The game's ply when it was asked.")
    move = serializers.CharField(help_text="The move to take back.")
    status = serializers.ChoiceField(choices=["pending", "accepted", "declined"])
    created_at = serializers.DateTimeField()
    decided_at = serializers.DateTimeField(allow_null=True)


class TakebackPendingSerializer(serializers.Serializer):
    pending = TakebackSerializer(
        allow_null=True, help_text="The takeback waiting for an answer now, if any."
    )


class TakebackInputSerializer(StrictJsonTypes, serializers.Serializer):
    ply = serializers.IntegerField(
        min_value=0, help_text="The game's current `ply` (your move is the one before it)."
    )


# --- Game kinds ---------------------------------------------------------------------------------


class SeatRangeSerializer(serializers.Serializer):
    min = serializers.IntegerField(help_text="The fewest players a game of the kind may have.")
    max = serializers.IntegerField(help_text="The most players.")


class GameKindSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="The `kind` of challenges and games.")
    name = serializers.CharField()
    rules_version = serializers.CharField()
    seats = SeatRangeSerializer(help_text="How many players a game may have.")
    seat_names = serializers.ListField(
        child=serializers.CharField(),
        help_text="The seats' names for the most players, seat 1 first.",
    )
    chance = serializers.BooleanField(help_text="Whether chance plays a part (dice, coins).")
    notation_help = serializers.CharField(help_text="How to write a move.")


def game_kind_data(kind: GameKind) -> dict[str, Any]:
    """What ``GameKindSerializer`` shows of ``kind``."""
    return {
        "id": kind.id,
        "name": kind.name,
        "rules_version": kind.rules_version,
        "seats": {"min": kind.seats.min, "max": kind.seats.max},
        "seat_names": kind.seat_names(kind.seats.max),
        "chance": kind.has_chance,
        "notation_help": kind.notation_help,
    }
