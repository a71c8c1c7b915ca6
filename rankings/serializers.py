"""Input and output serializers of the ranking API. Thin: they only shape data."""

from __future__ import annotations

import math
from functools import cached_property
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from rankings import conf
from rankings.selectors import RankingEntry, known_kinds


def rounded(value: float) -> int:
    """A rating as shown to people: rounded half up to a whole number."""
    return math.floor(value + 0.5)


class RankingKindInputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=[],  # the hosted kinds, read when the serializer is made (kinds register late)
        required=False,
        default=conf.DEFAULT_KIND,
        help_text=(
            "The game kind whose ranking to list, by its id (see GET /api/v1/game-kinds/); "
            'default "celtic". Each kind has its own ratings and list.'
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        known = known_kinds()
        field = self.fields["kind"]
        field.choices = known
        field.error_messages["invalid_choice"] = (
            f"'{{input}}' is not a game kind: expected one of {', '.join(known)}."
        )


class RankingFilterInputSerializer(RankingKindInputSerializer):
    country = serializers.RegexField(
        r"^[A-Za-z]{2}$",
        required=False,
        help_text="ISO 3166-1 alpha-2 country code: only players from this country.",
    )
    active = serializers.BooleanField(
        required=False,
        default=True,
        help_text=(
            "true (default): only ranked players, those with a rated game within "
            "RATING_ACTIVE_DAYS. false: inactive players too, listed after, without a rank."
        ),
    )

    def validate_country(self, value: str) -> str:
        return value.upper()


class GlickoOutputSerializer(serializers.Serializer):
    """The Glicko-2 rating of an Elo kind's player."""

    rating = serializers.FloatField(source="glicko_rating", help_text="Full precision.")
    rating_display = serializers.SerializerMethodField()
    rd = serializers.FloatField(
        source="glicko_rd", help_text="Rating deviation, grown for months without games."
    )
    rd_display = serializers.SerializerMethodField()
    volatility = serializers.FloatField(source="glicko_volatility")

    def get_rating_display(self, entry: RankingEntry) -> int:
        return rounded(entry.glicko_rating)

    def get_rd_display(self, entry: RankingEntry) -> int:
        return rounded(entry.glicko_rd)


class SkillOutputSerializer(serializers.Serializer):
    """The Plackett-Luce rating of a player of a kind outside the Elo kinds."""

    mu = serializers.FloatField(help_text="Skill mean (openskill's mu, 25 for a new player).")
    sigma = serializers.FloatField(help_text="Its standard deviation (25/3 for a new player).")
    rating = serializers.FloatField(
        source="skill",
        help_text="The shown rating: RATING_SKILL_DISPLAY_START + SCALE * (mu - 3 sigma).",
    )
    rating_display = serializers.SerializerMethodField()

    def get_rating_display(self, entry: RankingEntry) -> int:
        return rounded(entry.skill)


class RankingEntryOutputSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True, help_text="World rank; null if inactive.")
    previous_rank = serializers.IntegerField(
        allow_null=True, help_text="World rank 30 days ago; null if unranked then."
    )
    rank_change = serializers.IntegerField(
        allow_null=True, help_text="Places gained (positive) or lost since 30 days ago."
    )
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    country = serializers.CharField(help_text="ISO 3166-1 alpha-2, or empty.")
    kind = serializers.CharField(help_text="The game kind of this ranking.")
    rating_system = serializers.SerializerMethodField()
    rating = serializers.SerializerMethodField()
    elo = serializers.FloatField(
        allow_null=True, help_text="Elo at full precision; null outside the Elo kinds."
    )
    elo_display = serializers.SerializerMethodField()
    elo_peak = serializers.FloatField(
        allow_null=True, help_text="Highest Elo after any game; null outside the Elo kinds."
    )
    glicko = serializers.SerializerMethodField()
    skill = serializers.SerializerMethodField()
    games = serializers.IntegerField()
    provisional = serializers.BooleanField(
        help_text="Fewer than RATING_PROVISIONAL_GAMES rated games."
    )
    active = serializers.BooleanField()
    last_played = serializers.DateField()

    @extend_schema_field(serializers.ChoiceField(choices=[*conf.ORDER_CHOICES, conf.SKILL_SYSTEM]))
    def get_rating_system(self, entry: RankingEntry) -> str:
        """Which rating orders the list: "elo" or "glicko" (the Elo kinds), "openskill-pl"."""
        return entry.rating_system

    def get_rating(self, entry: RankingEntry) -> int:
        """The rating that orders the list, rounded for display."""
        return rounded(entry.rating)

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_elo_display(self, entry: RankingEntry) -> int | None:
        return None if entry.elo is None else rounded(entry.elo)

    @extend_schema_field(GlickoOutputSerializer(allow_null=True))
    def get_glicko(self, entry: RankingEntry) -> dict | None:
        """Glicko-2 of an Elo kind; null for the others."""
        return None if entry.glicko_rating is None else self._glicko.to_representation(entry)

    @extend_schema_field(SkillOutputSerializer(allow_null=True))
    def get_skill(self, entry: RankingEntry) -> dict | None:
        """Plackett-Luce of a kind outside the Elo kinds; null for the Elo kinds."""
        return None if entry.skill is None else self._skill.to_representation(entry)

    # One of each for every row of a list, as a nested field would be: a serializer made per
    # row copies its declared fields each time (a third of a ranking page's Python calls).
    @cached_property
    def _glicko(self) -> GlickoOutputSerializer:
        return GlickoOutputSerializer()

    @cached_property
    def _skill(self) -> SkillOutputSerializer:
        return SkillOutputSerializer()


class PlayerOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    country = serializers.CharField()


class OpponentOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="opponent_id")
    name = serializers.CharField(source="opponent_name")
    elo = serializers.FloatField(source="opponent_elo", help_text="Elo before the game.")


class HistoryEntryOutputSerializer(serializers.Serializer):
    result_id = serializers.IntegerField()
    game_id = serializers.IntegerField(allow_null=True, help_text="Null for imported results.")
    finished_at = serializers.DateTimeField()
    opponent = serializers.SerializerMethodField()
    place = serializers.IntegerField(help_text="Finishing place: 1 = first; a tie shares it.")
    players = serializers.IntegerField(help_text="Players in the game.")
    score = serializers.FloatField(
        help_text="Share of the other players beaten, a tie half: 1 win, 0.5 draw, 0 loss."
    )
    tournament_name = serializers.CharField()
    elo_before = serializers.FloatField(allow_null=True, help_text="Null outside Elo kinds.")
    elo_after = serializers.FloatField(allow_null=True, help_text="Null outside Elo kinds.")
    elo_change = serializers.FloatField(help_text="The shown rating's change.")
    glicko_rating = serializers.FloatField(allow_null=True, help_text="After the game.")
    glicko_rd = serializers.FloatField(allow_null=True, help_text="After the game.")
    mu = serializers.FloatField(allow_null=True, help_text="Plackett-Luce, after the game.")
    sigma = serializers.FloatField(allow_null=True, help_text="Plackett-Luce, after the game.")
    rating_before = serializers.FloatField(help_text="The shown rating before the game.")
    rating_after = serializers.FloatField(help_text="The shown rating after the game.")

    @extend_schema_field(OpponentOutputSerializer(allow_null=True))
    def get_opponent(self, entry: object) -> dict | None:
        """The opponent of an Elo kind's game; null for the other kinds."""
        if getattr(entry, "opponent_id", None) is None:
            return None
        return self._opponent.to_representation(entry)

    @cached_property
    def _opponent(self) -> OpponentOutputSerializer:
        """One for every row of the history, as a nested field would be."""
        return OpponentOutputSerializer()


class TournamentPerformanceOutputSerializer(serializers.Serializer):
    tournament_name = serializers.CharField()
    games = serializers.IntegerField()
    score = serializers.FloatField()
    average_opponent_elo = serializers.FloatField()
    performance = serializers.FloatField(
        help_text="Mean opponent Elo + 400 * (wins - losses) / games."
    )
    elo_change = serializers.FloatField()
    first_played = serializers.DateTimeField()
    last_played = serializers.DateTimeField()


class PlayerDetailOutputSerializer(serializers.Serializer):
    player = PlayerOutputSerializer()
    kind = serializers.CharField(help_text="The game kind of the ratings and history shown.")
    ranking = RankingEntryOutputSerializer(
        allow_null=True, help_text="The player's row of the ranking; null before any game."
    )
    history = HistoryEntryOutputSerializer(many=True, help_text="Rated games, oldest first.")
    tournaments = TournamentPerformanceOutputSerializer(many=True)
