"""Admin for users (with profile, suspension and their audit history) and API tokens."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.contenttypes.admin import GenericTabularInline
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from accounts.forms import ReasonForm
from accounts.models import ApiToken, Profile
from accounts.services import api_token_revoke_as_moderator, user_reactivate, user_suspend
from celticsite.errors import DomainError
from moderation.admin import ReadOnlyAdminMixin
from moderation.models import AuditEntry

User = get_user_model()


class ProfileInline(admin.StackedInline):
    model = Profile
    can_delete = False
    fields = ("display_name", "country", "time_zone", *Profile.NOTIFICATION_FIELDS)


class AuditEntryInline(ReadOnlyAdminMixin, GenericTabularInline):
    """What moderators did to this user (suspensions, reactivations, token revocations)."""

    model = AuditEntry
    ct_field = "target_content_type"
    ct_fk_field = "target_object_id"
    fields = ("created_at", "action", "actor_repr", "reason")
    readonly_fields = fields
    extra = 0
    verbose_name_plural = "moderation history"


class ApiTokenInline(admin.TabularInline):
    model = ApiToken
    fields = ("name", "key_prefix", "created_at", "last_used_at", "revoked_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _reason_action(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    queryset: QuerySet[Any],
    *,
    action: str,
    title: str,
    service: Callable[..., Any],
    done: str,
) -> HttpResponse | None:
    """Ask for a reason on an intermediate page, then run ``service`` on each selected user.

    The page posts back to the changelist with the same action and selection plus ``apply``;
    the admin then calls the action again and this time the form is bound.
    """
    form = ReasonForm(request.POST if "apply" in request.POST else None)
    if form.is_bound and form.is_valid():
        succeeded = []
        for user in queryset.order_by("username"):
            try:
                service(user=user, actor=request.user, reason=form.cleaned_data["reason"])
            except DomainError as exc:
                messages.error(request, exc.detail)
            else:
                succeeded.append(user.get_username())
        if succeeded:
            messages.success(request, f"{done}: {', '.join(succeeded)}.")
        return None
    context = {
        **model_admin.admin_site.each_context(request),
        "title": title,
        "form": form,
        "queryset": queryset,
        "action": action,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "opts": queryset.model._meta,
        "media": form.media,
    }
    return TemplateResponse(request, "admin/accounts/user_action_reason.html", context)


admin.site.unregister(User)


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    inlines = (ProfileInline, ApiTokenInline, AuditEntryInline)
    list_display = (
        "username",
        "email",
        "display_name",
        "country",
        "is_active",
        "is_staff",
        "date_joined",
    )
    list_filter = ("is_active", "is_staff", "is_superuser", "profile__country", "groups")
    search_fields = ("username", "email", "profile__display_name")
    list_select_related = ("profile",)
    actions = ("suspend_users", "reactivate_users")

    @admin.display(description="display name", ordering="profile__display_name")
    def display_name(self, user: Any) -> str:
        return getattr(getattr(user, "profile", None), "display_name", "")

    @admin.display(description="country", ordering="profile__country")
    def country(self, user: Any) -> str:
        return getattr(getattr(user, "profile", None), "country", "")

    @admin.action(description="Suspend selected users", permissions=["change"])
    def suspend_users(self, request: HttpRequest, queryset: QuerySet[Any]) -> HttpResponse | None:
        return _reason_action(
            self,
            request,
            queryset,
            action="suspend_users",
            title="Suspend users",
            service=user_suspend,
            done="Suspended",
        )

    @admin.action(description="Reactivate selected users", permissions=["change"])
    def reactivate_users(
        self, request: HttpRequest, queryset: QuerySet[Any]
    ) -> HttpResponse | None:
        return _reason_action(
            self,
            request,
            queryset,
            action="reactivate_users",
            title="Reactivate users",
            service=user_reactivate,
            done="Reactivated",
        )


class TokenStatusFilter(admin.SimpleListFilter):
    title = "status"
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("active", "Active"), ("revoked", "Revoked")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "active":
            return queryset.filter(revoked_at=None)
        if self.value() == "revoked":
            return queryset.exclude(revoked_at=None)
        return queryset


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens are made by their owners; moderators can only look and revoke."""

    list_display = ("name", "user", "key_prefix", "created_at", "last_used_at", "revoked_at")
    list_filter = (TokenStatusFilter, "created_at")
    search_fields = ("name", "key_prefix", "user__username", "user__email")
    list_select_related = ("user",)
    fields = ("user", "name", "key_prefix", "created_at", "last_used_at", "revoked_at")
    readonly_fields = fields
    actions = ("revoke_tokens",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description="Revoke selected tokens", permissions=["change"])
    def revoke_tokens(self, request: HttpRequest, queryset: QuerySet[ApiToken]) -> None:
        revoked = 0
        for token in queryset.filter(revoked_at=None):
            try:
                api_token_revoke_as_moderator(
                    token=token, actor=request.user, reason="Revoked from the admin."
                )
            except DomainError as exc:
                self.message_user(request, exc.detail, messages.ERROR)
            else:
                revoked += 1
        self.message_user(request, f"Revoked {revoked} token(s).", messages.SUCCESS)
