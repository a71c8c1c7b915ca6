"""The admin's login page, ahead of ``admin.site.urls``: it answers 429 with Retry-After while
failed logins lock the account or the client's address."""

from django.urls import path

from accounts import views

urlpatterns = [path("", views.admin_login)]
