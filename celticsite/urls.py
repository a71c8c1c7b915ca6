from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from celticsite.api import api_not_found

# An unexpected error under /api/ answers the JSON error body, not the HTML page.
handler500 = "celticsite.api.server_error"
# A refusal under /admin/ is the admin's own page (celticsite.admin.permission_denied).
handler403 = "celticsite.admin.permission_denied"

api_v1 = [
    path("accounts/", include("accounts.api_urls")),
    path("", include("games.api_urls")),
    path("rankings/", include("rankings.urls")),
    path("tournaments/", include("tournaments.api_urls")),
    path("leagues/", include("leagues.api_urls")),
    path("ladders/", include("ladders.api_urls")),
]

urlpatterns = [
    # The admin's login page, answering 429 with Retry-After while failed logins lock it.
    path("admin/login/", include("accounts.admin_urls")),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script as a file (?script=), not inline, so
    # the page runs under the Content-Security-Policy's script-src 'self'.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/v1/", include(api_v1)),
    re_path(r"^api/", api_not_found),  # an unknown API path gets a JSON 404, not the HTML page
    path("accounts/", include("accounts.urls")),
    path("rankings/", include("rankings.web_urls")),
    path("tournaments/", include("tournaments.urls")),
    path("leagues/", include("leagues.urls")),
    path("ladders/", include("ladders.urls")),
    path("players/", include("players.urls")),
    path("", include("learn.urls")),
    path("", include("games.urls")),
]
