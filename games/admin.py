"""Moderation of challenges, games and moves. Moves are read-only: history is never edited."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from celticsite.errors import DomainError
from games import services
from games.models import Challenge, Game, Move, Result


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    can_delete = False
    fields = ["ply", "side", "kind", "notation", "created_at"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3, "cols": 60}), strip=True)


class AdjudicateForm(ReasonForm):
    result = forms.ChoiceField(choices=[c for c in Result.choices if c[0]])


def _moderate(
    modeladmin: admin.ModelAdmin,
    request: HttpRequest,
    queryset: QuerySet[Game],
    *,
    form_class: type[ReasonForm],
    title: str,
    action: str,
    apply: object,
) -> HttpResponse | None:
    """Ask for a reason on an intermediate page, then apply ``apply`` to each game."""
    form = form_class(request.POST if "confirm" in request.POST else None)
    if "confirm" in request.POST and form.is_valid():
        done = 0
        for game in queryset:
            try:
                apply(game=game, actor=request.user, **form.cleaned_data)  # type: ignore[operator]
                done += 1
            except DomainError as exc:
                modeladmin.message_user(request, f"Game #{game.pk}: {exc.detail}", messages.ERROR)
        if done:
            modeladmin.message_user(request, f"{title}: {done} game(s) done.", messages.SUCCESS)
        return None
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "form": form,
        "games": queryset,
        "action": action,
        "opts": modeladmin.model._meta,
    }
    return TemplateResponse(request, "admin/games/moderate.html", context)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "orange",
        "blue",
        "status",
        "result",
        "termination",
        "ply",
        "rated",
        "public",
        "deadline",
        "created_at",
    ]
    list_filter = ["status", "termination", "rated", "public", "window_forfeit", "clock_kind"]
    search_fields = ["=id", "orange__username", "blue__username"]
    date_hierarchy = "created_at"
    inlines = [MoveInline]
    actions = ["annul", "adjudicate"]
    readonly_fields = [f.name for f in Game._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.action(description="Annul selected games (asks for a reason)")
    def annul(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse | None:
        def apply(*, game: Game, actor: object, reason: str) -> None:
            services.game_annul(game_id=game.pk, actor=actor, reason=reason)

        return _moderate(
            self,
            request,
            queryset,
            form_class=ReasonForm,
            title="Annul games",
            action="annul",
            apply=apply,
        )

    @admin.action(description="Adjudicate selected games (asks for result and reason)")
    def adjudicate(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse | None:
        def apply(*, game: Game, actor: object, reason: str, result: str) -> None:
            services.game_adjudicate(game_id=game.pk, actor=actor, result=result, reason=reason)

        return _moderate(
            self,
            request,
            queryset,
            form_class=AdjudicateForm,
            title="Adjudicate games",
            action="adjudicate",
            apply=apply,
        )


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ["game", "ply", "side", "kind", "notation", "created_at"]
    list_filter = ["kind", "side"]
    search_fields = ["=game__id", "notation"]
    readonly_fields = ["game", "ply", "side", "kind", "notation", "created_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "challenger",
        "opponent",
        "colour",
        "status",
        "rated",
        "clock_kind",
        "created_at",
    ]
    list_filter = ["status", "rated", "colour", "clock_kind"]
    search_fields = ["=id", "challenger__username", "opponent__username", "message"]
    date_hierarchy = "created_at"
    raw_id_fields = ["challenger", "opponent"]
