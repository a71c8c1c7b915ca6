"""Input and output serializers of the ladders API. They check shape; the services check the
rules (ranges, limits, rematches) and name what is wrong."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from celticsite.api import StrictJsonTypes
from games.serializers import (
    PlayerSerializer,
    TimeControlOutputSerializer,
    TimeControlSerializer,
    time_control_data,
)
from ladders.models import Ladder, LadderChallenge, LadderEvent
from ladders.services import LIMIT_FIELDS, OTHER_FIELDS

# --- Inputs ----------------------------------------------------------------------------------


class LadderCreateInputSerializer(StrictJsonTypes, serializers.ModelSerializer):
    """A ladder's name, limits and the time control of its challenge games."""

    time_control = TimeControlSerializer(required=False)

    class Meta:
        model = Ladder
        fields = ["name", *LIMIT_FIELDS, *OTHER_FIELDS, "time_control"]
        extra_kwargs = {
            "name": {"validators": []},  # the service checks it, case-insensitively
            # the service refuses a limit out of range: 400 invalid_settings naming the range
            **{field: {"min_value": None, "max_value": None} for field in LIMIT_FIELDS},
            "kind": {
                "help_text": "The game kind every challenge plays (default `celtic`, Celtic!): "
                "the id of a kind whose games may have two seats. An unknown id, or a kind not "
                "played by two, is refused with 400 `invalid_settings`."
            },
        }

    def service_kwargs(self) -> dict[str, Any]:
        """The validated data as ``ladder_create`` takes them (a ``TimeControl``)."""
        data = dict(self.validated_data)
        time_control = data.pop("time_control", None)
        if time_control is not None:
            data["time_control"] = time_control["time_control"]
        return data


class LadderChallengeInputSerializer(StrictJsonTypes, serializers.Serializer):
    opponent = serializers.CharField(
        help_text="Username of the player challenged: one to `challenge_range` places above you."
    )


class LadderRemoveInputSerializer(StrictJsonTypes, serializers.Serializer):
    player = serializers.CharField(help_text="Username of the player to remove.")
    reason = serializers.CharField(help_text="Why; kept in the audit log.")


# --- Outputs ---------------------------------------------------------------------------------


class LadderSummarySerializer(serializers.ModelSerializer):
    organiser = PlayerSerializer()
    player_count = serializers.IntegerField()
    time_control = serializers.SerializerMethodField()

    class Meta:
        model = Ladder
        extra_kwargs = {"kind": {"help_text": "The game kind played (`celtic`: Celtic!)."}}
        fields = [
            "id",
            "name",
            "kind",
            "organiser",
            "player_count",
            *LIMIT_FIELDS,
            "rated",
            "public",
            "time_control",
        ]

    @extend_schema_field(TimeControlOutputSerializer)
    def get_time_control(self, ladder: Ladder) -> dict[str, Any]:
        return time_control_data(ladder)  # type: ignore[arg-type]


class PlaceSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    player_id = serializers.IntegerField()
    username = serializers.CharField(source="name")
    joined_at = serializers.DateTimeField()
    last_active_at = serializers.DateTimeField()
    playing = serializers.BooleanField(help_text="Has a challenge game being played.")
    challengeable = serializers.BooleanField(
        help_text="Within your range above you (you must be logged in and on the ladder)."
    )


class LadderChallengeSerializer(serializers.ModelSerializer):
    challenger = PlayerSerializer()
    defender = PlayerSerializer()
    winner = PlayerSerializer(allow_null=True)
    game_id = serializers.IntegerField()

    class Meta:
        model = LadderChallenge
        fields = [
            "id",
            "challenger",
            "defender",
            "challenger_place",
            "defender_place",
            "game_id",
            "status",
            "winner",
            "created_at",
            "decided_at",
        ]


class LadderDetailSerializer(LadderSummarySerializer):
    description = serializers.CharField()
    places = PlaceSerializer(many=True, source="place_list")
    open_challenges = LadderChallengeSerializer(many=True, source="open_challenge_list")

    class Meta(LadderSummarySerializer.Meta):
        fields = [*LadderSummarySerializer.Meta.fields, "description", "places", "open_challenges"]


class LadderEventSerializer(serializers.ModelSerializer):
    player = PlayerSerializer()
    opponent = PlayerSerializer(allow_null=True)
    challenge_id = serializers.IntegerField(allow_null=True)
    order_after = serializers.ListField(
        child=serializers.IntegerField(), help_text="Player ids, top of the ladder first."
    )

    class Meta:
        model = LadderEvent
        fields = [
            "id",
            "kind",
            "player",
            "opponent",
            "challenge_id",
            "place_before",
            "place_after",
            "opponent_place_before",
            "opponent_place_after",
            "order_after",
            "note",
            "created_at",
        ]


class LadderPlayerSerializer(serializers.Serializer):
    place = serializers.IntegerField(help_text="Your place now.")
    joined_at = serializers.DateTimeField()
