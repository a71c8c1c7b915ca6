from django.urls import path

from games import play_aid_views, views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("challenges/", views.challenges, name="challenges"),
    path("challenges/<int:challenge_id>/accept/", views.challenge_accept, name="challenge_accept"),
    path(
        "challenges/<int:challenge_id>/decline/", views.challenge_decline, name="challenge_decline"
    ),
    path("challenges/<int:challenge_id>/cancel/", views.challenge_cancel, name="challenge_cancel"),
    path("games/live/", views.live_games, name="live"),
    path("games/<int:game_id>/", views.game, name="game"),
    path("games/<int:game_id>/move/", views.game_move, name="game_move"),
    path("games/<int:game_id>/resign/", views.game_resign, name="game_resign"),
    path("games/<int:game_id>/record/", views.game_record, name="game_record"),
    path("games/<int:game_id>/analysis/", play_aid_views.game_analysis, name="game_analysis"),
    path("games/<int:game_id>/notes/", play_aid_views.game_note_save, name="game_note_save"),
    path("games/<int:game_id>/takeback/", play_aid_views.game_takeback, name="game_takeback"),
    path(
        "games/<int:game_id>/takeback/accept/",
        play_aid_views.game_takeback,
        {"answer": "accept"},
        name="game_takeback_accept",
    ),
    path(
        "games/<int:game_id>/takeback/decline/",
        play_aid_views.game_takeback,
        {"answer": "decline"},
        name="game_takeback_decline",
    ),
    path(
        "games/<int:game_id>/conditional/",
        views.game_conditional_add,
        name="game_conditional_add",
    ),
    path(
        "games/<int:game_id>/conditional/<int:line_id>/delete/",
        views.game_conditional_delete,
        name="game_conditional_delete",
    ),
    path("games/<int:game_id>/messages/", views.game_message_post, name="game_message_post"),
    path(
        "games/<int:game_id>/messages/<int:message_id>/report/",
        views.game_message_report,
        name="game_message_report",
    ),
    path(
        "games/<int:game_id>/messages/<int:message_id>/hide/",
        views.game_message_hide,
        name="game_message_hide",
    ),
]
