"""Accounts API: sign-up, the caller's profile, API tokens, password reset.

Thin views: each validates its input with an explicit serializer, calls one service or
selector, and answers with an explicit output serializer. Errors are formatted by
``celticsite.api.exception_handler``.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import AbstractUser
from django.utils import timezone
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from accounts.authentication import ApiTokenAuthentication, LimitedBasicAuthentication
from accounts.countries import COUNTRIES
from accounts.models import ApiToken, Profile, Vacation
from accounts.selectors import (
    api_token_list,
    profile_get,
    vacation_allowance,
    vacation_list_recent,
)
from accounts.services import (
    api_token_create,
    api_token_revoke,
    password_reset_request,
    profile_update,
    signup_request,
    vacation_end,
    vacation_start,
)
from accounts.throttles import PasswordResetThrottle, SignupThrottle
from accounts.validators import MAX_REMINDER_HOURS, MAX_REMINDERS, time_zone_names
from celticsite.api import ErrorSerializer, StrictJsonTypes

TAGS = ["accounts"]

# --- Serializers --------------------------------------------------------------------------


REMINDER_HOURS_HELP = (
    "Hours of running clock left at which to get a deadline reminder, e.g. [24, 2]; "
    "[] for none. At most 4, each 1 to 336."
)


class ProfileOutputSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")
    reminder_hours = serializers.ListField(
        child=serializers.IntegerField(), help_text=REMINDER_HOURS_HELP
    )
    email = serializers.EmailField(source="user.email")
    date_joined = serializers.DateTimeField(source="user.date_joined")

    class Meta:
        model = Profile
        fields = ["username", "email", "date_joined", *Profile.EDITABLE_FIELDS]
        read_only_fields = fields


# Schema-only fields: the services check the values (and name a wrong one); these make the
# OpenAPI document state exactly which values are accepted.


@extend_schema_field({"type": "string", "enum": sorted(time_zone_names())})
class TimeZoneField(serializers.CharField):
    """An IANA time zone name this host knows."""


@extend_schema_field(
    {"type": "string", "enum": ["", *sorted(COUNTRIES), *sorted(c.lower() for c in COUNTRIES)]}
)
class CountryField(serializers.CharField):
    """An ISO 3166-1 alpha-2 code in either case (stored upper-case), or blank for none."""


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "integer", "minimum": 1, "maximum": MAX_REMINDER_HOURS},
        "maxItems": MAX_REMINDERS,
        "uniqueItems": True,
    }
)
class ReminderHoursField(serializers.ListField):
    child = serializers.IntegerField()


class SignupInputSerializer(StrictJsonTypes, serializers.Serializer):
    username = serializers.CharField(max_length=150)
    email = serializers.EmailField()
    password = serializers.CharField(write_only=True, trim_whitespace=False)
    display_name = serializers.CharField(required=False, allow_blank=True, default="")
    country = CountryField(
        required=False, allow_blank=True, default="", help_text="ISO 3166-1 alpha-2 code."
    )
    time_zone = TimeZoneField(
        required=False, default="UTC", help_text="IANA time zone name, e.g. Europe/Dublin."
    )


class ProfileUpdateInputSerializer(StrictJsonTypes, serializers.ModelSerializer):
    """Every field optional: PATCH changes only what it names. The service validates values."""

    email = serializers.EmailField(required=False)
    country = CountryField(
        required=False, allow_blank=True, help_text="ISO 3166-1 alpha-2 code, or empty."
    )
    time_zone = TimeZoneField(
        required=False,
        help_text="IANA time zone name, e.g. Europe/Dublin. Weekends off are counted in it; "
        "changing it moves the deadlines of games where you are to move.",
    )
    reminder_hours = ReminderHoursField(required=False, help_text=REMINDER_HOURS_HELP)

    class Meta:
        model = Profile
        fields = ["email", *Profile.EDITABLE_FIELDS]
        extra_kwargs = {name: {"required": False} for name in Profile.EDITABLE_FIELDS}


class ApiTokenOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    key_prefix = serializers.CharField(help_text="The first characters of the key.")
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True)


class ApiTokenCreatedOutputSerializer(ApiTokenOutputSerializer):
    key = serializers.CharField(help_text="The full key. Shown only in this answer: keep it.")


class ApiTokenCreateInputSerializer(StrictJsonTypes, serializers.Serializer):
    name = serializers.CharField(max_length=100, help_text="What the token is for, e.g. 'cli'.")


class PasswordResetInputSerializer(StrictJsonTypes, serializers.Serializer):
    email = serializers.EmailField()


def _days(amount: timedelta) -> float:
    return round(amount.total_seconds() / 86400, 2)


class VacationOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(help_text="When it ends (or ended, if ended early).")
    days = serializers.SerializerMethodField(help_text="Its length in days (two decimals).")

    def get_days(self, vacation: Vacation) -> float:
        return _days(vacation.ends_at - vacation.started_at)


class VacationStatusOutputSerializer(serializers.Serializer):
    year = serializers.IntegerField(help_text="The calendar year (UTC) the days count in.")
    days_per_year = serializers.IntegerField()
    days_used = serializers.FloatField(help_text="Days of vacations started this year.")
    days_left = serializers.FloatField()
    current = VacationOutputSerializer(allow_null=True, help_text="The running vacation.")
    recent = VacationOutputSerializer(many=True, help_text="Your latest vacations, newest first.")


@extend_schema_field(
    {
        "oneOf": [
            {"type": "number"},
            {"type": "string", "pattern": r"^\d{1,3}(\.\d{1,2})?$"},
        ]
    }
)
class DaysField(serializers.DecimalField):
    """A number of days, sent as a JSON number (1.5) or a decimal string ("1.5")."""


class VacationStartInputSerializer(StrictJsonTypes, serializers.Serializer):
    days = DaysField(
        max_digits=5,
        decimal_places=2,
        help_text="How long, in days (fractions allowed, e.g. 1.5), at most your days left.",
    )


def _vacation_response(user: AbstractUser, *, status_code: int = status.HTTP_200_OK) -> Response:
    allowance = vacation_allowance(user=user, now=timezone.now())
    data = {
        "year": allowance.year,
        "days_per_year": allowance.days_per_year,
        "days_used": _days(allowance.used),
        "days_left": _days(allowance.left),
        "current": allowance.current,
        "recent": list(vacation_list_recent(user=user)),
    }
    return Response(VacationStatusOutputSerializer(data).data, status=status_code)


DETAIL_RESPONSE = inline_serializer("Detail", {"detail": serializers.CharField()})
ERROR_RESPONSE = ErrorSerializer  # the project-wide error body


def _profile_response(user: AbstractUser, *, status_code: int = status.HTTP_200_OK) -> Response:
    profile: Profile = profile_get(user=user)
    return Response(ProfileOutputSerializer(profile).data, status=status_code)


# --- Views --------------------------------------------------------------------------------


SIGNUP_ANSWER = (
    "Check your email: we have sent a link to finish signing up. If the address already has "
    "an account, the email says so instead."
)


class SignupApi(APIView):
    authentication_classes: list[type] = []
    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle, SignupThrottle]

    @extend_schema(
        tags=TAGS,
        summary="Sign up",
        description=(
            "Always answers 202 with the same text once the fields are valid, whether or not "
            "an account already uses the email, so the answer does not reveal who has an "
            "account. A new address gets an email with a link (to the web site) that confirms "
            "it; the password works from then on. An address in use gets no new account: its "
            "owner is told by email instead. Usernames are unique ignoring case."
        ),
        request=SignupInputSerializer,
        responses={
            202: DETAIL_RESPONSE,
            400: OpenApiResponse(
                ERROR_RESPONSE, description="A field is invalid, or the username is taken."
            ),
            429: OpenApiResponse(ERROR_RESPONSE, description="Too many requests; wait."),
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        serializer = SignupInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        signup_request(**serializer.validated_data)
        return Response({"detail": SIGNUP_ANSWER}, status=status.HTTP_202_ACCEPTED)


class MeApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=TAGS,
        summary="Your profile",
        responses={200: ProfileOutputSerializer},
    )
    def get(self, request: Request) -> Response:
        return _profile_response(request.user)

    @extend_schema(
        tags=TAGS,
        summary="Change your profile",
        description="Send only the fields to change. Usernames cannot be changed.",
        request=ProfileUpdateInputSerializer,
        responses={
            200: ProfileOutputSerializer,
            400: OpenApiResponse(ERROR_RESPONSE, description="A field is invalid."),
        },
    )
    def patch(self, request: Request) -> Response:
        serializer = ProfileUpdateInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        profile_update(user=request.user, **serializer.validated_data)
        return _profile_response(request.user)


class ApiTokenListCreateApi(APIView):
    # HTTP Basic too, so a script can get its first key with just a username and password:
    #   curl -u alice:secret --json '{"name": "cli"}' .../api/v1/accounts/tokens/
    authentication_classes = [
        LimitedBasicAuthentication,
        SessionAuthentication,
        ApiTokenAuthentication,
    ]
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=TAGS,
        summary="Your active API tokens",
        description="Keys are never shown again after creation; only their first characters.",
        responses={200: ApiTokenOutputSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        tokens = api_token_list(user=request.user)
        return Response(ApiTokenOutputSerializer(tokens, many=True).data)

    @extend_schema(
        tags=TAGS,
        summary="Create an API token",
        description=(
            "Answers with the full key, once. Accepts HTTP Basic authentication "
            "(username and password) as well as a session or another token. Failed HTTP Basic "
            "logins count with the login page's: after too many for the username or from the "
            "address, the answer is 429 `login_locked` with Retry-After, and no password is "
            "checked until then."
        ),
        request=ApiTokenCreateInputSerializer,
        responses={
            201: ApiTokenCreatedOutputSerializer,
            400: OpenApiResponse(ERROR_RESPONSE, description="The name is missing or in use."),
        },
    )
    def post(self, request: Request) -> Response:
        serializer = ApiTokenCreateInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        token, key = api_token_create(user=request.user, name=serializer.validated_data["name"])
        data = ApiTokenCreatedOutputSerializer({**_token_fields(token), "key": key}).data
        return Response(data, status=status.HTTP_201_CREATED)


def _token_fields(token: ApiToken) -> dict[str, object]:
    return {name: getattr(token, name) for name in ApiTokenOutputSerializer().fields}


class ApiTokenRevokeApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=TAGS,
        summary="Revoke an API token",
        description="The key stops working at once. Revoking a revoked token is harmless.",
        request=None,
        responses={
            204: OpenApiResponse(description="Revoked."),
            404: OpenApiResponse(ERROR_RESPONSE, description="You have no token with this id."),
        },
    )
    def delete(self, request: Request, token_id: int) -> Response:
        api_token_revoke(user=request.user, token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordResetApi(APIView):
    authentication_classes: list[type] = []
    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle, PasswordResetThrottle]

    @extend_schema(
        tags=TAGS,
        summary="Email a password-reset link",
        description=(
            "Always answers 202, whether or not an account uses the address, so the answer "
            "does not reveal who has an account, and does the same work either way (a worker "
            "looks the address up later). The link opens the reset page on the web site."
        ),
        request=PasswordResetInputSerializer,
        responses={
            202: DETAIL_RESPONSE,
            400: ERROR_RESPONSE,
            429: OpenApiResponse(ERROR_RESPONSE, description="Too many requests; wait."),
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        serializer = PasswordResetInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        password_reset_request(email=serializer.validated_data["email"])
        return Response(
            {"detail": "If an account uses this address, we have emailed it a reset link."},
            status=status.HTTP_202_ACCEPTED,
        )


class VacationApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=TAGS,
        summary="Your vacation days and vacations",
        responses={200: VacationStatusOutputSerializer},
    )
    def get(self, request: Request) -> Response:
        return _vacation_response(request.user)

    @extend_schema(
        tags=TAGS,
        summary="Start a vacation now",
        description=(
            "Your clock stops at once in every game that allows vacations, until the vacation "
            "ends; deadlines move accordingly. Days count against the year the vacation starts "
            "in (UTC)."
        ),
        request=VacationStartInputSerializer,
        responses={
            201: VacationStatusOutputSerializer,
            400: OpenApiResponse(
                ERROR_RESPONSE, description="days is not above 0, or more than your days left."
            ),
            409: OpenApiResponse(
                ERROR_RESPONSE, description="Already on vacation, or no days left this year."
            ),
        },
    )
    def post(self, request: Request) -> Response:
        serializer = VacationStartInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        vacation_start(user=request.user, days=serializer.validated_data["days"])
        return _vacation_response(request.user, status_code=status.HTTP_201_CREATED)


class VacationEndApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=TAGS,
        summary="End your vacation now",
        description="Your clocks run again at once; the unused days go back to this year's.",
        request=None,
        responses={
            200: VacationStatusOutputSerializer,
            409: OpenApiResponse(ERROR_RESPONSE, description="You are not on vacation."),
        },
    )
    def post(self, request: Request) -> Response:
        vacation_end(user=request.user)
        return _vacation_response(request.user)
