from django.urls import path

from games import api, api_kinds, api_play_aids

app_name = "games-api"

urlpatterns = [
    path("game-kinds/", api_kinds.GameKindListApi.as_view(), name="game-kind-list"),
    path(
        "game-kinds/<str:kind_id>/", api_kinds.GameKindDetailApi.as_view(), name="game-kind-detail"
    ),
    path("challenges/", api.ChallengeListCreateApi.as_view(), name="challenge-list"),
    path(
        "challenges/<int:challenge_id>/", api.ChallengeDetailApi.as_view(), name="challenge-detail"
    ),
    path(
        "challenges/<int:challenge_id>/accept/",
        api.ChallengeAcceptApi.as_view(),
        name="challenge-accept",
    ),
    path(
        "challenges/<int:challenge_id>/decline/",
        api.ChallengeDeclineApi.as_view(),
        name="challenge-decline",
    ),
    path(
        "challenges/<int:challenge_id>/cancel/",
        api.ChallengeCancelApi.as_view(),
        name="challenge-cancel",
    ),
    path("games/", api.GameListApi.as_view(), name="game-list"),
    path("games/live/", api.MyGamesLiveApi.as_view(), name="my-games-live"),
    path("games/<int:game_id>/", api.GameDetailApi.as_view(), name="game-detail"),
    path("games/<int:game_id>/live/", api.GameLiveApi.as_view(), name="game-live"),
    path(
        "games/<int:game_id>/conditional-moves/",
        api.ConditionalLineListCreateApi.as_view(),
        name="conditional-lines",
    ),
    path(
        "games/<int:game_id>/conditional-moves/<int:line_id>/",
        api.ConditionalLineDetailApi.as_view(),
        name="conditional-line",
    ),
    path("games/<int:game_id>/moves/", api.GameMovesApi.as_view(), name="game-moves"),
    path(
        "games/<int:game_id>/legal-moves/", api.GameLegalMovesApi.as_view(), name="game-legal-moves"
    ),
    path(
        "games/<int:game_id>/positions/<int:ply>/",
        api.GamePositionApi.as_view(),
        name="game-position",
    ),
    path("games/<int:game_id>/note/", api_play_aids.GameNoteApi.as_view(), name="game-note"),
    path("games/<int:game_id>/takeback/", api_play_aids.GameTakebackApi.as_view(), name="takeback"),
    path(
        "games/<int:game_id>/takeback/accept/",
        api_play_aids.GameTakebackAnswerApi.as_view(accept=True),
        name="takeback-accept",
    ),
    path(
        "games/<int:game_id>/takeback/decline/",
        api_play_aids.GameTakebackAnswerApi.as_view(accept=False),
        name="takeback-decline",
    ),
    path("games/<int:game_id>/resign/", api.GameResignApi.as_view(), name="game-resign"),
    path("games/<int:game_id>/record/", api.GameRecordApi.as_view(), name="game-record"),
    path(
        "games/<int:game_id>/messages/",
        api.GameMessageListCreateApi.as_view(),
        name="game-messages",
    ),
    path(
        "games/<int:game_id>/messages/<int:message_id>/report/",
        api.GameMessageReportApi.as_view(),
        name="game-message-report",
    ),
    path(
        "games/<int:game_id>/messages/<int:message_id>/hide/",
        api.GameMessageHideApi.as_view(),
        name="game-message-hide",
    ),
]
