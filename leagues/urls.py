"""League pages, included by the project at /leagues/."""

from django.urls import path

from leagues import views

app_name = "leagues"

urlpatterns = [
    path("", views.league_list, name="list"),
    path("new/", views.league_create, name="create"),
    path("<int:league_id>/", views.league_detail, name="detail"),
    path("<int:league_id>/edit/", views.league_edit, name="edit"),
    path("<int:league_id>/history/", views.league_history, name="history"),
    path("seasons/<int:season_id>/", views.season_detail, name="season"),
    path("seasons/<int:season_id>/move/", views.season_move, name="move"),
    path("seasons/<int:season_id>/players/<str:action>/", views.season_players, name="players"),
    path("seasons/<int:season_id>/<str:action>/", views.season_action, name="action"),
]
