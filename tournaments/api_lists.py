"""REST API of an event's long lists, a page at a time: its entries and its games (the
detail lists only the first of them: ``tournaments.listing``). Readable by whoever may see
the event; a private one is a 404 to outsiders, as its detail."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from celticsite.api import Pagination, error_responses
from celticsite.permissions import ReadOpenWriteLoggedIn
from tournaments import errors, listing, selectors
from tournaments import serializers as s
from tournaments.models import Tournament

TAGS = ["tournaments"]
_errors = error_responses(
    not_found="No such tournament (or not visible).", conflict="Not in this state."
)


class ListPagination(Pagination):
    """100 a page (``page_size`` 1 to 100)."""

    page_size = 100


def _visible(request: Request, tournament_id: int) -> Tournament:
    return selectors.tournament_get_visible(tournament_id=tournament_id, user=request.user)


class TournamentEntriesApi(APIView):
    permission_classes = [ReadOpenWriteLoggedIn]
    pagination_class = ListPagination

    @extend_schema(
        operation_id="tournaments_entries",
        summary="Every entry of a tournament, a page at a time",
        description="Seeded players in seed order, then the rest by registration, in "
        "numbered pages of 100 (`page`, `page_size` 1 to 100; a page past the end is a 404).",
        responses={200: s.EntryOutputSerializer(many=True), **_errors(400, 404)},
        tags=TAGS,
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _visible(request, tournament_id)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(
            selectors.tournament_entries(tournament=tournament), request, view=self
        )
        return paginator.get_paginated_response(s.EntryOutputSerializer(page, many=True).data)


class TournamentGamesApi(APIView):
    permission_classes = [ReadOpenWriteLoggedIn]
    pagination_class = ListPagination

    @extend_schema(
        operation_id="tournaments_games",
        summary="The games of a tournament (or of one round), a page at a time",
        description="By round, section and board, in numbered pages of 100 (`page`, "
        "`page_size` 1 to 100; a page past the end is a 404). `round=N`: only round N's "
        "(a 404 if the event has no round N).",
        parameters=[
            OpenApiParameter(
                "round", {"type": "integer", "minimum": 1}, description="A round's number."
            )
        ],
        responses={200: s.TournamentGameListedSerializer(many=True), **_errors(400, 404)},
        tags=TAGS,
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _visible(request, tournament_id)
        number = _round_number(request)
        if number is not None and not listing.round_exists(
            tournament=tournament, round_number=number
        ):
            raise errors.TournamentGameNotFound(
                f"{tournament} has no round {number}.", code="round_not_found"
            )
        games = listing.tournament_games(tournament=tournament, round_number=number)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(games, request, view=self)
        return paginator.get_paginated_response(
            s.TournamentGameListedSerializer(page, many=True).data
        )


def _round_number(request: Request) -> int | None:
    """``?round=N``: a whole number from 1 (else 400); None when left out."""
    raw = request.query_params.get("round")
    if raw is None:
        return None
    if not raw.isdigit() or int(raw) < 1:
        raise exceptions.ValidationError(
            {"round": [f"{raw[:20]!r} is not a round number: expected a whole number from 1."]}
        )
    return int(raw)
