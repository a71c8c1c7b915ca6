"""Input and output serializers of the leagues API. They check shape; the services check the
rules (sizes, promotions, registration) and name what is wrong."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.validators import RegexValidator
from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from celticsite.api import StrictJsonTypes
from games.serializers import (
    PlayerSerializer,
    TimeControlOutputSerializer,
    TimeControlSerializer,
    time_control_data,
)
from leagues.errors import InvalidLeagueSettings
from leagues.models import League, Membership, Season
from leagues.services import RULE_FIELDS, RULE_LIMITS, first_opening_refusal
from tournaments.serializers import KIND_OUTPUT_HELP, USERNAME_PATTERN, number

# The service refuses a rule out of range with 400 ``invalid_settings`` naming the range.
_RULES_CHECKED_BY_THE_SERVICE = {
    field: {"min_value": None, "max_value": None} for field in RULE_LIMITS
}
_KIND_INPUT = {
    "kind": {
        "help_text": "The game kind every division plays (default `celtic`, Celtic!): the id "
        "of a kind whose games may have two seats; a change applies from the next season. An "
        "unknown id, or a kind not played by two, is refused with 400 `invalid_settings`."
    }
}

# --- Inputs ----------------------------------------------------------------------------------


class _WithTimeControl(StrictJsonTypes, serializers.ModelSerializer):
    def service_kwargs(self) -> dict[str, Any]:
        """The validated data as the services take them (a ``TimeControl``)."""
        data = dict(self.validated_data)
        time_control = data.pop("time_control", None)
        if time_control is not None:
            data["time_control"] = time_control["time_control"]
        return data


def _tiebreaks_field() -> serializers.ListField:
    """A list of tie-break codes (the service names any it does not know); never null."""
    return serializers.ListField(
        child=serializers.CharField(max_length=20),
        required=False,
        help_text='Tie-break codes in order, e.g. ["de", "sb"].',
    )


class LeagueCreateInputSerializer(_WithTimeControl):
    """A league's name and rules, the first season's registration date, the time control."""

    first_registration_opens_at = serializers.DateTimeField(
        help_text="When season 1 opens for registration; it starts `registration_days` later."
    )
    time_control = TimeControlSerializer(required=False)
    tiebreaks = _tiebreaks_field()

    class Meta:
        model = League
        fields = ["name", *RULE_FIELDS, "first_registration_opens_at", "time_control"]
        extra_kwargs = {
            "name": {"validators": []},  # the service checks it, case-insensitively
            **_RULES_CHECKED_BY_THE_SERVICE,
            **_KIND_INPUT,
        }

    def validate_first_registration_opens_at(self, value: datetime) -> datetime:
        problem = first_opening_refusal(opens_at=value, now=timezone.now())
        if problem:  # refused as the service refuses a bad rule: 400 invalid_settings
            raise InvalidLeagueSettings(
                f"Invalid rules: first_registration_opens_at: {problem}",
                errors={"first_registration_opens_at": problem},
            )
        return value


class LeagueUpdateInputSerializer(_WithTimeControl):
    """Any of the name and rules; the next season's start uses them."""

    time_control = TimeControlSerializer(required=False)
    tiebreaks = _tiebreaks_field()

    class Meta:
        model = League
        fields = ["name", *RULE_FIELDS, "time_control"]
        extra_kwargs = {
            "name": {"validators": [], "required": False},
            **_RULES_CHECKED_BY_THE_SERVICE,
            **_KIND_INPUT,
        }


class SeasonRegisterInputSerializer(StrictJsonTypes, serializers.Serializer):
    this_season_only = serializers.BooleanField(
        default=False, help_text="True: not carried into the next season automatically."
    )


class SeasonCarryOverInputSerializer(StrictJsonTypes, serializers.Serializer):
    carry_over = serializers.BooleanField(
        help_text="True: registered for the next season automatically; False: this season only."
    )


class LeagueMoveInputSerializer(StrictJsonTypes, serializers.Serializer):
    player_id = serializers.IntegerField(help_text="The user id of a registered player.")
    tier = serializers.IntegerField(
        allow_null=True, min_value=1, help_text="1 = the top division; null: as the rules say."
    )
    reason = serializers.CharField(max_length=2000, help_text="Why: kept in the audit log.")


class LeaguePlayerInputSerializer(StrictJsonTypes, serializers.Serializer):
    username = serializers.CharField(
        max_length=150,
        validators=[RegexValidator(USERNAME_PATTERN, "Letters, digits and @ . + - _ only.")],
        help_text="The player's username.",
    )


class LeaguePlayerRemoveInputSerializer(LeaguePlayerInputSerializer):
    reason = serializers.CharField(
        max_length=2000, help_text="Why: told to nobody but kept in the audit log."
    )


# --- Outputs ---------------------------------------------------------------------------------


class SeasonSummarySerializer(serializers.ModelSerializer):
    class Meta:
        model = Season
        fields = [
            "id",
            "number",
            "status",
            "status_note",
            "registration_opens_at",
            "starts_at",
            "ends_at",
            "started_at",
            "finished_at",
        ]


class LeagueSummarySerializer(serializers.ModelSerializer):
    organiser = PlayerSerializer()

    class Meta:
        model = League
        fields = ["id", "name", "kind", "description", "organiser", "public"]
        extra_kwargs = {"kind": {"help_text": KIND_OUTPUT_HELP}}


class LeagueDetailSerializer(serializers.ModelSerializer):
    organiser = PlayerSerializer()
    time_control = serializers.SerializerMethodField()
    seasons = SeasonSummarySerializer(many=True, source="season_list")

    class Meta:
        model = League
        fields = ["id", "name", "organiser", *RULE_FIELDS, "time_control", "seasons"]
        extra_kwargs = {"kind": {"help_text": KIND_OUTPUT_HELP}}

    @extend_schema_field(TimeControlOutputSerializer)
    def get_time_control(self, obj: League) -> dict[str, Any]:
        return time_control_data(obj)  # type: ignore[arg-type]


class MembershipSerializer(serializers.ModelSerializer):
    player = PlayerSerializer()
    division = serializers.CharField(source="division.name", allow_null=True, default=None)

    class Meta:
        model = Membership
        fields = [
            "player",
            "status",
            "carried_over",
            "this_season_only",
            "tier_requested",
            "division",
            "placed_how",
            "final_place",
            "outcome",
            "next_tier",
        ]


class TableLineSerializer(serializers.Serializer):
    place = serializers.IntegerField(help_text="Shared places repeat (2, 2, 4).")
    name = serializers.CharField()
    username = serializers.CharField(source="player.username", allow_null=True, default=None)
    points = serializers.SerializerMethodField()
    tiebreaks = serializers.SerializerMethodField()
    withdrawn = serializers.BooleanField()
    best_place = serializers.IntegerField(source="best", allow_null=True)
    worst_place = serializers.IntegerField(source="worst", allow_null=True)
    zone = serializers.ChoiceField(
        choices=["promotion", "relegation", ""], help_text="Where the place stands now."
    )
    decided = serializers.ChoiceField(
        choices=["promoted", "relegated", "stays", ""],
        help_text="A move certain whatever the games left (ties counted against the player).",
    )
    outcome = serializers.ChoiceField(
        choices=Membership.Outcome.values, help_text="The move once the season is over."
    )

    def get_points(self, line: Any) -> float:
        return float(line.points)

    @extend_schema_field(
        serializers.DictField(
            child=serializers.FloatField(allow_null=True),
            help_text="The league's tie-breaks in order, by code (whole numbers are numbers).",
        )
    )
    def get_tiebreaks(self, line: Any) -> dict[str, float | int | None]:
        return {code: number(value) for code, value in line.tiebreaks.items()}


class DivisionTableSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="division.pk")
    name = serializers.CharField(source="division.name")
    tier = serializers.IntegerField(source="division.tier")
    rookie = serializers.BooleanField(source="division.rookie")
    tournament_id = serializers.IntegerField(
        source="division.tournament_id",
        help_text="The division's round robin: its games, withdrawals and adjudications "
        "are under /api/v1/tournaments/{id}/.",
    )
    tiebreaks = serializers.ListField(child=serializers.CharField())
    promoted = serializers.IntegerField(help_text="How many go up from this division.")
    relegated = serializers.IntegerField(help_text="How many go down from it.")
    lines = TableLineSerializer(many=True)


class SeasonDetailSerializer(serializers.ModelSerializer):
    league = LeagueSummarySerializer()
    memberships = MembershipSerializer(many=True, source="membership_list")
    divisions = DivisionTableSerializer(many=True, source="table_list")

    class Meta:
        model = Season
        fields = [*SeasonSummarySerializer.Meta.fields, "league", "memberships", "divisions"]


class WinnersSerializer(serializers.Serializer):
    season = serializers.IntegerField(source="season.number")
    winners = serializers.SerializerMethodField()

    def get_winners(self, row: Any) -> list[dict[str, str]]:
        return [{"division": division, "winner": name} for division, name, _ in row.winners]


class PathStepSerializer(serializers.Serializer):
    season = serializers.IntegerField(source="season_number")
    division = serializers.CharField()
    place = serializers.IntegerField(allow_null=True)
    outcome = serializers.CharField(allow_blank=True)


class PlayerPathSerializer(serializers.Serializer):
    name = serializers.CharField()
    username = serializers.CharField(source="player.username")
    steps = PathStepSerializer(many=True)


class HistorySerializer(serializers.Serializer):
    seasons = WinnersSerializer(many=True)
    players = PlayerPathSerializer(many=True)


class InvitationSerializer(serializers.ModelSerializer):
    """An invitation still open: the season it is for and the league's organiser."""

    season = SeasonSummarySerializer()
    league_id = serializers.IntegerField(source="season.league_id")
    league_name = serializers.CharField(source="season.league.name")
    organiser = PlayerSerializer(source="season.league.organiser")

    class Meta:
        model = Membership
        fields = ["league_id", "league_name", "organiser", "season", "registered_at"]
