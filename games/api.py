"""REST API for challenges and games: one view per operation, schemas for every answer."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from celticsite.api import CursorPage, Pagination, error_responses, query_flag, validated
from celticsite.errors import DomainError
from celticsite.permissions import ReadOpenWriteLoggedIn
from celtictext import quote
from games import selectors, services
from games import serializers as s
from games.clock import ClockReading
from games.kinds import get_kind
from games.kinds.base import KindError, State
from games.models import (
    Challenge,
    ChallengeEntrant,
    ChallengeInvitation,
    Game,
    IdempotentRequest,
    Move,
)
from games.position_serializers import POSITION

_errors = error_responses(
    not_found="No such object (or not visible).",
    conflict="The game or challenge has moved on.",
    forbidden="You may not do this.",
)


def _game_context(
    game: Game,
    request: Request,
    *,
    read: tuple[list[Move], State, ClockReading | None] | None = None,
) -> dict[str, Any]:
    """What `GameDetailSerializer` needs to show the game. `read`: its moves, position and
    clock when the caller has them already (after a move), else they are read here."""
    if read is None:
        moves, state = selectors.game_moves_and_position(game=game)
        clock = selectors.game_clocks(games=[game], now=timezone.now())[game.pk]
    else:
        moves, state, clock = read
    return {
        "request": request,
        "position": game.game_kind.position_data(state),
        "moves": moves,
        "clocks": {game.pk: clock},
    }


def _game_detail(game: Game, request: Request) -> dict[str, Any]:
    """The game as `GameDetailSerializer` shows it, its moves, position and clock read here."""
    return s.GameDetailSerializer(game, context=_game_context(game, request)).data


def _paginated(
    view: APIView,
    request: Request,
    queryset: Any,
    serializer: type,
    context: Callable[[list[Any]], dict[str, Any]] | None = None,
) -> Response:
    """One page of ``queryset``; ``context`` makes the serializer's context from the page
    (e.g. everything the page's rows need, read in one query)."""
    paginator = view.pagination_class()
    page = paginator.paginate_queryset(queryset, request, view=view) or []
    extra = context(page) if context is not None else {}
    return paginator.get_paginated_response(serializer(page, many=True, context=extra).data)


class ReadOpenWriteThrottledApi(APIView):
    """GET for anyone who may see the object; POST for logged-in users, also limited by the
    view's ``throttle_scope`` (e.g. moves, messages)."""

    permission_classes = [ReadOpenWriteLoggedIn]

    def get_throttles(self) -> list[Any]:
        throttles = super().get_throttles()
        if self.request.method == "POST":
            throttles.append(ScopedRateThrottle())
        return throttles


# --- Challenges ---------------------------------------------------------------------------

#: The players who took a seat of each open seek of a page, read in one query.
ENTRANTS_WITH_PLAYERS = Prefetch(
    "entrants", queryset=ChallengeEntrant.objects.select_related("user__profile")
)
#: The players each challenge to several of a page invites, read in one query.
INVITED_PLAYERS = Prefetch(
    "invitations", queryset=ChallengeInvitation.objects.select_related("user__profile")
)


class ChallengeListCreateApi(APIView):
    pagination_class = Pagination
    permission_classes = [ReadOpenWriteLoggedIn]

    @extend_schema(
        summary="List challenges",
        description="`scope=open` (default for guests): open seeks anyone may accept; "
        "`incoming`/`outgoing`/`mine`: your own challenges.",
        parameters=[OpenApiParameter("scope", str, enum=["open", "incoming", "outgoing", "mine"])],
        responses={200: s.ChallengeOutputSerializer(many=True), **_errors(400, 401)},
        tags=["challenges"],
    )
    def get(self, request: Request) -> Response:
        scope = request.query_params.get("scope", "open")
        if scope == "open":
            challenges = selectors.challenge_list_open(exclude_user=request.user)
        elif scope in {"incoming", "outgoing", "mine"}:
            if not request.user.is_authenticated:
                raise exceptions.NotAuthenticated("Log in to see your own challenges.")
            challenges = selectors.challenge_list_for_user(user=request.user, scope=scope)
            if scope != "mine":
                challenges = challenges.filter(status="open")
        else:
            raise DomainError(
                f"scope {quote(scope)} is not one of open, incoming, outgoing, mine.",
                code="invalid_scope",
            )
        challenges = challenges.select_related(
            "challenger__profile", "opponent__profile", "game"
        ).prefetch_related(ENTRANTS_WITH_PLAYERS, INVITED_PLAYERS)
        return _paginated(self, request, challenges, s.ChallengeOutputSerializer)

    @extend_schema(
        summary="Create a challenge or an open seek",
        request=s.ChallengeInputSerializer,
        responses={201: s.ChallengeOutputSerializer, **_errors(400, 404)},
        tags=["challenges"],
    )
    def post(self, request: Request) -> Response:
        data = _valid(s.ChallengeInputSerializer, request)
        opponent = (
            selectors.user_get_by_username(username=data["opponent"]) if data["opponent"] else None
        )
        invited = [
            selectors.user_get_by_username(username=username) for username in data["invited"]
        ]
        tc = data.get("time_control", {}).get("time_control")
        challenge = services.challenge_create(
            challenger=request.user,
            opponent=opponent,
            invited=invited,
            kind=data["kind"],
            seat_count=data["seat_count"],
            seat_choice=_challenger_seat(data),
            rated=data["rated"],
            public=data["public"],
            window_forfeit=data["window_forfeit"],
            takebacks=data["takebacks"],
            time_control=tc,
            message=data["message"],
        )
        return Response(s.ChallengeOutputSerializer(challenge).data, status=status.HTTP_201_CREATED)


def _challenger_seat(data: dict[str, Any]) -> int | None:
    """The seat the challenger asked for: ``seat``, or the deprecated ``colour`` of a game
    for two mapped through the kind's seat names (orange: 1, blue: 2, random: None)."""
    colour = data.get("colour")
    if colour is None:
        return data["seat"]
    try:
        kind = get_kind(data["kind"])
    except KindError:
        return data["seat"]  # challenge_create says which kinds there are
    count = data["seat_count"] or kind.seats.min
    if count != 2:
        raise DomainError(
            f"colour applies to a game for two; this one is for {count}: choose a seat with "
            "seat (null for a random one).",
            code="invalid_seat",
        )
    names = [name.lower() for name in kind.seat_names(count)]
    seat = None if colour == "random" else _colour_seat(colour, names, kind.name)
    if data["seat"] is not None and data["seat"] != seat:
        raise DomainError(
            f"colour {quote(colour)} and seat {data['seat']} disagree: give one of them.",
            code="invalid_seat",
        )
    return seat


def _colour_seat(colour: str, names: list[str], kind_name: str) -> int:
    if colour not in names:
        raise DomainError(
            f"colour {quote(colour)} is not a seat of {kind_name}: expected "
            f"{', '.join(names)} or random.",
            code="invalid_seat",
        )
    return names.index(colour) + 1


class ChallengeDetailApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="Show a challenge",
        responses={200: s.ChallengeOutputSerializer, **_errors(404)},
        tags=["challenges"],
    )
    def get(self, request: Request, challenge_id: int) -> Response:
        challenge = selectors.challenge_get_visible(challenge_id=challenge_id, user=request.user)
        return Response(s.ChallengeOutputSerializer(challenge).data)


class ChallengeAcceptApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Accept a challenge: the game starts, or you take a seat of a filling seek",
        description="A challenge for two, or the last free seat of an open seek for more, "
        "starts the game: 201 with the game. Any other seat of such a seek answers 200 with "
        "the challenge, you among its `entrants`; the game starts when the last seat is taken.",
        request=None,
        responses={
            201: s.GameDetailSerializer,
            200: s.ChallengeOutputSerializer,
            **_errors(403, 404, 409),
        },
        tags=["challenges"],
    )
    def post(self, request: Request, challenge_id: int) -> Response:
        accepted = services.challenge_accept(challenge_id=challenge_id, user=request.user)
        if isinstance(accepted, Challenge):
            return Response(s.ChallengeOutputSerializer(accepted).data)
        return Response(_game_detail(accepted, request), status=status.HTTP_201_CREATED)


class ChallengeDeclineApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Decline a challenge addressed to you",
        request=None,
        responses={200: s.ChallengeOutputSerializer, **_errors(403, 404, 409)},
        tags=["challenges"],
    )
    def post(self, request: Request, challenge_id: int) -> Response:
        challenge = services.challenge_decline(challenge_id=challenge_id, user=request.user)
        return Response(s.ChallengeOutputSerializer(challenge).data)


class ChallengeCancelApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Withdraw your open challenge",
        request=None,
        responses={200: s.ChallengeOutputSerializer, **_errors(403, 404, 409)},
        tags=["challenges"],
    )
    def post(self, request: Request, challenge_id: int) -> Response:
        challenge = services.challenge_cancel(challenge_id=challenge_id, user=request.user)
        return Response(s.ChallengeOutputSerializer(challenge).data)


# --- Games ----------------------------------------------------------------------------------


class GameListApi(APIView):
    permission_classes = [permissions.AllowAny]
    pagination_class = CursorPage

    @extend_schema(
        summary="List games",
        description="Without filters: every game you may see (public ones and your own). "
        "`mine=true`: yours; `my_turn=true`: yours waiting for your move, least time left "
        "first; `player=<username>`: that player's public games; `status`: active, finished "
        "or annulled. Newest first (`my_turn`: least time left first); follow `next` for "
        "the following page.",
        parameters=[
            OpenApiParameter("mine", bool),
            OpenApiParameter("my_turn", bool),
            OpenApiParameter("player", str),
            OpenApiParameter("status", str, enum=[c for c, _ in Game.Status.choices]),
        ],
        responses={200: s.GameSummarySerializer(many=True), **_errors(400, 401, 404)},
        tags=["games"],
    )
    def get(self, request: Request) -> Response:
        params = request.query_params
        own = query_flag(params, "mine") or query_flag(params, "my_turn")
        if own and not request.user.is_authenticated:
            raise exceptions.NotAuthenticated("Log in to list your own games.")
        if query_flag(params, "my_turn"):
            games = selectors.game_list_my_turn(user=request.user)
        elif query_flag(params, "mine"):
            games = selectors.game_list_for_player(user=request.user)
        elif params.get("player"):
            player = selectors.user_get_by_username(username=params["player"])
            games = selectors.game_list_public(player=player)
        else:
            games = selectors.game_list_visible(user=request.user)
        if "status" in params:
            if params["status"] not in Game.Status.values:
                raise DomainError(
                    f"status {quote(params['status'])} is not one of "
                    f"{', '.join(Game.Status.values)}.",
                    code="invalid_status",
                )
            games = games.filter(status=params["status"])
        return _paginated(
            self,
            request,
            games,
            s.GameSummarySerializer,
            context=lambda page: {"clocks": selectors.game_clocks(games=page, now=timezone.now())},
        )


class GameDetailApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="Show a game with its moves and current position",
        responses={200: s.GameDetailSerializer, **_errors(404)},
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.game_get_visible(game_id=game_id, user=request.user)
        return Response(_game_detail(game, request))


class GameMovesApi(ReadOpenWriteThrottledApi):
    """The move list: read it, or append to it."""

    throttle_scope = "moves"

    @extend_schema(
        summary="List the recorded turns",
        responses={200: s.TurnSerializer(many=True), **_errors(404)},
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.game_get_visible(game_id=game_id, user=request.user)
        return Response(s.TurnSerializer(game.moves.all(), many=True).data)

    @extend_schema(
        summary="Play a move",
        description="State the ply you expect (the game's `ply`): a stale or duplicate "
        "submission gets 409 and changes nothing. Send an `Idempotency-Key` header to make "
        "retries safe: a repeated request with the same key gets the first answer again. "
        "An illegal move gets 400 with `code: illegal_move` and the `rule` it breaks.",
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                str,
                OpenApiParameter.HEADER,
                description="Any unique string of up to 100 characters.",
            )
        ],
        request=s.MoveInputSerializer,
        responses={201: s.MoveOutcomeSerializer, **_errors(400, 403, 404, 409)},
        tags=["games"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        return idempotent(request, lambda: self._play(request, game_id))

    def _play(self, request: Request, game_id: int) -> Response:
        # no separate visibility read: the move's own read of the game answers 404 for a
        # game the user may not see
        data = _valid(s.MoveInputSerializer, request)
        outcome = services.move_submit(
            game_id=game_id, user=request.user, expected_ply=data["ply"], notation=data["move"]
        )
        read = (outcome.moves, outcome.state, outcome.clock)
        context = _game_context(outcome.game, request, read=read)
        answer = {
            "turns": outcome.turns,
            "flips": list(outcome.game.game_kind.pending_chance(outcome.state)),
            "legal_moves": _legal_choices(outcome.state),
            "game": outcome.game,
        }
        body = s.MoveOutcomeSerializer(answer, context=context).data
        return Response(body, status=status.HTTP_201_CREATED)


def _legal_choices(state: State) -> list[str]:
    """What the seat to act may send now, sorted (none once the game is over)."""
    return sorted(state.legal_choices()) if state.to_act is not None else []


TRIED_MOVES = OpenApiParameter(
    "after",
    str,
    description="Moves to try from the position, in turn, separated by commas, e.g. "
    "`f5 NE,d5 NESW n`. Nothing is stored: the game never sees them. A move that does not "
    "parse or is illegal gets 400 naming its `index` (1-based).",
)


def tried_moves(request: Request) -> list[str]:
    """The notations of the ``after`` query parameter (none when it is absent or empty)."""
    text = request.query_params.get("after", "")
    if not text.strip():
        return []
    moves = [move.strip() for move in text.split(",")]
    if "" in moves:
        raise DomainError(
            f"after={text!r} has an empty move: write the moves separated by single commas, "
            "like 'f5 NE,d5 NESW n'.",
            code="invalid_notation",
        )
    return moves


class GameLegalMovesApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="The legal moves of the player to move",
        description="With `after`, those of the position the tried moves reach (an analysis "
        "board; `ply` is then that position's).",
        parameters=[TRIED_MOVES],
        responses={200: s.LegalMovesSerializer, **_errors(400, 404)},
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.game_get_visible(game_id=game_id, user=request.user)
        tried = tried_moves(request)
        state = selectors.analysis_position(game=game, moves=tried)
        live = game.is_active or bool(tried)  # an ended game takes no move, but may be analysed
        seat = state.to_act if live else None
        return Response(
            {
                "ply": len(state.steps),
                "seat_to_move": seat,
                "to_move": None if seat is None else game.seat_name(seat).lower(),
                "moves": _legal_choices(state) if seat is not None else [],
            }
        )


class GamePositionApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="The position after a given number of turns (replay)",
        description="With `after`, the position the tried moves reach from there (an "
        "analysis board).",
        parameters=[TRIED_MOVES],
        responses={200: POSITION, **_errors(400, 404)},
        tags=["games"],
    )
    def get(self, request: Request, game_id: int, ply: int) -> Response:
        game = selectors.game_get_visible(game_id=game_id, user=request.user)
        state = selectors.analysis_position(game=game, ply=ply, moves=tried_moves(request))
        return Response(game.game_kind.position_data(state))


class GameResignApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Resign: your opponent wins",
        request=None,
        responses={200: s.GameSummarySerializer, **_errors(403, 404, 409)},
        tags=["games"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        selectors.game_get_visible(game_id=game_id, user=request.user)
        game = services.game_resign(game_id=game_id, user=request.user)
        return Response(s.GameSummarySerializer(game).data)


class GameRecordApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="Download the game record",
        description="`as=json` (default) or `as=text` (the PGN-like format of docs/RECORDS.md).",
        parameters=[OpenApiParameter("as", str, enum=["json", "text"])],
        responses={
            (200, "application/json"): OpenApiTypes.OBJECT,
            (200, "text/plain"): OpenApiTypes.STR,
            **_errors(400, 404),
        },
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> HttpResponse:
        game = selectors.game_get_visible(game_id=game_id, user=request.user)
        form = request.query_params.get("as", "json")
        if form == "json":
            data = selectors.game_record_data(game=game)
            content = json.dumps(data, ensure_ascii=False, indent=1)
            content_type, suffix = "application/json", "json"
        elif form == "text":
            content = selectors.game_record_text(game=game)
            content_type, suffix = "text/plain; charset=utf-8", "txt"
        else:
            raise DomainError(f"as={quote(form)}: expected json or text.", code="invalid_format")
        response = HttpResponse(content, content_type=content_type)
        filename = f"{game.kind}-game-{game.pk}.{suffix}"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response


class GameLiveApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="v1_games_live_status",
        summary="The game's ply and who is to move, for pages that poll",
        description="Small and cheap: poll it every 10-15 s and reload the game when `ply` "
        "changes.",
        responses={200: s.LiveStatusSerializer, **_errors(404)},
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.game_get_visible(game_id=game_id, user=request.user)
        status = selectors.game_live_status(game=game, user=request.user)
        return Response(s.LiveStatusSerializer(status).data)


class MyGamesLiveApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="v1_my_games_live_status",
        summary="Your active games' plies and whose move it is, for pages that poll",
        responses={200: s.LiveStatusListSerializer, **_errors(401)},
        tags=["games"],
    )
    def get(self, request: Request) -> Response:
        statuses = selectors.game_list_live_status(user=request.user)
        return Response(s.LiveStatusListSerializer(statuses).data)


class ConditionalLineListCreateApi(APIView):
    """A player's own queued replies ("if they play X, I play Y") in one game."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="List your conditional moves in a game",
        description="Only their owner sees them; to anyone but a player this is 404.",
        responses={200: s.ConditionalLineSerializer(many=True), **_errors(401, 404)},
        tags=["conditional moves"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.game_get_visible(game_id=game_id, user=request.user)
        lines = selectors.conditional_line_list(game=game, user=request.user)
        return Response(s.ConditionalLineSerializer(lines, many=True).data)

    @extend_schema(
        summary="Queue a conditional line: your opponent's move, your reply (and more pairs)",
        description="Set while your opponent is to move. Every move must be legal in turn "
        "from the current position; an illegal one gets 400 with its `index` (1-based) and "
        "the `rule` it breaks. When your opponent plays the first move, your reply is played "
        "at once; your other lines are dropped. A line with the same first move replaces "
        "the earlier one.",
        request=s.ConditionalLineInputSerializer,
        responses={201: s.ConditionalLineSerializer, **_errors(400, 401, 403, 404, 409)},
        tags=["conditional moves"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        game = selectors.game_get_visible(game_id=game_id, user=request.user)
        selectors.conditional_line_list(game=game, user=request.user)  # 404 to non-players
        data = _valid(s.ConditionalLineInputSerializer, request)
        line = services.conditional_line_create(
            game_id=game.pk, user=request.user, expected_ply=data["ply"], moves=data["moves"]
        )
        return Response(s.ConditionalLineSerializer(line).data, status=status.HTTP_201_CREATED)


class ConditionalLineDetailApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Withdraw one of your conditional lines",
        responses={204: None, **_errors(401, 404)},
        tags=["conditional moves"],
    )
    def delete(self, request: Request, game_id: int, line_id: int) -> Response:
        game = selectors.game_get_visible(game_id=game_id, user=request.user)
        services.conditional_line_delete(game_id=game.pk, line_id=line_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- helpers ----------------------------------------------------------------------------------


def _valid(serializer_class: type, request: Request) -> dict[str, Any]:
    return dict(validated(serializer_class, request).validated_data)


def idempotent(request: Request, handle: Any) -> Response:
    """Run ``handle`` once per ``Idempotency-Key``; a repeat gets the first answer again.

    The answer is stored in the same transaction as the move, so it exists exactly when the
    move does. A racing repeat loses on the game lock, finds the stored answer and returns it.
    """
    key = request.headers.get("Idempotency-Key", "").strip()
    if not key:
        return handle()
    if len(key) > 100:
        raise DomainError("Idempotency-Key is longer than 100 characters.", code="invalid_key")
    fingerprint = hashlib.sha256(
        f"{request.method} {request.path} {json.dumps(request.data, sort_keys=True)}".encode()
    ).hexdigest()
    stored = _stored_answer(request, key, fingerprint)
    if stored is not None:
        return stored
    try:
        with transaction.atomic():
            response = handle()
            IdempotentRequest.objects.create(
                user=request.user,
                key=key,
                fingerprint=fingerprint,
                status_code=response.status_code,
                body=json.loads(json.dumps(response.data)),
            )
            return response
    except (DomainError, IntegrityError):
        stored = _stored_answer(request, key, fingerprint)
        if stored is not None:
            return stored
        raise


def _stored_answer(request: Request, key: str, fingerprint: str) -> Response | None:
    found = IdempotentRequest.objects.filter(user=request.user, key=key).first()
    if found is None:
        return None
    if found.fingerprint != fingerprint:
        raise DomainError(
            "This Idempotency-Key was already used for a different request; use a new key.",
            code="idempotency_key_reused",
        )
    response = Response(found.body, status=found.status_code)
    response["Idempotent-Replay"] = "true"
    return response


# --- Messages ---------------------------------------------------------------------------------


class GameMessageListCreateApi(ReadOpenWriteThrottledApi):
    """The messages of a game: read them (anyone who may see the game), or write one."""

    pagination_class = Pagination
    throttle_scope = "messages"

    @extend_schema(
        summary="List a game's messages, oldest first",
        description="The players' messages are readable by everyone who may see the game. "
        "A message hidden by a moderator keeps its place with `hidden: true` and `body: "
        "null`; moderators also see its body and `hidden_reason`.",
        responses={200: s.MessageOutputSerializer(many=True), **_errors(404)},
        tags=["messages"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        messages = selectors.message_list_readable(game_id=game_id, user=request.user)
        return _paginated(self, request, messages, s.MessageOutputSerializer)

    @extend_schema(
        summary="Write to your opponent",
        description="Players only, during or after the game. The body is 1 to 2000 "
        "characters; your opponent gets an email unless they switched message emails off. "
        "Limited to 20 messages an hour per user (setting `API_THROTTLE_MESSAGES`).",
        request=s.MessageInputSerializer,
        responses={201: s.MessageOutputSerializer, **_errors(400, 401, 403, 404)},
        tags=["messages"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        selectors.game_get_visible(game_id=game_id, user=request.user)
        data = _valid(s.MessageInputSerializer, request)
        message = services.message_post(game_id=game_id, author=request.user, body=data["body"])
        shown = selectors.message_get_readable(
            game_id=game_id, message_id=message.pk, user=request.user
        )
        return Response(s.MessageOutputSerializer(shown).data, status=status.HTTP_201_CREATED)


class GameMessageReportApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Report a message to the moderators",
        description="Anyone who may read the message, except its author, once per message.",
        request=s.MessageReportInputSerializer,
        responses={201: s.MessageReportOutputSerializer, **_errors(400, 401, 403, 404, 409)},
        tags=["messages"],
    )
    def post(self, request: Request, game_id: int, message_id: int) -> Response:
        data = _valid(s.MessageReportInputSerializer, request)
        report = services.message_report(
            game_id=game_id, message_id=message_id, reporter=request.user, reason=data["reason"]
        )
        return Response(
            s.MessageReportOutputSerializer(report).data, status=status.HTTP_201_CREATED
        )


class GameMessageHideApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Hide a message (moderators)",
        description="Staff with the `games.hide_gamemessage` permission. The reason goes "
        "to the audit log; the message's open reports are resolved.",
        request=s.MessageHideInputSerializer,
        responses={200: s.MessageOutputSerializer, **_errors(400, 401, 403, 404, 409)},
        tags=["messages"],
    )
    def post(self, request: Request, game_id: int, message_id: int) -> Response:
        data = _valid(s.MessageHideInputSerializer, request)
        services.message_hide(
            game_id=game_id, message_id=message_id, moderator=request.user, reason=data["reason"]
        )
        shown = selectors.message_get_readable(
            game_id=game_id, message_id=message_id, user=request.user
        )
        return Response(s.MessageOutputSerializer(shown).data)
