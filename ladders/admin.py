"""Ladders in the admin: read-only rows (they change through the services: the API, the
pages, the hook and the beat), with an audited action to remove players, given a reason; staff
holding ``manage_ladder_players`` open the list of places it is on (``ActionHoldersMayView``)."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db.models import QuerySet
from django.http import HttpRequest

from celticsite.admin import ActionHoldersMayView
from celticsite.errors import DomainError
from ladders import services
from ladders.models import Ladder, LadderChallenge, LadderEvent, LadderPlayer


class _ReadOnly(ActionHoldersMayView):
    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class PlaceInline(admin.TabularInline):
    model = LadderPlayer
    fields = ["place", "player", "joined_at", "last_active_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Ladder)
class LadderAdmin(_ReadOnly):
    list_display = [
        "name",
        "kind",
        "organiser",
        "challenge_range",
        "max_open_challenges",
        "created_at",
    ]
    search_fields = ["name", "organiser__username"]
    inlines = [PlaceInline]


class RemoveForm(ActionForm):
    reason = forms.CharField(
        required=False, max_length=300, help_text="Why (kept in the audit log); required."
    )


@admin.register(LadderPlayer)
class LadderPlayerAdmin(_ReadOnly):
    list_display = ["ladder", "place", "player", "joined_at", "last_active_at"]
    list_filter = ["ladder"]
    search_fields = ["player__username", "ladder__name"]
    action_form = RemoveForm
    actions = ["remove"]

    @admin.action(
        description="Remove from the ladder (give a reason; audited)",
        permissions=["manage_players"],
    )
    def remove(self, request: HttpRequest, queryset: QuerySet[LadderPlayer]) -> None:
        reason = request.POST.get("reason", "")
        for row in queryset.select_related("ladder", "player"):
            try:
                services.ladder_player_remove(
                    ladder_id=row.ladder_id,
                    actor=request.user,
                    player_id=row.player_id,
                    reason=reason,
                )
            except DomainError as exc:
                self.message_user(request, f"{row.player}: {exc.detail}", messages.ERROR)
                continue
            self.message_user(request, f"{row.player} removed from {row.ladder}.")

    def has_manage_players_permission(self, request: HttpRequest) -> bool:
        """Staff holding the permission for every ladder; organisers act per ladder (the
        service checks that the ladder is theirs)."""
        user = request.user
        return user.has_perm(services.MANAGE_PERMISSION) or user.has_perm(
            services.ORGANISE_PERMISSION
        )


@admin.register(LadderChallenge)
class LadderChallengeAdmin(_ReadOnly):
    list_display = [
        "ladder",
        "challenger",
        "challenger_place",
        "defender",
        "defender_place",
        "status",
        "winner",
        "game",
        "created_at",
    ]
    list_filter = ["status", "ladder"]
    search_fields = ["challenger__username", "defender__username", "ladder__name"]


@admin.register(LadderEvent)
class LadderEventAdmin(_ReadOnly):
    list_display = ["created_at", "ladder", "kind", "player", "place_before", "place_after", "note"]
    list_filter = ["kind", "ladder"]
    search_fields = ["player__username", "ladder__name"]
