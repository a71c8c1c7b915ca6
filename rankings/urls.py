"""Ranking API routes, included by the project at /api/v1/rankings/."""

from django.urls import path

from rankings import api

app_name = "rankings_api"

urlpatterns = [
    path("", api.RankingListApi.as_view(), name="list"),
    path("export.csv", api.RankingCsvApi.as_view(), name="export"),
    path("players/<int:player_id>/", api.PlayerDetailApi.as_view(), name="player"),
]
