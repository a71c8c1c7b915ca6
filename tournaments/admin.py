"""Tournaments in the admin: read-only rows, changed only through the services by actions.

Each organiser action needs its own permission (``organise_tournament``,
``manage_tournament_entries``, ``adjudicate_tournament_game``) and those that overrule a
player or a result ask for a reason on an intermediate page; the services write it to the
audit log. Staff holding an action's permission may open the list it is on, read-only
(``ActionHoldersMayView``): an arbiter holding ``manage_tournament_entries`` and
``adjudicate_tournament_game`` opens the entries, games and knockout matches.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse

from celticsite.admin import ActionHoldersMayView
from celticsite.errors import DomainError
from games.admin import ReasonForm, _moderate
from tournaments import services
from tournaments.models import Bye, Entry, KnockoutMatch, Round, Tournament, TournamentGame

ORGANISER_NOTE = (
    "This is written to the audit log with your name and reason, and the players are told "
    "where the event's rules say so."
)


class _PermissionsMixin:
    """The organiser permissions as admin action permissions (``permissions=[...]``)."""

    def has_organise_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(services.ORGANISE_PERMISSION)

    def has_manage_entries_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(services.MANAGE_ENTRIES_PERMISSION)

    def has_adjudicate_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(services.ADJUDICATE_PERMISSION)


class _ReadOnly(_PermissionsMixin, ActionHoldersMayView):
    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


def _each(
    modeladmin: admin.ModelAdmin,
    request: HttpRequest,
    queryset: QuerySet[Any],
    title: str,
    apply: Any,
) -> None:
    """Apply a service to each selected row, reporting refusals one by one."""
    done = 0
    for obj in queryset:
        try:
            apply(obj)
            done += 1
        except DomainError as exc:
            modeladmin.message_user(request, f"{obj}: {exc.detail}", messages.ERROR)
    if done:
        modeladmin.message_user(request, f"{title}: {done} done.", messages.SUCCESS)


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    can_delete = False
    fields = ["name", "player", "status", "seed", "section", "rating_at_start", "final_rank"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    can_delete = False
    fields = ["number", "status", "starts_at", "started_at", "ends_at", "completed_at"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(_ReadOnly):
    list_display = ["id", "name", "format", "status", "organiser", "starts_at", "winner"]
    list_filter = ["status", "format", "rated", "public", "registration_mode"]
    search_fields = ["=id", "name", "organiser__username"]
    date_hierarchy = "created_at"
    inlines = [EntryInline, RoundInline]
    actions = ["open_registration", "start", "cancel"]

    @admin.action(description="Open registration", permissions=["organise"])
    def open_registration(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        _each(
            self,
            request,
            queryset,
            "Registration opened",
            lambda t: services.tournament_registration_open(tournament_id=t.pk, actor=request.user),
        )

    @admin.action(description="Start now", permissions=["organise"])
    def start(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        _each(
            self,
            request,
            queryset,
            "Started",
            lambda t: services.tournament_start(tournament_id=t.pk, actor=request.user),
        )

    @admin.action(description="Cancel (asks for a reason)", permissions=["organise"])
    def cancel(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> HttpResponse | None:
        def apply(tournament: Tournament, *, actor: Any, reason: str) -> None:
            services.tournament_cancel(tournament_id=tournament.pk, actor=actor, reason=reason)

        return _moderate(
            self,
            request,
            queryset,
            form_class=ReasonForm,
            title="Cancel tournaments",
            action="cancel",
            apply=apply,
            note="Running games are annulled. " + ORGANISER_NOTE,
        )


@admin.register(Entry)
class EntryAdmin(_ReadOnly):
    list_display = ["id", "name", "tournament", "player", "status", "seed", "final_rank"]
    list_filter = ["status"]
    list_select_related = ["tournament", "player"]
    search_fields = ["=tournament__id", "tournament__name", "name", "player__username"]
    actions = ["approve", "remove"]

    @admin.action(description="Approve pending entries", permissions=["manage_entries"])
    def approve(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        _each(
            self,
            request,
            queryset,
            "Approved",
            lambda e: services.entry_approve(entry_id=e.pk, actor=request.user),
        )

    @admin.action(description="Remove players (asks for a reason)", permissions=["manage_entries"])
    def remove(self, request: HttpRequest, queryset: QuerySet[Entry]) -> HttpResponse | None:
        def apply(entry: Entry, *, actor: Any, reason: str) -> None:
            services.entry_remove(entry_id=entry.pk, actor=actor, reason=reason)

        return _moderate(
            self,
            request,
            queryset,
            form_class=ReasonForm,
            title="Remove players",
            action="remove",
            apply=apply,
            note="Their running games are resigned under the event's withdrawal policy. "
            + ORGANISER_NOTE,
        )


class AdjudicateForm(ReasonForm):
    result = forms.ChoiceField(choices=[(text, text) for text in ("1-0", "0-1", "1/2-1/2")])


class ResultFixForm(ReasonForm):
    result = forms.ChoiceField(choices=[c for c in TournamentGame.Result.choices if c[0]])


@admin.register(TournamentGame)
class TournamentGameAdmin(_ReadOnly):
    list_display = ["id", "tournament", "round", "board", "orange", "blue", "result", "game"]
    list_filter = ["needs_adjudication", "result", "result_fixed"]
    list_select_related = ["tournament", "round", "orange", "blue", "game"]
    search_fields = ["=tournament__id", "=game__id", "orange__name", "blue__name"]
    actions = ["adjudicate", "fix_result"]

    @admin.action(
        description="Adjudicate games (asks for result and reason)", permissions=["adjudicate"]
    )
    def adjudicate(
        self, request: HttpRequest, queryset: QuerySet[TournamentGame]
    ) -> HttpResponse | None:
        def apply(link: TournamentGame, *, actor: Any, reason: str, result: str) -> None:
            services.tournament_game_adjudicate(
                tournament_game_id=link.pk, actor=actor, result=result, reason=reason
            )

        return _moderate(
            self,
            request,
            queryset,
            form_class=AdjudicateForm,
            title="Adjudicate tournament games",
            action="adjudicate",
            apply=apply,
            note=ORGANISER_NOTE,
        )

    @admin.action(
        description="Fix how results count (asks for a reason)", permissions=["adjudicate"]
    )
    def fix_result(
        self, request: HttpRequest, queryset: QuerySet[TournamentGame]
    ) -> HttpResponse | None:
        def apply(link: TournamentGame, *, actor: Any, reason: str, result: str) -> None:
            services.tournament_result_fix(
                tournament_game_id=link.pk, actor=actor, result=result, reason=reason
            )

        return _moderate(
            self,
            request,
            queryset,
            form_class=ResultFixForm,
            title="Fix tournament results",
            action="fix_result",
            apply=apply,
            note="The result counts in the event whatever the game says. " + ORGANISER_NOTE,
        )


class DecideForm(ReasonForm):
    winner = forms.ChoiceField(choices=[("higher", "The higher seed"), ("lower", "The lower seed")])


@admin.register(KnockoutMatch)
class KnockoutMatchAdmin(_ReadOnly):
    list_display = ["id", "round", "number", "higher", "lower", "winner", "decided_by"]
    list_filter = ["decided_by"]
    list_select_related = ["round__tournament", "higher", "lower", "winner"]
    actions = ["decide"]

    @admin.action(description="Decide tied matches (asks for a reason)", permissions=["adjudicate"])
    def decide(
        self, request: HttpRequest, queryset: QuerySet[KnockoutMatch]
    ) -> HttpResponse | None:
        def apply(match: KnockoutMatch, *, actor: Any, reason: str, winner: str) -> None:
            entry_id = match.higher_id if winner == "higher" else match.lower_id
            services.knockout_match_decide(
                match_id=match.pk, actor=actor, winner_entry_id=entry_id or 0, reason=reason
            )

        return _moderate(
            self,
            request,
            queryset,
            form_class=DecideForm,
            title="Decide knockout matches",
            action="decide",
            apply=apply,
            note="Unfinished games of the match are annulled. " + ORGANISER_NOTE,
        )


@admin.register(Bye)
class ByeAdmin(_ReadOnly):
    list_display = ["id", "round", "entry", "kind"]
    list_filter = ["kind"]
    list_select_related = ["round__tournament", "entry"]
