"""REST API for the game kinds the server hosts: what a client needs to offer a game of one."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from celticsite.api import error_responses
from games import errors
from games import serializers as s
from games.kinds import all_kinds, get_kind
from games.kinds.base import KindError

_errors = error_responses(not_found="No game kind with this id.", conflict="Never answered.")


class GameKindListApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="List the game kinds",
        description="Every game this server hosts, the default (celtic) first: its id for "
        "the `kind` of a challenge, its seat range and seat names.",
        responses={200: s.GameKindSerializer(many=True)},
        tags=["game kinds"],
    )
    def get(self, request: Request) -> Response:
        kinds = [s.game_kind_data(kind) for kind in all_kinds()]
        return Response(s.GameKindSerializer(kinds, many=True).data)


class GameKindDetailApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="Show a game kind",
        responses={200: s.GameKindSerializer, **_errors(404)},
        tags=["game kinds"],
    )
    def get(self, request: Request, kind_id: str) -> Response:
        try:
            kind = get_kind(kind_id)
        except KindError as error:
            raise errors.NotFound(str(error), code="kind_not_found") from None
        return Response(s.GameKindSerializer(s.game_kind_data(kind)).data)
