"""REST API for a player's aids in a game: their private notes (the analysis board reads the
legal moves and positions of ``games.api``, with tried moves in ``after``) and takebacks."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from celticsite.api import error_responses, validated
from games import selectors, services
from games import serializers as s
from games.models import GameNote

_errors = error_responses(
    not_found="No such game (or not yours).", conflict="The game has moved on."
)


def _note_body(note: GameNote | None) -> dict[str, object]:
    return {"body": note.body if note else "", "updated_at": note.updated_at if note else None}


class GameNoteApi(APIView):
    """A player's own notes on a game: nobody else reads them, moderators included."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Read your notes on a game",
        description="Private to you, during the game and after it; to anyone but a player "
        "of the game this is 404.",
        responses={200: s.GameNoteSerializer, **_errors(401, 404)},
        tags=["notes"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.game_get_visible(game_id=game_id, user=request.user)
        note = selectors.game_note_get(game=game, user=request.user)
        return Response(s.GameNoteSerializer(_note_body(note)).data)

    @extend_schema(
        summary="Write your notes on a game",
        description="Replaces your notes (an empty body deletes them). Notes are yours "
        "alone; the game is not touched.",
        request=s.GameNoteInputSerializer,
        responses={200: s.GameNoteSerializer, **_errors(400, 401, 404)},
        tags=["notes"],
    )
    def put(self, request: Request, game_id: int) -> Response:
        body = validated(s.GameNoteInputSerializer, request).validated_data["body"]
        note = services.game_note_save(game_id=game_id, user=request.user, body=body)
        return Response(s.GameNoteSerializer(_note_body(note)).data)


class GameTakebackApi(APIView):
    """The takeback waiting in a game, and asking for one."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="The takeback waiting for an answer in a game",
        responses={200: s.TakebackPendingSerializer, **_errors(401, 404)},
        tags=["takebacks"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.game_get_visible(game_id=game_id, user=request.user)
        pending = selectors.takeback_pending(game=game)
        return Response(s.TakebackPendingSerializer({"pending": pending}).data)

    @extend_schema(
        summary="Ask to take back your last move",
        description="Before your opponent has moved, and only in games that allow it (a rated "
        "game if created with `takebacks`; never a tournament, league or ladder game). Once "
        "per move; your opponent accepts or declines.",
        request=s.TakebackInputSerializer,
        responses={201: s.TakebackSerializer, **_errors(400, 401, 403, 404, 409)},
        tags=["takebacks"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        ply = validated(s.TakebackInputSerializer, request).validated_data["ply"]
        asked = services.takeback_request(game_id=game_id, user=request.user, expected_ply=ply)
        return Response(s.TakebackSerializer(asked).data, status=status.HTTP_201_CREATED)


class GameTakebackAnswerApi(APIView):
    """The opponent's answer: ``accept`` restores the position and clocks, ``decline`` not."""

    permission_classes = [permissions.IsAuthenticated]
    accept = True

    @extend_schema(
        summary="Answer your opponent's takeback",
        request=None,
        responses={200: s.TakebackSerializer, **_errors(401, 403, 404, 409)},
        tags=["takebacks"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        answered = services.takeback_answer(game_id=game_id, user=request.user, accept=self.accept)
        return Response(s.TakebackSerializer(answered).data)
