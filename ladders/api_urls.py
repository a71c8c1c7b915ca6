"""The ladders API, included by the project at /api/v1/ladders/."""

from django.urls import path

from ladders import api

app_name = "ladders-api"

L = "<int:ladder_id>/"

urlpatterns = [
    path("", api.LadderListCreateApi.as_view(), name="list"),
    path(L, api.LadderDetailApi.as_view(), name="detail"),
    path(L + "history/", api.LadderHistoryApi.as_view(), name="history"),
    path(L + "join/", api.LadderJoinApi.as_view(), name="join"),
    path(L + "leave/", api.LadderLeaveApi.as_view(), name="leave"),
    path(L + "challenges/", api.LadderChallengeApi.as_view(), name="challenge"),
    path(L + "remove/", api.LadderRemoveApi.as_view(), name="remove"),
]
