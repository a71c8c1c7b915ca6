"""Input and output serializers of the tournaments API. They check shape; the services check
the rules (a settings combination, a registration rule, a pairing) and name what is wrong."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from celticsite.api import StrictJsonTypes
from games.serializers import (
    PlayerSerializer,
    TimeControlOutputSerializer,
    TimeControlSerializer,
    time_control_data,
)
from tournaments.models import (
    ADJUDICATED_RESULTS,
    Bye,
    Entry,
    KnockoutMatch,
    Round,
    Tournament,
    TournamentGame,
)
from tournaments.services import SETTING_FIELDS, SETTING_RANGES, TIEBREAKS_HELP
from tournaments.standings import EDITIONS, TIEBREAKS
from tournaments.tables import COLOURS

USERNAME_PATTERN = r"^[\w.@+-]+$"
"""The characters of a username (Django's rule), as a pattern JSON Schema can state too."""

SMALLEST_INT, LARGEST_SMALL_INT = 0, 32767
"""The range of the model's PositiveSmallIntegerFields (a PostgreSQL smallint)."""
_RANGE_VALIDATORS = (MinValueValidator, MaxValueValidator)


def number(value: Fraction | int | None) -> float | int | None:
    """A point total or tie-break as JSON: an int when whole, else a float (halves, thirds)."""
    if value is None:
        return None
    if isinstance(value, Fraction) and value.denominator != 1:
        return float(value)
    return int(value)


# --- Inputs ---------------------------------------------------------------------------------


def _counts(**minimums: int) -> dict[str, dict[str, int]]:
    """Number settings with their smallest value and the column's largest."""
    return {
        name: {"min_value": low, "max_value": LARGEST_SMALL_INT} for name, low in minimums.items()
    }


@extend_schema_field(TimeControlSerializer)
class WholeTimeControlField(serializers.Field):
    """A clock, always given whole: in a partial update too, the parts left out take their
    defaults (a partial nested serializer would skip them and then miss them)."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        clock = TimeControlSerializer(data=data)
        clock.is_valid(raise_exception=True)
        return dict(clock.validated_data)

    def to_representation(self, value: Any) -> Any:
        return value


KIND_INPUT_HELP = (
    "The game kind every pairing plays (default `celtic`, Celtic!): the id of a kind whose "
    "games may have two seats. An unknown id, or a kind not played by two, is refused with "
    "400 `invalid_settings` naming the known kinds or the kind's number of players."
)
KIND_OUTPUT_HELP = "The game kind played (`celtic`: Celtic!)."


class TournamentSettingsInputSerializer(StrictJsonTypes, serializers.ModelSerializer):
    """The settings an organiser chooses (every field optional on update).

    Each field states its own limits (so the OpenAPI document does); the rules that tie
    settings together (a Swiss event's rounds, a start date for ``at_date``, dates in order,
    a unique name) are the service's, answered 400 ``invalid_settings`` naming the fields.
    """

    time_control = WholeTimeControlField(required=False)
    kind = serializers.CharField(required=False, max_length=20, help_text=KIND_INPUT_HELP)
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=TIEBREAKS),
        required=False,
        help_text=TIEBREAKS_HELP,
    )
    tiebreak_edition = serializers.ChoiceField(
        choices=EDITIONS, required=False, help_text="The edition of FIDE C.07."
    )

    class Meta:
        model = Tournament
        fields = [*SETTING_FIELDS, "time_control"]
        extra_kwargs = {
            # the service checks the name (unique, case-insensitive) with the other settings
            "name": {"validators": []},
            **_counts(rounds_planned=SMALLEST_INT),
            **{
                name: {"min_value": allowed.low, "max_value": allowed.high}
                for name, allowed in SETTING_RANGES.items()
            },
        }

    def get_fields(self) -> dict[str, serializers.Field]:
        """The ranges of ``SETTING_RANGES`` are stated (the OpenAPI document shows them) and
        checked by the service with the other settings, which answers a value outside with
        400 ``invalid_settings`` naming the range; here only the column's range is checked."""
        fields = super().get_fields()
        for name in SETTING_RANGES:
            field = fields[name]
            field.validators = [
                *(v for v in field.validators if not isinstance(v, _RANGE_VALIDATORS)),
                MinValueValidator(SMALLEST_INT),
                MaxValueValidator(LARGEST_SMALL_INT),
            ]
        return fields

    def service_kwargs(self) -> dict[str, Any]:
        """The validated settings as the services take them."""
        data = dict(self.validated_data)
        time_control = data.pop("time_control", None)
        if time_control is not None:
            data["time_control"] = time_control["time_control"]
        return data


class RegisterInputSerializer(StrictJsonTypes, serializers.Serializer):
    entry_code = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=50,
        help_text="The code from the organiser, if the event asks for one.",
    )


class ReasonInputSerializer(StrictJsonTypes, serializers.Serializer):
    reason = serializers.CharField(
        max_length=2000, help_text="Why: shown to the players and kept in the audit log."
    )


class InviteInputSerializer(StrictJsonTypes, serializers.Serializer):
    username = serializers.CharField(
        max_length=150,
        validators=[RegexValidator(USERNAME_PATTERN, "Letters, digits and @ . + - _ only.")],
        help_text="The player invited.",
    )


class ManualPairingInputSerializer(StrictJsonTypes, serializers.Serializer):
    pairs = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        help_text="[orange entry id, blue entry id] for each game of the next round.",
    )
    byes = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        default=list,
        help_text="Entry ids given a pairing bye.",
    )
    reason = serializers.CharField(max_length=2000, help_text="Why the round is paired by hand.")


class ByeRequestInputSerializer(StrictJsonTypes, serializers.Serializer):
    round = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        help_text="The round (not paired yet); the next round when omitted.",
    )


class ByeEnterInputSerializer(ByeRequestInputSerializer):
    kind = serializers.ChoiceField(
        choices=Bye.Kind.choices,
        help_text="Z (absent, not answering), H (a half-point bye), F (a full-point bye); "
        "U, the pairing bye, is the engine's to give (400 invalid_bye_kind).",
    )
    reason = serializers.CharField(max_length=2000, help_text="Kept in the audit log.")


class ForbiddenPairsInputSerializer(StrictJsonTypes, serializers.Serializer):
    pairs = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        help_text="[entry id, entry id] for each pair who must never meet; replaces the list.",
    )
    reason = serializers.CharField(
        max_length=2000,
        required=False,
        allow_blank=True,
        default="",
        help_text="Required once the event runs (kept in the audit log).",
    )


class ForbiddenPairsOutputSerializer(serializers.Serializer):
    forbidden_pairs = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField())
    )


class ResultInputSerializer(StrictJsonTypes, serializers.Serializer):
    """Fixing a result: any decided result (not "pending")."""

    result = serializers.ChoiceField(
        choices=[(v, label) for v, label in TournamentGame.Result.choices if v],
        help_text="Any result, e.g. +/- (a forfeit) or cancelled.",
    )
    reason = serializers.CharField(max_length=2000, help_text="Kept in the audit log.")


class AdjudicationInputSerializer(StrictJsonTypes, serializers.Serializer):
    """Adjudicating a game: a win or a draw, as if it had been played out."""

    result = serializers.ChoiceField(
        choices=[(v.value, v.label) for v in ADJUDICATED_RESULTS],
        help_text="1-0, 0-1 or 1/2-1/2.",
    )
    reason = serializers.CharField(max_length=2000, help_text="Kept in the audit log.")


class MatchDecideInputSerializer(StrictJsonTypes, serializers.Serializer):
    winner_entry_id = serializers.IntegerField(help_text="The entry id of the match's winner.")
    reason = serializers.CharField(max_length=2000, help_text="Kept in the audit log.")


class TrfImportInputSerializer(StrictJsonTypes, serializers.Serializer):
    trf = serializers.CharField(
        trim_whitespace=False, help_text="The whole TRF file (FIDE TRF-2026) as text."
    )
    name = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=200,
        help_text="The event's name here (default: the file's name, record 012).",
    )


# --- Outputs --------------------------------------------------------------------------------


class LeagueRefSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The league: /api/v1/leagues/{id}/.")
    name = serializers.CharField()


class SeasonRefSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The season: /api/v1/leagues/seasons/{id}/.")
    number = serializers.IntegerField(help_text="1 for the league's first season.")


class LeagueDivisionSerializer(serializers.Serializer):
    """The league division a round robin is played as (the leagues app owns it)."""

    id = serializers.IntegerField(help_text="Its table: /api/v1/leagues/divisions/{id}/.")
    name = serializers.CharField(help_text='"Division 2", or "Rookies" for a rookie division.')
    tier = serializers.IntegerField(help_text="1 = the top division.")
    rookie = serializers.BooleanField(help_text="A division of the season's newcomers.")
    league = LeagueRefSerializer(source="season.league")
    season = SeasonRefSerializer()


class WinnerSerializer(serializers.ModelSerializer):
    """A player who finished first (one of several when they share first place)."""

    entry_id = serializers.IntegerField(source="pk")
    player = PlayerSerializer(
        allow_null=True, help_text="Their account; null for an imported player without one."
    )

    class Meta:
        model = Entry
        fields = ["entry_id", "name", "player"]


@extend_schema_serializer(deprecate_fields=["winner"])
class TournamentSummarySerializer(serializers.ModelSerializer):
    organiser = PlayerSerializer()
    winner = PlayerSerializer(
        allow_null=True,
        help_text="Deprecated, read `winners`: the one player first, null when several share "
        "first place (or before the end).",
    )
    winners = WinnerSerializer(
        many=True,
        read_only=True,
        help_text="Who finished first (in section 1), best seed first: one player, or all "
        "those the tie-breaks leave level, who share first place. A knockout has one. Empty "
        "until the event is over.",
    )
    league_division = LeagueDivisionSerializer(
        source="division",
        allow_null=True,
        read_only=True,
        help_text="The league division this round robin is played as (its league, season and "
        "tier), or null for a tournament of its own. The list leaves divisions out with "
        "`league_division=false`.",
    )
    time_control = serializers.SerializerMethodField()
    needs_entry_code = serializers.SerializerMethodField(
        help_text="Registering needs the organiser's entry code."
    )

    class Meta:
        model = Tournament
        extra_kwargs = {"kind": {"help_text": KIND_OUTPUT_HELP}}
        fields = [
            "id",
            "name",
            "kind",
            "format",
            "status",
            "organiser",
            "public",
            "rated",
            "registration_mode",
            "needs_entry_code",
            "registration_closes_at",
            "starts_at",
            "max_players",
            "rounds_planned",
            "time_control",
            "winner",
            "winners",
            "league_division",
            "created_at",
            "started_at",
            "finished_at",
        ]

    @extend_schema_field(TimeControlOutputSerializer)
    def get_time_control(self, obj: Tournament) -> dict[str, Any]:
        return time_control_data(obj)  # type: ignore[arg-type]

    def get_needs_entry_code(self, obj: Tournament) -> bool:
        return bool(obj.entry_code)


class RulesSerializer(serializers.ModelSerializer):
    """Every setting but the entry code (which only the organiser sees)."""

    class Meta:
        model = Tournament
        fields = [f for f in SETTING_FIELDS if f not in ("name", "description", "entry_code")]


class EntryOutputSerializer(serializers.ModelSerializer):
    player = PlayerSerializer(allow_null=True)

    class Meta:
        model = Entry
        fields = [
            "id",
            "name",
            "player",
            "status",
            "seed",
            "section",
            "rating_at_start",
            "joined_round",
            "registered_at",
            "withdrawn_after_round",
            "results_cancelled",
            "final_rank",
            "final_points",
        ]


class TournamentGameOutputSerializer(serializers.ModelSerializer):
    game_id = serializers.IntegerField(allow_null=True, help_text="Null for an imported result.")
    orange = serializers.CharField(source="orange.name")
    blue = serializers.CharField(source="blue.name")
    orange_entry_id = serializers.IntegerField(source="orange_id")
    blue_entry_id = serializers.IntegerField(source="blue_id")
    ply = serializers.SerializerMethodField()

    class Meta:
        model = TournamentGame
        fields = [
            "id",
            "game_id",
            "board",
            "section",
            "orange",
            "blue",
            "orange_entry_id",
            "blue_entry_id",
            "result",
            "result_fixed",
            "needs_adjudication",
            "match",
            "pair",
            "ply",
        ]

    def get_ply(self, obj: TournamentGame) -> int | None:
        return obj.game.ply if obj.game is not None else None


class ByeOutputSerializer(serializers.ModelSerializer):
    entry_id = serializers.IntegerField()
    name = serializers.CharField(source="entry.name")

    class Meta:
        model = Bye
        fields = ["entry_id", "name", "kind"]


class ByeEnteredSerializer(ByeOutputSerializer):
    """A bye entered ahead of its round, with the round's number."""

    round = serializers.IntegerField(source="round.number")

    class Meta(ByeOutputSerializer.Meta):
        fields = [*ByeOutputSerializer.Meta.fields, "round"]


class MatchOutputSerializer(serializers.ModelSerializer):
    higher = serializers.CharField(source="higher.name")
    lower = serializers.CharField(source="lower.name", allow_null=True)
    winner = serializers.CharField(source="winner.name", allow_null=True)

    class Meta:
        model = KnockoutMatch
        fields = [
            "id",
            "number",
            "higher_id",
            "higher",
            "lower_id",
            "lower",
            "pairs_started",
            "winner_id",
            "winner",
            "decided_by",
        ]


class RoundOutputSerializer(serializers.ModelSerializer):
    games = TournamentGameOutputSerializer(many=True)
    byes = ByeOutputSerializer(many=True)
    matches = MatchOutputSerializer(many=True)

    class Meta:
        model = Round
        fields = [
            "number",
            "status",
            "starts_at",
            "ends_at",
            "started_at",
            "completed_at",
            "games",
            "byes",
            "matches",
        ]


class DetailRoundSerializer(RoundOutputSerializer):
    games = TournamentGameOutputSerializer(
        many=True,
        help_text="Deprecated: every game of the first rounds while their total stays within "
        "200, none for the rounds after (`games_listed` false). Read `games/?round=N`.",
    )
    game_count = serializers.IntegerField(help_text="The round's games.")
    games_listed = serializers.BooleanField(
        help_text="Whether `games` holds every game of the round (else it is empty)."
    )

    class Meta(RoundOutputSerializer.Meta):
        fields = [*RoundOutputSerializer.Meta.fields, "game_count", "games_listed"]


class TournamentGameListedSerializer(TournamentGameOutputSerializer):
    round = serializers.IntegerField(source="round.number", help_text="The round's number.")

    class Meta(TournamentGameOutputSerializer.Meta):
        fields = ["round", *TournamentGameOutputSerializer.Meta.fields]


class TournamentDetailSerializer(TournamentSummarySerializer):
    rules = serializers.SerializerMethodField()
    entry_code = serializers.SerializerMethodField(
        help_text="The entry code: shown to those who manage the event, else null."
    )
    entries = EntryOutputSerializer(
        many=True,
        source="entry_list",
        help_text="Deprecated: the first 200 entries (seed order, then by registration); "
        "`entry_count` says how many there are. Read `entries/`.",
    )
    entry_count = serializers.IntegerField(help_text="Every entry, whatever its status.")
    rounds = DetailRoundSerializer(many=True, source="round_list")
    can_manage = serializers.SerializerMethodField(
        help_text="Whether you may run this event (settings, entries, rounds, results)."
    )

    class Meta(TournamentSummarySerializer.Meta):
        fields = [
            *TournamentSummarySerializer.Meta.fields,
            "description",
            "status_note",
            "imported",
            "forbidden_pairs",
            "rules",
            "entry_code",
            "can_manage",
            "entry_count",
            "entries",
            "rounds",
        ]

    @extend_schema_field(RulesSerializer)
    def get_rules(self, obj: Tournament) -> dict[str, Any]:
        return RulesSerializer(obj).data

    def get_can_manage(self, obj: Tournament) -> bool:
        return bool(self.context.get("can_manage"))

    def get_entry_code(self, obj: Tournament) -> str | None:
        return obj.entry_code if self.context.get("can_manage") else None


class StandingsRowSerializer(serializers.Serializer):
    section = serializers.IntegerField()
    rank = serializers.IntegerField(help_text="Shared ranks repeat (two players 2nd: 2, 2, 4).")
    place = serializers.CharField(
        help_text="The rank as shown; a knockout's shared places as a range (3\u20134)."
    )
    stage = serializers.CharField(
        allow_blank=True,
        help_text="A knockout: the stage reached (Winner, Still in, or the round the player "
        "went out in: Final, Semi-finals, ...); empty for other formats.",
    )
    entry_id = serializers.IntegerField()
    number = serializers.IntegerField(help_text="The player's number in the section.")
    name = serializers.CharField()
    username = serializers.CharField(allow_null=True)
    points = serializers.FloatField()
    tiebreaks = serializers.DictField(
        child=serializers.FloatField(allow_null=True),
        help_text="The event's tie-breaks in order, by code.",
    )
    withdrawn = serializers.BooleanField()
    best_place = serializers.IntegerField(allow_null=True, help_text="Best final place still open.")
    worst_place = serializers.IntegerField(allow_null=True, help_text="Worst final place possible.")
    clinched = serializers.BooleanField(help_text="First place is certain.")
    eliminated = serializers.BooleanField(help_text="First place (even shared) is out of reach.")
    places_exact = serializers.BooleanField(
        help_text="False when the places are bounds (a Swiss: later pairings unknown)."
    )


class StandingsOutputSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text="Rows in every page together.")
    next = serializers.URLField(allow_null=True, help_text="The next page, null on the last.")
    previous = serializers.URLField(
        allow_null=True, help_text="The previous page, null on the first."
    )
    tiebreaks = serializers.ListField(child=serializers.CharField())
    edition = serializers.CharField(help_text="The FIDE C.07 edition: 2026 or 2024.")
    rows = StandingsRowSerializer(many=True)


class CrosstableRowSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    entry_id = serializers.IntegerField()
    cells = serializers.ListField(
        child=serializers.CharField(allow_blank=True),
        help_text="Results against players 1..n: 1, ½, 0, + (forfeit win), - ; x = self.",
    )
    byes = serializers.ListField(
        child=serializers.CharField(),
        help_text="Rounds without an opponent, in order: +B pairing-allocated bye, 1B "
        "full-point bye, ½B half-point bye, 0B absent. Cells and byes add up to the points.",
    )
    points = serializers.FloatField()


class CrosstableOutputSerializer(serializers.Serializer):
    section = serializers.IntegerField()
    rows = CrosstableRowSerializer(many=True)


class RoundCellSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    opponent = serializers.IntegerField(
        allow_null=True, help_text="The opponent's number in the section; null for a bye."
    )
    colour = serializers.ChoiceField(
        # labelled as the games' sides, whose enum (SideEnum) the schema shares
        choices=[(colour, colour.capitalize()) for colour in COLOURS],
        allow_null=True,
        help_text="The colour the player had.",
    )
    mark = serializers.CharField(
        allow_blank=True,
        help_text="1, ½, 0; + or - a forfeit won or lost; +B pairing-allocated bye, 1B "
        "full-point bye, ½B half-point bye, 0B absent; empty while the game runs or when "
        "the player had no round.",
    )
    points = serializers.FloatField()
    pending = serializers.BooleanField(help_text="The game is still being played.")
    game_id = serializers.IntegerField(allow_null=True)


class RoundTableRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    number = serializers.IntegerField(help_text="The player's number in the section.")
    entry_id = serializers.IntegerField()
    name = serializers.CharField()
    username = serializers.CharField(allow_null=True)
    withdrawn = serializers.BooleanField()
    cells = RoundCellSerializer(many=True, help_text="One per round, in round order.")
    points = serializers.FloatField(help_text="The sum of the cells' points.")


class RoundTableOutputSerializer(serializers.Serializer):
    section = serializers.IntegerField()
    rounds = serializers.ListField(child=serializers.IntegerField())
    rows = RoundTableRowSerializer(many=True, help_text="In standings order.")


class BracketSideSerializer(serializers.Serializer):
    entry_id = serializers.IntegerField(
        allow_null=True, help_text="Null until the player is known."
    )
    name = serializers.CharField(allow_blank=True)
    username = serializers.CharField(allow_null=True)
    seed = serializers.IntegerField(allow_null=True)
    score = serializers.FloatField(help_text="Points in the match's games.")
    winner = serializers.BooleanField(help_text="Went through.")
    from_match = serializers.IntegerField(
        allow_null=True,
        help_text="In a round not paired yet: the previous round's match whose winner plays here.",
    )


class BracketGameSerializer(serializers.Serializer):
    pair = serializers.IntegerField()
    result = serializers.CharField(allow_blank=True, help_text="Orange-Blue; empty while it runs.")
    orange = serializers.CharField(help_text="The name of the player with Orange.")
    game_id = serializers.IntegerField(allow_null=True)


class BracketMatchSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    top = BracketSideSerializer(help_text="The winner of the upper match of the previous round.")
    bottom = BracketSideSerializer(allow_null=True, help_text="Null for a bye.")
    decided_by = serializers.CharField(
        allow_blank=True, help_text="games, bye, higher_seed, organiser, withdrawal; empty."
    )
    games = BracketGameSerializer(many=True)


class BracketRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField(help_text="Final, Semi-finals, Quarter-finals or Round n.")
    matches = BracketMatchSerializer(many=True)
