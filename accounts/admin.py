"""Admin for users (with profile, suspension and their audit history) and API tokens."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin as DjangoGroupAdmin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.models import Group
from django.contrib.contenttypes.admin import GenericTabularInline
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from accounts import services
from accounts.forms import AdminLoginForm, ReasonForm
from accounts.models import ApiToken, Profile
from accounts.services import api_token_revoke_as_moderator
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


class GroupReasonForm(ReasonForm):
    group = forms.ModelChoiceField(queryset=Group.objects.order_by("name"))

    field_order = ["group", "reason"]


def _reason_action(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    queryset: QuerySet[Any],
    *,
    action: str,
    title: str,
    service: Callable[..., Any],
    done: str,
    form_class: type[ReasonForm] = ReasonForm,
) -> HttpResponse | None:
    """Ask for a reason (and whatever else ``form_class`` asks) on an intermediate page, then
    run ``service`` on each selected user with the form's values.

    The page posts back to the changelist with the same action and selection plus ``apply``;
    the admin checks the action's permission again, calls it, and this time the form is bound.
    """
    form = form_class(request.POST if "apply" in request.POST else None)
    if form.is_bound and form.is_valid():
        succeeded = []
        for user in queryset.order_by("username"):
            try:
                service(user=user, actor=request.user, **form.cleaned_data)
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


admin.site.login_form = AdminLoginForm  # says when failed logins lock the account
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
    # Who may do what changes only through the audited actions below (accounts.services):
    # never through the form, not even for superusers.
    readonly_fields = ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")
    actions = (
        "suspend_users",
        "reactivate_users",
        "grant_staff",
        "revoke_staff",
        "add_to_group",
        "remove_from_group",
        "grant_superuser",
        "revoke_superuser",
    )

    @admin.display(description="display name", ordering="profile__display_name")
    def display_name(self, user: Any) -> str:
        return getattr(getattr(user, "profile", None), "display_name", "")

    @admin.display(description="country", ordering="profile__country")
    def country(self, user: Any) -> str:
        return getattr(getattr(user, "profile", None), "country", "")

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Only superusers edit a superuser (name, email, password)."""
        if obj is not None and obj.is_superuser and not request.user.is_superuser:
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Only superusers delete accounts; moderators suspend them instead."""
        return request.user.is_superuser

    # One permission per action; Django checks it when offering the action and on every POST.
    def has_suspend_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(services.SUSPEND_PERMISSION)

    def has_reactivate_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(services.REACTIVATE_PERMISSION)

    def has_staff_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(services.STAFF_PERMISSION)

    def has_groups_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(services.GROUPS_PERMISSION)

    def has_superuser_permission(self, request: HttpRequest) -> bool:
        return request.user.is_superuser

    def _act(
        self, request: HttpRequest, queryset: QuerySet[Any], action: str
    ) -> HttpResponse | None:
        spec = USER_ACTIONS[action]
        return _reason_action(
            self,
            request,
            queryset,
            action=action,
            title=spec.title,
            service=spec.service,
            done=spec.done,
            form_class=spec.form_class,
        )

    @admin.action(description="Suspend selected users", permissions=["suspend"])
    def suspend_users(self, request: HttpRequest, queryset: QuerySet[Any]) -> HttpResponse | None:
        return self._act(request, queryset, "suspend_users")

    @admin.action(description="Reactivate selected users", permissions=["reactivate"])
    def reactivate_users(
        self, request: HttpRequest, queryset: QuerySet[Any]
    ) -> HttpResponse | None:
        return self._act(request, queryset, "reactivate_users")

    @admin.action(description="Grant staff status to selected users", permissions=["staff"])
    def grant_staff(self, request: HttpRequest, queryset: QuerySet[Any]) -> HttpResponse | None:
        return self._act(request, queryset, "grant_staff")

    @admin.action(description="Revoke staff status of selected users", permissions=["staff"])
    def revoke_staff(self, request: HttpRequest, queryset: QuerySet[Any]) -> HttpResponse | None:
        return self._act(request, queryset, "revoke_staff")

    @admin.action(description="Add selected users to a group", permissions=["groups"])
    def add_to_group(self, request: HttpRequest, queryset: QuerySet[Any]) -> HttpResponse | None:
        return self._act(request, queryset, "add_to_group")

    @admin.action(description="Remove selected users from a group", permissions=["groups"])
    def remove_from_group(
        self, request: HttpRequest, queryset: QuerySet[Any]
    ) -> HttpResponse | None:
        return self._act(request, queryset, "remove_from_group")

    @admin.action(description="Make selected users superusers", permissions=["superuser"])
    def grant_superuser(self, request: HttpRequest, queryset: QuerySet[Any]) -> HttpResponse | None:
        return self._act(request, queryset, "grant_superuser")

    @admin.action(
        description="Revoke superuser status of selected users", permissions=["superuser"]
    )
    def revoke_superuser(
        self, request: HttpRequest, queryset: QuerySet[Any]
    ) -> HttpResponse | None:
        return self._act(request, queryset, "revoke_superuser")


class UserAction(NamedTuple):
    """What a user action's reason page is titled, which service it runs, what it reports."""

    title: str
    service: Callable[..., Any]
    done: str
    form_class: type[ReasonForm] = ReasonForm


USER_ACTIONS: dict[str, UserAction] = {
    "suspend_users": UserAction("Suspend users", services.user_suspend, "Suspended"),
    "reactivate_users": UserAction("Reactivate users", services.user_reactivate, "Reactivated"),
    "grant_staff": UserAction("Grant staff status", services.user_staff_grant, "Now staff"),
    "revoke_staff": UserAction(
        "Revoke staff status", services.user_staff_revoke, "No longer staff"
    ),
    "add_to_group": UserAction(
        "Add to a group", services.user_group_add, "Added to the group", GroupReasonForm
    ),
    "remove_from_group": UserAction(
        "Remove from a group", services.user_group_remove, "Removed from the group", GroupReasonForm
    ),
    "grant_superuser": UserAction(
        "Make superusers", services.user_superuser_grant, "Now superusers"
    ),
    "revoke_superuser": UserAction(
        "Revoke superuser status", services.user_superuser_revoke, "No longer superusers"
    ),
}


admin.site.unregister(Group)


@admin.register(Group)
class GroupAdmin(DjangoGroupAdmin):
    """Editing a group's permissions grants them to all its members: superusers only.

    The moderators group is kept in code (moderation.roles) and resynced on ``migrate``.
    """

    def has_add_permission(self, request: HttpRequest) -> bool:
        return request.user.is_superuser

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_superuser

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_superuser


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

    def has_revoke_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("accounts.revoke_apitoken")

    @admin.action(description="Revoke selected tokens", permissions=["revoke"])
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
