"""Tournament pages, included by the project at /tournaments/."""

from django.urls import path

from tournaments import views

app_name = "tournaments"

T = "<int:tournament_id>/"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.tournament_create, name="create"),
    path(T, views.tournament_detail, name="detail"),
    path(T + "register/", views.register, name="register"),
    path(T + "withdraw/", views.withdraw, name="withdraw"),
    path(T + "manage/", views.tournament_manage, name="manage"),
    path(T + "manage/open/", views.open_registration, name="open"),
    path(T + "manage/start/", views.start, name="start"),
    path(T + "manage/cancel/", views.cancel, name="cancel"),
    path(T + "manage/invite/", views.invite, name="invite"),
    path(T + "manage/pair/", views.pair_manually, name="pair"),
    path(T + "byes/", views.bye_request, name="bye_request"),
    path(T + "byes/cancel/", views.bye_cancel, name="bye_cancel"),
    path(T + "manage/forbidden-pairs/", views.forbidden_pairs, name="forbidden_pairs"),
    path(T + "manage/byes/", views.entry_bye, name="entry_bye"),
    path(
        T + "manage/entries/<int:entry_id>/<str:action>/",
        views.entry_action,
        name="entry_action",
    ),
    path(
        T + "manage/games/<int:tournament_game_id>/<str:action>/",
        views.game_result,
        name="game_result",
    ),
]
