"""The audit log in the admin: searchable and filterable, and read-only for everyone."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html

from moderation.audit import audit_action_choices, audit_action_label
from moderation.models import AuditEntry


class ReadOnlyAdminMixin:
    """No add, change or delete, even for superusers: the log is append-only."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class AuditActionFilter(admin.SimpleListFilter):
    """By action, listing every action the apps registered (``moderation.audit``). The
    parameter is the one Django's filter on a field with choices used, so links still work."""

    title = "action"
    parameter_name = "action__exact"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return audit_action_choices()

    def queryset(self, request: HttpRequest, queryset: QuerySet[AuditEntry]) -> Any:
        value = self.value()
        return queryset.filter(action=value) if value else queryset


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("created_at", "action_label", "actor_repr", "target_link", "short_reason")
    list_filter = (AuditActionFilter, "created_at")
    search_fields = ("actor_repr", "actor__username", "target_repr", "reason")
    date_hierarchy = "created_at"
    list_select_related = ("target_content_type",)
    fields = (
        "created_at",
        "action_label",
        "actor",
        "actor_repr",
        "target_link",
        "target_content_type",
        "target_object_id",
        "reason",
        "data",
    )
    readonly_fields = fields

    @admin.display(description="action", ordering="action")
    def action_label(self, entry: AuditEntry) -> str:
        return audit_action_label(entry.action)

    @admin.display(description="target", ordering="target_repr")
    def target_link(self, entry: AuditEntry) -> str:
        """The target's admin page when it still exists and is registered, else its name."""
        content_type = entry.target_content_type
        if content_type is None or not entry.target_object_id:
            return entry.target_repr
        try:
            url = reverse(
                f"admin:{content_type.app_label}_{content_type.model}_change",
                args=[entry.target_object_id],
            )
        except NoReverseMatch:
            return entry.target_repr
        return format_html('<a href="{}">{}</a>', url, entry.target_repr)

    @admin.display(description="reason")
    def short_reason(self, entry: AuditEntry) -> str:
        return entry.reason if len(entry.reason) <= 80 else entry.reason[:79] + "…"
