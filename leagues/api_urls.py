"""The leagues API, included by the project at /api/v1/leagues/."""

from django.urls import path

from leagues import api

app_name = "leagues-api"

S = "seasons/<int:season_id>/"

urlpatterns = [
    path("", api.LeagueListCreateApi.as_view(), name="list"),
    path("<int:league_id>/", api.LeagueDetailApi.as_view(), name="detail"),
    path("<int:league_id>/history/", api.LeagueHistoryApi.as_view(), name="history"),
    path(S, api.SeasonDetailApi.as_view(), name="season"),
    path(S + "register/", api.SeasonRegisterApi.as_view(), name="register"),
    path(
        S + "cancel-registration/",
        api.SeasonRegistrationCancelApi.as_view(),
        name="cancel-registration",
    ),
    path(S + "carry-over/", api.SeasonCarryOverApi.as_view(), name="carry-over"),
    path(S + "move/", api.SeasonMoveApi.as_view(), name="move"),
    path(S + "invite/", api.SeasonInviteApi.as_view(), name="invite"),
    path(S + "add-player/", api.SeasonPlayerAddApi.as_view(), name="add-player"),
    path(S + "remove-player/", api.SeasonPlayerRemoveApi.as_view(), name="remove-player"),
    path(
        S + "accept-invitation/",
        api.SeasonInvitationAcceptApi.as_view(),
        name="accept-invitation",
    ),
    path(
        S + "decline-invitation/",
        api.SeasonInvitationDeclineApi.as_view(),
        name="decline-invitation",
    ),
    path("invitations/", api.InvitationListApi.as_view(), name="invitations"),
    path("divisions/<int:division_id>/", api.DivisionTableApi.as_view(), name="division"),
]
