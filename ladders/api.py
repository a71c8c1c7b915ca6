"""REST API of ladders: one view per operation, every answer in the OpenAPI document.

Reading is open to anyone. Joining, leaving and challenging need a login. Creating a ladder
needs ``ladders.organise_ladder``; removing a player needs the ladder's organiser while they
hold that permission, or staff holding ``ladders.manage_ladder_players``
(``selectors.ladder_can_manage``, the rule of every competition). A challenge's game is an
ordinary game, played under /api/v1/games/.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from celticsite.api import Pagination, error_responses, validated
from celticsite.permissions import ReadOpenWriteLoggedIn
from ladders import errors, selectors, services
from ladders import serializers as s
from ladders.models import Ladder

TAGS = ["ladders"]
_errors = error_responses(
    not_found="No such ladder (or player).",
    conflict="The ladder's rules refuse this now; `code` names the rule "
    "(e.g. out_of_range, rematch_too_soon, already_on_ladder).",
)


def _ladder(ladder_id: int) -> Ladder:
    ladder = selectors.ladder_get(ladder_id=ladder_id)
    if ladder is None:
        raise errors.LadderNotFound(f"There is no ladder #{ladder_id}.")
    return ladder


def _ladder_detail(request: Request, ladder_id: int) -> dict[str, Any]:
    ladder = _ladder(ladder_id)
    viewer = request.user.pk if request.user.is_authenticated else None
    ladder.place_list = selectors.ladder_places(ladder=ladder, viewer_id=viewer)  # type: ignore[attr-defined]
    ladder.open_challenge_list = list(  # type: ignore[attr-defined]
        selectors.ladder_challenges(ladder=ladder, open_only=True)
    )
    return s.LadderDetailSerializer(ladder).data


class LadderListCreateApi(APIView):
    pagination_class = Pagination
    permission_classes = [ReadOpenWriteLoggedIn]

    @extend_schema(
        operation_id="ladders_list",
        summary="List ladders",
        responses={200: s.LadderSummarySerializer(many=True)},
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(selectors.ladder_list(), request, view=self)
        return paginator.get_paginated_response(s.LadderSummarySerializer(page, many=True).data)

    @extend_schema(
        operation_id="ladders_create",
        summary="Create a ladder (organisers)",
        description="Users with the ladder organiser permission. Bad limits get 400 "
        "`invalid_settings` with `errors` naming each field.",
        request=s.LadderCreateInputSerializer,
        responses={201: s.LadderDetailSerializer, **_errors(400, 401, 403)},
        tags=TAGS,
    )
    def post(self, request: Request) -> Response:
        data = validated(s.LadderCreateInputSerializer, request).service_kwargs()
        ladder = services.ladder_create(organiser=request.user, **data)
        return Response(_ladder_detail(request, ladder.pk), status=status.HTTP_201_CREATED)


class LadderDetailApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="ladders_detail",
        summary="A ladder: its limits, every place, and the challenges being played",
        responses={200: s.LadderDetailSerializer, **_errors(404)},
        tags=TAGS,
    )
    def get(self, request: Request, ladder_id: int) -> Response:
        return Response(_ladder_detail(request, ladder_id))


class LadderHistoryApi(APIView):
    permission_classes = [permissions.AllowAny]
    pagination_class = Pagination

    @extend_schema(
        operation_id="ladders_history",
        summary="A ladder's history, newest first",
        description="Every change: joined, challenged, result (places before and after of "
        "both players), dropped after a time forfeit, left, removed; each with the whole "
        "order after it.",
        responses={200: s.LadderEventSerializer(many=True), **_errors(404)},
        tags=TAGS,
    )
    def get(self, request: Request, ladder_id: int) -> Response:
        ladder = _ladder(ladder_id)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(
            selectors.ladder_history(ladder=ladder), request, view=self
        )
        return paginator.get_paginated_response(s.LadderEventSerializer(page, many=True).data)


class LadderJoinApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="ladders_join",
        summary="Join a ladder at the bottom",
        request=None,
        responses={201: s.LadderPlayerSerializer, **_errors(401, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, ladder_id: int) -> Response:
        row = services.ladder_join(ladder_id=ladder_id, user=request.user)
        return Response(s.LadderPlayerSerializer(row).data, status=status.HTTP_201_CREATED)


class LadderLeaveApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="ladders_leave",
        summary="Leave a ladder (those below move up one)",
        description="Refused with 409 `challenge_in_play` while a challenge game of yours "
        "is being played.",
        request=None,
        responses={
            204: OpenApiResponse(description="You left the ladder."),
            **_errors(401, 404, 409),
        },
        tags=TAGS,
    )
    def post(self, request: Request, ladder_id: int) -> Response:
        services.ladder_leave(ladder_id=ladder_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LadderChallengeApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="ladders_challenge",
        summary="Challenge a player above you; the game starts at once",
        description="You play Orange and move first, with the ladder's time control. 409 "
        "with the rule's code when the ladder refuses: not_on_ladder, "
        "opponent_not_on_ladder, self_challenge, not_above, out_of_range, "
        "pair_already_playing, too_many_open_challenges, opponent_too_busy, "
        "rematch_too_soon, opponent_inactive.",
        request=s.LadderChallengeInputSerializer,
        responses={201: s.LadderChallengeSerializer, **_errors(400, 401, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, ladder_id: int) -> Response:
        data = validated(s.LadderChallengeInputSerializer, request).validated_data
        defender_id = selectors.player_id_by_username(username=data["opponent"])
        challenge = services.ladder_challenge(
            ladder_id=ladder_id, challenger=request.user, defender_id=defender_id
        )
        return Response(s.LadderChallengeSerializer(challenge).data, status=status.HTTP_201_CREATED)


class LadderRemoveApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="ladders_remove_player",
        summary="Remove a player (the ladder's organiser), with a reason; audited",
        request=s.LadderRemoveInputSerializer,
        responses={200: s.LadderEventSerializer, **_errors(400, 401, 403, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, ladder_id: int) -> Response:
        selectors.ladder_manager_require(ladder=_ladder(ladder_id), user=request.user)
        data = validated(s.LadderRemoveInputSerializer, request).validated_data
        player_id = selectors.player_id_by_username(username=data["player"])
        event = services.ladder_player_remove(
            ladder_id=ladder_id, actor=request.user, player_id=player_id, reason=data["reason"]
        )
        return Response(s.LadderEventSerializer(event).data)
