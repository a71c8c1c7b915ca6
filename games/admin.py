"""Moderation of challenges, games and moves. Moves are read-only: history is never edited."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.text import Truncator

from celticsite.errors import DomainError
from games import selectors, services
from games.kinds import all_kinds, get_kind
from games.kinds.base import KindError
from games.models import (
    Challenge,
    ChallengeEntrant,
    ChallengeInvitation,
    Game,
    GameMessage,
    GameSeat,
    MessageReport,
    Move,
)


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    can_delete = False
    fields = ["ply", "seat", "kind", "notation", "created_at"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class GameSeatInline(admin.TabularInline):
    """The players of a game in seat order, with their clocks and places: read-only."""

    model = GameSeat
    extra = 0
    can_delete = False
    fields = ["seat", "seat_name", "user", "time_left", "place", "left_at_ply"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[GameSeat]:
        return super().get_queryset(request).select_related("game", "user")

    @admin.display(description="name")
    def seat_name(self, seat: GameSeat) -> str:
        return seat.game.seat_name(seat.seat)


class KindFilter(admin.SimpleListFilter):
    """Games or challenges of one kind (Celtic! ...), by the kinds the site hosts."""

    title = "game"
    parameter_name = "kind"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [(kind.id, kind.name) for kind in all_kinds()]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset.filter(kind=self.value()) if self.value() else queryset


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3, "cols": 60}), strip=True)

    def __init__(self, *args: Any, objects: QuerySet[Any] | None = None, **kwargs: Any) -> None:
        """``objects``: the selected objects, for a form whose fields depend on them."""
        super().__init__(*args, **kwargs)


class AdjudicateForm(ReasonForm):
    """The result in the games' kind's own words (Celtic!: 1-0, 0-1, 1/2-1/2): a choice when
    every selected game is one kind for two, else the text, which the kind checks."""

    result = forms.CharField(
        max_length=40,
        help_text="The result as the game's kind writes it, e.g. 1-0, 0-1 or 1/2-1/2 for Celtic!.",
    )

    def __init__(self, *args: Any, objects: QuerySet[Any] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = _two_seat_results(objects) if objects is not None else None
        if choices:
            self.fields["result"] = forms.ChoiceField(choices=choices)


def _two_seat_results(games: QuerySet[Game]) -> list[tuple[str, str]] | None:
    """The three results of a game for two of the selected games' one kind, each with its
    meaning ("1-0 (Orange wins)"); None when the games are of several kinds or seat counts."""
    shapes = set(games.values_list("kind", "seat_count"))
    if len(shapes) != 1 or next(iter(shapes))[1] != 2:
        return None
    try:
        kind = get_kind(next(iter(shapes))[0])
        first, second = kind.seat_names(2)
    except KindError:
        return None
    orders = {
        f"{first} wins": (frozenset({1}), frozenset({2})),
        f"{second} wins": (frozenset({2}), frozenset({1})),
        "Draw": (frozenset({1, 2}),),
    }
    results = []
    for meaning, order in orders.items():
        text = kind.result_text(order)
        results.append((text, f"{text} ({meaning})"))
    return results


GAME_NOTE = (
    "This is written to the audit log with your name and reason, and the players' ratings "
    "are recomputed where needed."
)
MESSAGE_NOTE = (
    "Readers will see a placeholder instead of each message, and its open reports are "
    "resolved. This is written to the audit log with your name and reason."
)


def _moderate(
    modeladmin: admin.ModelAdmin,
    request: HttpRequest,
    queryset: QuerySet[Any],
    *,
    form_class: type[ReasonForm],
    title: str,
    action: str,
    apply: Callable[..., object],
    describe: Callable[[Any], str] = str,
    note: str = GAME_NOTE,
) -> HttpResponse | None:
    """Ask for a reason on an intermediate page, then ``apply`` it to each selected object."""
    form = form_class(request.POST if "confirm" in request.POST else None, objects=queryset)
    if "confirm" in request.POST and form.is_valid():
        done = 0
        for obj in queryset:
            try:
                apply(obj, actor=request.user, **form.cleaned_data)
                done += 1
            except DomainError as exc:
                modeladmin.message_user(request, f"{obj}: {exc.detail}", messages.ERROR)
        if done:
            modeladmin.message_user(request, f"{title}: {done} done.", messages.SUCCESS)
        return None
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "note": note,
        "form": form,
        "items": [(obj.pk, describe(obj)) for obj in queryset],
        "action": action,
        "opts": modeladmin.model._meta,
    }
    return TemplateResponse(request, "admin/games/moderate.html", context)


def _describe_game(game: Game) -> str:
    result = f" ({game.result})" if game.result else ""
    return f"{game} — {game.get_status_display()}{result}"


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "kind",
        "players",
        "status",
        "result",
        "termination",
        "ply",
        "rated",
        "public",
        "deadline",
        "created_at",
    ]
    list_filter = [
        KindFilter,
        "status",
        "termination",
        "rated",
        "public",
        "window_forfeit",
        "clock_kind",
    ]
    search_fields = ["=id", "seats__user__username"]
    date_hierarchy = "created_at"
    inlines = [GameSeatInline, MoveInline]
    actions = ["annul", "adjudicate"]
    # The seed of a kind with chance stays secret while the game runs, from moderators too:
    # its commitment is shown, the seed only once the game is over.
    readonly_fields = [
        *(f.name for f in Game._meta.fields if f.name != "chance_seed"),
        "chance_commitment",
        "chance_seed_revealed",
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).with_players()

    @admin.display(description="chance seed")
    def chance_seed_revealed(self, game: Game) -> str:
        if not game.chance_seed:
            return "—"
        return "(secret until the game ends)" if game.is_active else game.chance_seed

    @admin.display(description="players")
    def players(self, game: Game) -> str:
        return " v ".join(f"{seat.user} ({game.seat_name(seat.seat)})" for seat in game.seat_list)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    # Each action has its own permission (games.annul_game, games.adjudicate_game): Django
    # offers an action, and runs it on POST (reason page included), only if it passes.
    def has_annul_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.annul_game")

    def has_adjudicate_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.adjudicate_game")

    @admin.action(description="Annul selected games (asks for a reason)", permissions=["annul"])
    def annul(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse | None:
        def apply(game: Game, *, actor: object, reason: str) -> None:
            services.game_annul(game_id=game.pk, actor=actor, reason=reason)

        return _moderate(
            self,
            request,
            queryset,
            form_class=ReasonForm,
            title="Annul games",
            action="annul",
            apply=apply,
            describe=_describe_game,
        )

    @admin.action(
        description="Adjudicate selected games (asks for result and reason)",
        permissions=["adjudicate"],
    )
    def adjudicate(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse | None:
        def apply(game: Game, *, actor: object, reason: str, result: str) -> None:
            services.game_adjudicate(game_id=game.pk, actor=actor, result=result, reason=reason)

        return _moderate(
            self,
            request,
            queryset,
            form_class=AdjudicateForm,
            title="Adjudicate games",
            action="adjudicate",
            apply=apply,
            describe=_describe_game,
        )


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ["game", "ply", "seat", "kind", "notation", "created_at"]
    list_filter = ["kind", "seat"]
    search_fields = ["=game__id", "notation"]
    readonly_fields = ["game", "ply", "seat", "kind", "notation", "created_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class ChallengeEntrantInline(admin.TabularInline):
    """The players who took a seat of an open seek for more than two: read-only."""

    model = ChallengeEntrant
    extra = 0
    can_delete = False
    fields = ["user", "joined_at"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class ChallengeInvitationInline(admin.TabularInline):
    """The players a challenge to several invites: read-only (who accepted is an entrant)."""

    model = ChallengeInvitation
    extra = 0
    can_delete = False
    fields = ["user"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "challenger",
        "opponent",
        "kind",
        "seat_count",
        "seat_choice",
        "status",
        "rated",
        "clock_kind",
        "created_at",
    ]
    list_filter = [KindFilter, "status", "rated", "clock_kind"]
    inlines = [ChallengeInvitationInline, ChallengeEntrantInline]
    search_fields = ["=id", "challenger__username", "opponent__username", "message"]
    date_hierarchy = "created_at"
    readonly_fields = [f.name for f in Challenge._meta.fields]

    # Not edited here: a challenge changes only through its services (accepting one starts
    # its game; suspending a player closes theirs, with an audit entry), and a status edited
    # here would claim a game that never started. Superusers may still delete one (spam):
    # its game, if any, only loses the link.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


# --- Messages ---------------------------------------------------------------------------------


class MessageReportInline(admin.TabularInline):
    model = MessageReport
    extra = 0
    can_delete = False
    fields = ["reporter", "reason", "created_at", "resolved_at"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(GameMessage)
class GameMessageAdmin(admin.ModelAdmin):
    """Messages are evidence: read-only here, hidden (never deleted) by the action."""

    list_display = ["id", "game", "author", "excerpt", "created_at", "hidden", "open_reports"]
    list_filter = [("hidden_at", admin.EmptyFieldListFilter), "created_at"]
    search_fields = ["=id", "=game__id", "author__username", "body"]
    date_hierarchy = "created_at"
    inlines = [MessageReportInline]
    actions = ["hide"]
    readonly_fields = [f.name for f in GameMessage._meta.fields]

    def get_queryset(self, request: HttpRequest) -> QuerySet[GameMessage]:
        open_reports = Count("reports", filter=Q(reports__resolved_at__isnull=True))
        return (
            super()
            .get_queryset(request)
            .select_related("game", "author")
            .annotate(open_report_count=open_reports, report_count=Count("reports"))
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.display(description="message")
    def excerpt(self, message: GameMessage) -> str:
        return Truncator(message.body).chars(60)

    @admin.display(description="hidden", boolean=True, ordering="hidden_at")
    def hidden(self, message: GameMessage) -> bool:
        return message.is_hidden

    @admin.display(description="open reports (all)", ordering="open_report_count")
    def open_reports(self, message: GameMessage) -> str:
        return f"{message.open_report_count} ({message.report_count})"  # type: ignore[attr-defined]

    def has_hide_permission(self, request: HttpRequest) -> bool:
        return selectors.user_moderates_messages(user=request.user)

    @admin.action(description="Hide selected messages (asks for a reason)", permissions=["hide"])
    def hide(self, request: HttpRequest, queryset: QuerySet[GameMessage]) -> HttpResponse | None:
        def apply(message: GameMessage, *, actor: object, reason: str) -> None:
            services.message_hide(
                game_id=message.game_id, message_id=message.pk, moderator=actor, reason=reason
            )

        return _moderate(
            self,
            request,
            queryset,
            form_class=ReasonForm,
            title="Hide messages",
            action="hide",
            apply=apply,
            describe=_describe_message,
            note=MESSAGE_NOTE,
        )


def _describe_message(message: GameMessage) -> str:
    return f"{message} by {message.author}: “{Truncator(message.body).chars(80)}”"


class ReportStateFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [("open", "Open"), ("resolved", "Resolved")]

    def queryset(
        self, request: HttpRequest, queryset: QuerySet[MessageReport]
    ) -> QuerySet[MessageReport]:
        if self.value() == "open":
            return queryset.filter(resolved_at__isnull=True)
        if self.value() == "resolved":
            return queryset.filter(resolved_at__isnull=False)
        return queryset


@admin.register(MessageReport)
class MessageReportAdmin(admin.ModelAdmin):
    list_display = ["id", "message", "reporter", "reason", "created_at", "resolved_at"]
    list_filter = [ReportStateFilter]
    list_select_related = ["message", "reporter"]
    search_fields = ["=message__id", "reporter__username", "reason"]
    readonly_fields = [f.name for f in MessageReport._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
