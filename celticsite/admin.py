"""What every app's admin shares: whoever may use an action may open the list it is on.

Django offers a list to holders of the model's view (or change) permission only, so staff
holding just an action's permission (an arbiter holding ``manage_tournament_entries``) were
refused the very list the action is on. ``ActionHoldersMayView`` grants the view, read-only,
to the holders of any of the model admin's actions' permissions (``@admin.action(
permissions=[...])``): every action a permission allows is reachable from a page its holder
can open. What the action then does is still decided by the service it calls.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest


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
