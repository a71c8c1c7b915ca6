from django.urls import path

from accounts import api

app_name = "accounts-api"

urlpatterns = [
    path("signup/", api.SignupApi.as_view(), name="signup"),
    path("me/", api.MeApi.as_view(), name="me"),
    path("me/vacation/", api.VacationApi.as_view(), name="vacation"),
    path("me/vacation/end/", api.VacationEndApi.as_view(), name="vacation-end"),
    path("tokens/", api.ApiTokenListCreateApi.as_view(), name="tokens"),
    path("tokens/<int:token_id>/", api.ApiTokenRevokeApi.as_view(), name="token-revoke"),
    path("password-reset/", api.PasswordResetApi.as_view(), name="password-reset"),
]
