"""The tournaments API, included by the project at /api/v1/tournaments/."""

from django.urls import path

from tournaments import api, api_lists

app_name = "tournaments-api"

T = "<int:tournament_id>/"

urlpatterns = [
    path("", api.TournamentListCreateApi.as_view(), name="list"),
    path("import-trf/", api.TournamentTrfImportApi.as_view(), name="trf-import"),
    path(T, api.TournamentDetailApi.as_view(), name="detail"),
    path(T + "entries/", api_lists.TournamentEntriesApi.as_view(), name="entries"),
    path(T + "games/", api_lists.TournamentGamesApi.as_view(), name="games"),
    path(T + "standings/", api.TournamentStandingsApi.as_view(), name="standings"),
    path(T + "crosstable/", api.TournamentCrosstableApi.as_view(), name="crosstable"),
    path(T + "rounds-table/", api.TournamentRoundTableApi.as_view(), name="rounds-table"),
    path(T + "bracket/", api.TournamentBracketApi.as_view(), name="bracket"),
    path(T + "trf/", api.TournamentTrfExportApi.as_view(), name="trf"),
    path(T + "register/", api.TournamentRegisterApi.as_view(), name="register"),
    path(T + "withdraw/", api.TournamentWithdrawApi.as_view(), name="withdraw"),
    path(
        T + "open-registration/",
        api.TournamentOpenRegistrationApi.as_view(),
        name="open-registration",
    ),
    path(T + "start/", api.TournamentStartApi.as_view(), name="start"),
    path(T + "cancel/", api.TournamentCancelApi.as_view(), name="cancel"),
    path(T + "invite/", api.TournamentInviteApi.as_view(), name="invite"),
    path(T + "entries/<int:entry_id>/approve/", api.EntryApproveApi.as_view(), name="approve"),
    path(T + "entries/<int:entry_id>/decline/", api.EntryDeclineApi.as_view(), name="decline"),
    path(T + "entries/<int:entry_id>/remove/", api.EntryRemoveApi.as_view(), name="remove"),
    path(T + "pairings/", api.RoundPairManuallyApi.as_view(), name="pair"),
    path(T + "byes/", api.ByeRequestApi.as_view(), name="bye-request"),
    path(T + "byes/<int:round_number>/", api.ByeCancelApi.as_view(), name="bye-cancel"),
    path(T + "entries/<int:entry_id>/bye/", api.EntryByeApi.as_view(), name="entry-bye"),
    path(T + "forbidden-pairs/", api.ForbiddenPairsApi.as_view(), name="forbidden-pairs"),
    path(
        T + "games/<int:tournament_game_id>/adjudicate/",
        api.GameAdjudicateApi.as_view(),
        name="adjudicate",
    ),
    path(
        T + "games/<int:tournament_game_id>/fix-result/",
        api.GameResultFixApi.as_view(),
        name="fix-result",
    ),
    path(T + "matches/<int:match_id>/decide/", api.MatchDecideApi.as_view(), name="decide"),
]
