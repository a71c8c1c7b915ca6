"""What every app's admin shares: whoever may use an action may open the list it is on.

Django offers a list to holders of the model's view (or change) permission only, so staff
holding just an action's permission (an arbiter holding ``manage_tournament_entries``) were
refused the very list the action is on. ``ActionHoldersMayView`` grants the view, read-only,
to the holders of any of the model admin's actions' permissions (``@admin.action(
permissions=[...])``): every action a permission allows is reachable from a page its holder
can open. What the action then does is still decided by the service it calls.

``permission_denied`` (the site's ``handler403``) answers a refusal under the admin with the
admin's own page, not Django's bare "403 Forbidden".
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views import defaults


class ActionHoldersMayView(admin.ModelAdmin):
    """A ``ModelAdmin`` whose list (and rows, read-only) the holders of one of its actions'
    permissions may open."""

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_view_permission(request, obj) or self.holds_an_action_permission(request)

    def holds_an_action_permission(self, request: HttpRequest) -> bool:
        """Whether the user holds the permission of one of this admin's own actions."""
        for action in self.actions or ():
            function = getattr(self, action) if isinstance(action, str) else action
            for permission in getattr(function, "allowed_permissions", ()):
                if permission != "view" and getattr(self, f"has_{permission}_permission")(request):
                    return True
        return False


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A 403: under the admin, the admin's page saying what was refused (with its header and
    a way back to the index); elsewhere Django's default."""
    if not request.path.startswith(reverse("admin:index")):
        return defaults.permission_denied(request, exception)
    doing = "change this" if request.method == "POST" else "see this page"
    context = {
        **admin.site.each_context(request),
        "title": "Permission denied",
        "doing": doing,
    }
    response = TemplateResponse(request, "admin/permission_denied.html", context, status=403)
    return response.render()
