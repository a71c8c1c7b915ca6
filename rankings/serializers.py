"""Input and output serializers of the ranking API. Thin: they only shape data."""

from __future__ import annotations

import math

from rest_framework import serializers

from rankings import conf
from rankings.selectors import RankingEntry


def rounded(value: float) -> int:
    """A rating as shown to people: rounded half up to a whole number."""
    return math.floor(value + 0.5)


class RankingFilterInputSerializer(serializers.Serializer):
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
    rating_system = serializers.SerializerMethodField()
    rating = serializers.SerializerMethodField()
    elo = serializers.FloatField(help_text="Elo at full precision.")
    elo_display = serializers.SerializerMethodField()
    elo_peak = serializers.FloatField(help_text="Highest Elo after any game.")
    glicko = GlickoOutputSerializer(source="*")
    games = serializers.IntegerField()
    provisional = serializers.BooleanField(
        help_text="Fewer than RATING_PROVISIONAL_GAMES rated games."
    )
    active = serializers.BooleanField()
    last_played = serializers.DateField()

    def get_rating_system(self, entry: RankingEntry) -> str:
        """Which rating orders the list: "elo" or "glicko"."""
        return conf.order_by()

    def get_rating(self, entry: RankingEntry) -> int:
        """The rating that orders the list, rounded for display."""
        return rounded(entry.rating)

    def get_elo_display(self, entry: RankingEntry) -> int:
        return rounded(entry.elo)


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
    opponent = OpponentOutputSerializer(source="*")
    score = serializers.FloatField(help_text="1 win, 0.5 draw, 0 loss.")
    tournament_name = serializers.CharField()
    elo_before = serializers.FloatField()
    elo_after = serializers.FloatField()
    elo_change = serializers.FloatField()
    glicko_rating = serializers.FloatField(help_text="After the game.")
    glicko_rd = serializers.FloatField(help_text="After the game.")


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
    ranking = RankingEntryOutputSerializer(
        allow_null=True, help_text="The player's row of the ranking; null before any game."
    )
    history = HistoryEntryOutputSerializer(many=True, help_text="Rated games, oldest first.")
    tournaments = TournamentPerformanceOutputSerializer(many=True)
