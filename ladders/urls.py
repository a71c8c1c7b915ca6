"""Ladder pages, included by the project at /ladders/."""

from django.urls import path

from ladders import views

app_name = "ladders"

urlpatterns = [
    path("", views.ladder_list, name="list"),
    path("new/", views.ladder_create, name="create"),
    path("<int:ladder_id>/", views.ladder_detail, name="detail"),
    path("<int:ladder_id>/<str:action>/", views.ladder_action, name="action"),
]
