"""The rules and the puzzles, included by the project at the site root."""

from django.urls import path

from learn import views

app_name = "learn"

urlpatterns = [
    path("rules/", views.rules, name="rules"),
    path("rules/knot/", views.knot_rules, name="knot_rules"),
    path("puzzles/", views.puzzles, name="puzzles"),
    path("puzzles/check/", views.puzzle_check, name="puzzle_check"),
]
