"""Ranking pages, included by the project at /rankings/."""

from django.urls import path

from rankings import views

app_name = "rankings"

urlpatterns = [
    path("", views.ranking_page, name="list"),
    path("players/<int:player_id>/", views.player_page, name="player"),
]
