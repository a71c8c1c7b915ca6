"""Leagues in the admin: read-only rows (they change through the services: the API, the
pages and the beat), with one action that does now what the clock says for a season."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from celticsite.errors import DomainError
from leagues import services
from leagues.models import Division, League, Membership, Season


class _ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(League)
class LeagueAdmin(_ReadOnly):
    list_display = [
        "name",
        "kind",
        "organiser",
        "division_size",
        "division_min_size",
        "rookie_division",
    ]
    search_fields = ["name", "organiser__username"]


class DivisionInline(admin.TabularInline):
    model = Division
    fields = ["tier", "group", "rookie", "tournament"]
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Season)
class SeasonAdmin(_ReadOnly):
    list_display = ["league", "number", "status", "registration_opens_at", "starts_at", "ends_at"]
    list_filter = ["status"]
    search_fields = ["league__name"]
    inlines = [DivisionInline]
    actions = ["advance"]

    @admin.action(description="Do now what the clock says (open, start, or end)")
    def advance(self, request: HttpRequest, queryset: QuerySet[Season]) -> None:
        for season in queryset:
            try:
                done = services.season_advance(season_id=season.pk)
            except DomainError as exc:
                self.message_user(request, f"{season}: {exc.detail}", messages.ERROR)
                continue
            self.message_user(request, f"{season}: {done or 'nothing due'}")

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        # Needed for the action; the fields stay read-only.
        return obj is None and request.user.has_perm(services.ORGANISE_PERMISSION)

    def get_readonly_fields(self, request: HttpRequest, obj: object = None) -> list[str]:
        return [f.name for f in Season._meta.fields]


@admin.register(Division)
class DivisionAdmin(_ReadOnly):
    list_display = ["__str__", "tier", "group", "rookie", "tournament"]
    list_filter = ["rookie"]


@admin.register(Membership)
class MembershipAdmin(_ReadOnly):
    list_display = [
        "player",
        "season",
        "status",
        "division",
        "placed_how",
        "final_place",
        "outcome",
        "next_tier",
        "this_season_only",
    ]
    list_filter = ["status", "outcome"]
    search_fields = ["player__username", "season__league__name"]
