"""Player pages, included by the project at /players/."""

from django.urls import path

from players import views

app_name = "players"

urlpatterns = [
    path("", views.player_search, name="search"),
    path("<str:username>/", views.player_page, name="detail"),
]
