"""Admin: players can be edited (e.g. linked to an account); ratings are derived, read-only."""

from django.contrib import admin

from rankings.models import Player, PlayerRating, RatedPlacing, RatedResult


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "country", "user"]
    search_fields = ["name", "user__username"]
    raw_id_fields = ["user"]


class RatedPlacingInline(admin.TabularInline):
    """The finishing order, read-only like the result."""

    model = RatedPlacing
    fields = ["seat", "player", "place"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(RatedResult)
class RatedResultAdmin(admin.ModelAdmin):
    list_display = ["finished_at", "kind", "player1", "player2", "score1", "source", "annulled"]
    list_filter = ["kind", "source", "annulled"]
    search_fields = ["placings__player__name", "tournament_name"]
    raw_id_fields = ["player1", "player2", "game"]
    inlines = [RatedPlacingInline]

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        # Results change through the games' moderation (annul, adjudicate), which also
        # recomputes the ratings; editing or deleting them here would leave the ratings stale.
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin):
    list_display = [
        "player", "kind", "elo", "games", "glicko_rating", "glicko_rd", "mu", "sigma",
        "last_played",
    ]  # fmt: skip
    list_filter = ["kind"]
    search_fields = ["player__name"]

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False  # derived from the results: ratings_recompute rebuilds them
