from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.utils.html import format_html

from notifications.email_events import email_events
from notifications.models import InboundEmail, OutboxEmail
from notifications.services import (
    EmailRenderError,
    outbox_email_render,
    outbox_email_unrendered,
)


class EmailEventFilter(admin.SimpleListFilter):
    """Filter by email event, listing the registry (the column has no choices)."""

    title = "event"
    parameter_name = "event"

    def lookups(self, request: Any, model_admin: Any) -> list[tuple[str, str]]:
        return [(event.key, event.label) for event in email_events()]

    def queryset(self, request: Any, queryset: QuerySet[OutboxEmail]) -> QuerySet[OutboxEmail]:
        value = self.value()
        return queryset.filter(event=value) if value else queryset


@admin.register(OutboxEmail)
class OutboxEmailAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "event",
        "to_address",
        "status",
        "digest",
        "attempts",
        "created_at",
        "sent_at",
    ]
    list_filter = ["status", EmailEventFilter, "digest"]
    search_fields = ["to_address", "recipient__username", "dedupe_key", "subject"]
    raw_id_fields = ["recipient", "game", "digest_email"]
    readonly_fields = [field.name for field in OutboxEmail._meta.fields] + ["preview"]
    date_hierarchy = "created_at"

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False

    @admin.display(description="Preview (rendered now)")
    def preview(self, obj: OutboxEmail) -> str:
        """A row the worker has not rendered yet, rendered now from its context (nothing is
        stored); rendered rows show their subject and bodies above."""
        if obj.pk is None or not outbox_email_unrendered(obj):
            return "—"
        try:
            rendered = outbox_email_render(obj, board=False)  # the preview shows text only
        except EmailRenderError as exc:
            return f"Cannot be rendered: {exc}"
        return format_html(
            "<strong>{}</strong><pre style='white-space: pre-wrap'>{}</pre>",
            rendered.subject,
            rendered.body_text,
        )


@admin.register(InboundEmail)
class InboundEmailAdmin(admin.ModelAdmin):
    """Every email received for a move by email and what became of it (read-only)."""

    list_display = [
        "id",
        "received_at",
        "from_address",
        "outcome",
        "reason",
        "game",
        "ply",
        "notation",
    ]
    list_filter = ["outcome", "reason"]
    search_fields = ["from_address", "message_id", "user__username", "subject"]
    raw_id_fields = ["user", "game"]
    readonly_fields = [field.name for field in InboundEmail._meta.fields]
    date_hierarchy = "received_at"

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False
