from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("signup/sent/", views.signup_sent, name="signup_sent"),
    path("signup/confirm/<uidb64>/<token>/", views.signup_confirm_page, name="signup_confirm"),
    path(
        "login/",
        views.LoginView.as_view(),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "password-reset/",
        views.PasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name="accounts/password_reset_done.html"),
        name="password_reset_done",
    ),
    path(
        "reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            template_name="accounts/password_reset_confirm.html",
            success_url=reverse_lazy("accounts:password_reset_complete"),
        ),
        name="password_reset_confirm",
    ),
    path(
        "reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="accounts/password_reset_complete.html"
        ),
        name="password_reset_complete",
    ),
    path("profile/", views.profile, name="profile"),
    path("profile/vacation/", views.vacation_begin, name="vacation_start"),
    path("profile/vacation/end/", views.vacation_finish, name="vacation_end"),
    path("profile/calendar/", views.calendar_renew, name="calendar_renew"),
    path("profile/calendar/off/", views.calendar_off, name="calendar_off"),
    path("profile/push/", views.push_subscribe, name="push_subscribe"),
    path(
        "profile/push/<int:device_id>/remove/",
        views.push_device_delete,
        name="push_device_remove",
    ),
    path("tokens/", views.tokens, name="tokens"),
    path("tokens/<int:token_id>/revoke/", views.token_revoke, name="token_revoke"),
]
