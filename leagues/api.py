"""REST API of leagues: one view per operation, every answer in the OpenAPI document.

Reading: anyone may see public leagues; a private one is a 404 to outsiders. Writing needs a
login. Moving a player needs the league's organiser (holding the organiser permission), a
superuser, or staff holding ``leagues.manage_league_players``. A division's games,
withdrawals and adjudications are those of its round robin, under /api/v1/tournaments/.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from celticsite.api import Pagination, error_responses, validated
from celticsite.permissions import ReadOpenWriteLoggedIn
from leagues import errors, invitations, selectors, services
from leagues import serializers as s
from leagues.models import Season

TAGS = ["leagues"]
_errors = error_responses(
    not_found="No such league (or not visible).",
    conflict="Not in this state of the season.",
)


def _league_detail(request: Request, league_id: int) -> dict[str, Any]:
    league = selectors.league_get(league_id=league_id, user=request.user)
    league.season_list = list(selectors.league_seasons(league=league))  # type: ignore[attr-defined]
    return s.LeagueDetailSerializer(league).data


def _season_detail(season: Season) -> dict[str, Any]:
    season.membership_list = list(selectors.season_memberships(season=season))  # type: ignore[attr-defined]
    season.table_list = selectors.season_tables(season=season)  # type: ignore[attr-defined]
    return s.SeasonDetailSerializer(season).data


class LeagueListCreateApi(APIView):
    pagination_class = Pagination
    permission_classes = [ReadOpenWriteLoggedIn]

    @extend_schema(
        operation_id="leagues_list",
        summary="List leagues",
        responses={200: s.LeagueSummarySerializer(many=True)},
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(
            selectors.league_list(user=request.user), request, view=self
        )
        return paginator.get_paginated_response(s.LeagueSummarySerializer(page, many=True).data)

    @extend_schema(
        operation_id="leagues_create",
        summary="Create a league (organisers)",
        description="Users with the league organiser permission. Season 1 is created with "
        "it and opens for registration at `first_registration_opens_at`. Bad rules get 400 "
        "`invalid_settings` with `errors` naming each field.",
        request=s.LeagueCreateInputSerializer,
        responses={201: s.LeagueDetailSerializer, **_errors(400, 401, 403)},
        tags=TAGS,
    )
    def post(self, request: Request) -> Response:
        selectors.league_creator_require(user=request.user)  # 403 before the body's 400
        data = validated(s.LeagueCreateInputSerializer, request).service_kwargs()
        league = services.league_create(organiser=request.user, **data)
        return Response(_league_detail(request, league.pk), status=status.HTTP_201_CREATED)


class LeagueDetailApi(APIView):
    permission_classes = [ReadOpenWriteLoggedIn]

    @extend_schema(
        operation_id="leagues_detail",
        summary="A league: its rules and seasons (newest first)",
        responses={200: s.LeagueDetailSerializer, **_errors(404)},
        tags=TAGS,
    )
    def get(self, request: Request, league_id: int) -> Response:
        return Response(_league_detail(request, league_id))

    @extend_schema(
        operation_id="leagues_update",
        summary="Change a league's name or rules (its organiser)",
        description="The next season's start uses the new rules; a running season keeps its "
        "divisions. Bad rules get 400 `invalid_settings` with `errors` naming each field.",
        request=s.LeagueUpdateInputSerializer,
        responses={200: s.LeagueDetailSerializer, **_errors(400, 401, 403, 404)},
        tags=TAGS,
    )
    def patch(self, request: Request, league_id: int) -> Response:
        league = selectors.league_get(league_id=league_id, user=request.user)
        changes = validated(s.LeagueUpdateInputSerializer, request).service_kwargs()
        services.league_update(league_id=league.pk, actor=request.user, **changes)
        return Response(_league_detail(request, league.pk))


class LeagueHistoryApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="leagues_history",
        summary="A league's history",
        description="Each season's division winners (newest first) and each player's path "
        "through the divisions, season by season.",
        responses={200: s.HistorySerializer, **_errors(404)},
        tags=TAGS,
    )
    def get(self, request: Request, league_id: int) -> Response:
        league = selectors.league_get(league_id=league_id, user=request.user)
        winners, paths = selectors.league_history(league=league)
        return Response(s.HistorySerializer({"seasons": winners, "players": paths}).data)


class SeasonDetailApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="leagues_season_detail",
        summary="A season: its players and every division's table",
        description="Each table line has the player's best and worst final place still "
        "possible, the promotion/relegation zone, and whether the move is already decided.",
        responses={200: s.SeasonDetailSerializer, **_errors(404)},
        tags=TAGS,
    )
    def get(self, request: Request, season_id: int) -> Response:
        season = selectors.season_get(season_id=season_id, user=request.user)
        return Response(_season_detail(season))


class DivisionTableApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="leagues_division_table",
        summary="A division's table",
        responses={200: s.DivisionTableSerializer, **_errors(404)},
        tags=TAGS,
    )
    def get(self, request: Request, division_id: int) -> Response:
        division = selectors.division_get(division_id=division_id, user=request.user)
        return Response(s.DivisionTableSerializer(selectors.division_table(division=division)).data)


class _SeasonWriteApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    def season(self, request: Request, season_id: int) -> Season:
        return selectors.season_get(season_id=season_id, user=request.user)


class SeasonRegisterApi(_SeasonWriteApi):
    @extend_schema(
        operation_id="leagues_season_register",
        summary="Register for a season",
        description="While registration is open. `this_season_only`: not carried into the "
        "next season. 409 `already_registered`, `wrong_status`.",
        request=s.SeasonRegisterInputSerializer,
        responses={201: s.MembershipSerializer, **_errors(400, 401, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, season_id: int) -> Response:
        season = self.season(request, season_id)
        data = validated(s.SeasonRegisterInputSerializer, request).validated_data
        membership = services.season_register(
            season_id=season.pk, user=request.user, this_season_only=data["this_season_only"]
        )
        return Response(s.MembershipSerializer(membership).data, status=status.HTTP_201_CREATED)


class SeasonRegistrationCancelApi(_SeasonWriteApi):
    @extend_schema(
        operation_id="leagues_season_cancel_registration",
        summary="Cancel your registration (before the season starts)",
        request=None,
        responses={200: s.MembershipSerializer, **_errors(401, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, season_id: int) -> Response:
        season = self.season(request, season_id)
        membership = services.season_registration_cancel(season_id=season.pk, user=request.user)
        return Response(s.MembershipSerializer(membership).data)


class SeasonCarryOverApi(_SeasonWriteApi):
    @extend_schema(
        operation_id="leagues_season_carry_over",
        summary="Play the next season too, or this season only",
        request=s.SeasonCarryOverInputSerializer,
        responses={200: s.MembershipSerializer, **_errors(400, 401, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, season_id: int) -> Response:
        season = self.season(request, season_id)
        data = validated(s.SeasonCarryOverInputSerializer, request).validated_data
        membership = services.season_carry_over_set(
            season_id=season.pk, user=request.user, carry_over=data["carry_over"]
        )
        return Response(s.MembershipSerializer(membership).data)


class SeasonMoveApi(_SeasonWriteApi):
    @extend_schema(
        operation_id="leagues_season_move",
        summary="Place a player in a tier before the start (organisers; audited)",
        request=s.LeagueMoveInputSerializer,
        responses={200: s.MembershipSerializer, **_errors(400, 401, 403, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, season_id: int) -> Response:
        season = self.season(request, season_id)
        if not selectors.season_can_manage(season=season, user=request.user):
            raise errors.NotLeagueOrganiser(
                f"Only the organiser of {season.league} or an administrator may move players."
            )
        data = validated(s.LeagueMoveInputSerializer, request).validated_data
        if not get_user_model().objects.filter(pk=data["player_id"]).exists():
            raise errors.NotInSeason(f"There is no player #{data['player_id']}.")
        membership = services.season_player_move(
            season_id=season.pk,
            actor=request.user,
            player_id=data["player_id"],
            tier=data["tier"],
            reason=data["reason"],
        )
        return Response(s.MembershipSerializer(membership).data)


# --- Invitations, and the organiser adding or removing a player -------------------------------


def _organiser_season(request: Request, season_id: int) -> Season:
    """The season, once ``request.user`` may manage its players (else 403)."""
    season = selectors.season_get(season_id=season_id, user=request.user)
    if not selectors.season_can_manage(season=season, user=request.user):
        raise errors.NotLeagueOrganiser(
            f"Only the organiser of {season.league.name} (or an administrator) may invite, "
            "add or remove players."
        )
    return season


class SeasonInviteApi(_SeasonWriteApi):
    @extend_schema(
        operation_id="leagues_season_invite",
        summary="Invite a player to a season (organisers; audited)",
        description="Before the season starts. The invitee sees the league, even a private "
        "one, and is emailed a link; they accept (or register) or decline. 404 `no_user`; "
        "409 `already_registered`, `wrong_status`.",
        request=s.LeaguePlayerInputSerializer,
        responses={201: s.MembershipSerializer, **_errors(400, 401, 403, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, season_id: int) -> Response:
        season = _organiser_season(request, season_id)
        username = validated(s.LeaguePlayerInputSerializer, request).validated_data["username"]
        membership = invitations.season_invite(
            season_id=season.pk,
            actor=request.user,
            user=invitations.user_by_username(username=username),
        )
        return Response(s.MembershipSerializer(membership).data, status=status.HTTP_201_CREATED)


class SeasonPlayerAddApi(_SeasonWriteApi):
    @extend_schema(
        operation_id="leagues_season_add_player",
        summary="Register a player for a season directly (organisers; audited)",
        description="Before the season starts; the player is emailed. 404 `no_user`; 409 "
        "`already_registered`, `wrong_status`.",
        request=s.LeaguePlayerInputSerializer,
        responses={201: s.MembershipSerializer, **_errors(400, 401, 403, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, season_id: int) -> Response:
        season = _organiser_season(request, season_id)
        username = validated(s.LeaguePlayerInputSerializer, request).validated_data["username"]
        membership = invitations.season_player_add(
            season_id=season.pk,
            actor=request.user,
            user=invitations.user_by_username(username=username),
        )
        return Response(s.MembershipSerializer(membership).data, status=status.HTTP_201_CREATED)


class SeasonPlayerRemoveApi(_SeasonWriteApi):
    @extend_schema(
        operation_id="leagues_season_remove_player",
        summary="Remove a registered or invited player before the start (organisers; audited)",
        description="The player cannot register again unless the organiser adds them. 404 "
        "`no_user`; 409 `not_in_season`, `wrong_status`.",
        request=s.LeaguePlayerRemoveInputSerializer,
        responses={200: s.MembershipSerializer, **_errors(400, 401, 403, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, season_id: int) -> Response:
        season = _organiser_season(request, season_id)
        data = validated(s.LeaguePlayerRemoveInputSerializer, request).validated_data
        membership = invitations.season_player_remove(
            season_id=season.pk,
            actor=request.user,
            user=invitations.user_by_username(username=data["username"]),
            reason=data["reason"],
        )
        return Response(s.MembershipSerializer(membership).data)


def _invitation_answer(request: Request, season_id: int, *, accept: bool) -> Response:
    season = selectors.season_get(season_id=season_id, user=request.user)
    membership = invitations.season_invitation_answer(
        season_id=season.pk, user=request.user, accept=accept
    )
    return Response(s.MembershipSerializer(membership).data)


class SeasonInvitationAcceptApi(_SeasonWriteApi):
    @extend_schema(
        operation_id="leagues_season_accept_invitation",
        summary="Accept your invitation: you are registered for the season",
        description="Before the season starts. 409 `not_invited`, `wrong_status`.",
        request=None,
        responses={200: s.MembershipSerializer, **_errors(401, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, season_id: int) -> Response:
        return _invitation_answer(request, season_id, accept=True)


class SeasonInvitationDeclineApi(_SeasonWriteApi):
    @extend_schema(
        operation_id="leagues_season_decline_invitation",
        summary="Decline your invitation",
        description="Before the season starts; a private league is then hidden from you "
        "again. 409 `not_invited`, `wrong_status`.",
        request=None,
        responses={200: s.MembershipSerializer, **_errors(401, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, season_id: int) -> Response:
        return _invitation_answer(request, season_id, accept=False)


class InvitationListApi(APIView):
    permission_classes = [permissions.IsAuthenticated]
    pagination_class = Pagination

    @extend_schema(
        operation_id="leagues_invitations",
        summary="Your league invitations still open",
        description="Each season you are invited to that has not started, oldest first.",
        responses={200: s.InvitationSerializer(many=True), **_errors(401)},
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(
            selectors.invitations_of(user=request.user).order_by("registered_at", "pk"),
            request,
            view=self,
        )
        return paginator.get_paginated_response(s.InvitationSerializer(page, many=True).data)
