from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

api_v1 = [
    path("accounts/", include("accounts.api_urls")),
    path("", include("games.api_urls")),
    path("rankings/", include("rankings.urls")),
    path("tournaments/", include("tournaments.api_urls")),
    path("leagues/", include("leagues.api_urls")),
    path("ladders/", include("ladders.api_urls")),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/v1/", include(api_v1)),
    path("accounts/", include("accounts.urls")),
    path("rankings/", include("rankings.web_urls")),
    path("tournaments/", include("tournaments.urls")),
    path("leagues/", include("leagues.urls")),
    path("ladders/", include("ladders.urls")),
    path("", include("games.urls")),
]
