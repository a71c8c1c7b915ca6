"""Admin: players can be edited (e.g. linked to an account); ratings are derived, read-only."""

from django.contrib import admin

from rankings.models import Player, PlayerRating, RatedResult


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "country", "user"]
    search_fields = ["name", "user__username"]
    raw_id_fields = ["user"]


@admin.register(RatedResult)
class RatedResultAdmin(admin.ModelAdmin):
    list_display = ["finished_at", "player1", "player2", "score1", "source", "annulled"]
    list_filter = ["source", "annulled"]
    search_fields = ["player1__name", "player2__name", "tournament_name"]
    raw_id_fields = ["player1", "player2", "game"]

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        # Results change through the games' moderation (annul, adjudicate), which also
        # recomputes the ratings; editing or deleting them here would leave the ratings stale.
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin):
    list_display = ["player", "elo", "games", "glicko_rating", "glicko_rd", "last_played"]
    search_fields = ["player__name"]

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False  # derived from the results: ratings_recompute rebuilds them
