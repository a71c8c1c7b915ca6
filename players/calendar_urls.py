"""The private calendar feeds, included by the project at /calendar/."""

from django.urls import path

from players import views

app_name = "calendar"

urlpatterns = [
    path("<str:secret>.ics", views.calendar_feed, name="feed"),
]
