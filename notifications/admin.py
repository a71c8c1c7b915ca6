from django.contrib import admin

from notifications.models import OutboxEmail


@admin.register(OutboxEmail)
class OutboxEmailAdmin(admin.ModelAdmin):
    list_display = ["id", "event", "to_address", "status", "digest", "attempts", "created_at",
                    "sent_at"]
    list_filter = ["status", "event", "digest"]
    search_fields = ["to_address", "recipient__username", "dedupe_key", "subject"]
    raw_id_fields = ["recipient", "game", "digest_email"]
    readonly_fields = [field.name for field in OutboxEmail._meta.fields]
    date_hierarchy = "created_at"

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False
