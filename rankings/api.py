"""The ranking API: the list, one player's history, and a CSV export. Public, read-only."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from celticsite.api import CursorPage, ErrorSerializer, query_flag
from celticsite.errors import NotFound
from rankings import selectors
from rankings.serializers import (
    PlayerDetailOutputSerializer,
    RankingEntryOutputSerializer,
    RankingFilterInputSerializer,
    RankingKindInputSerializer,
    rounded,
)

INVALID = OpenApiResponse(ErrorSerializer, description="A filter is invalid; see detail.")
NOT_FOUND = OpenApiResponse(ErrorSerializer, description="No such ranking player.")


def _filters(request: Request) -> dict[str, Any]:
    """The filters, read strictly: ``country=`` and ``kind=`` (blank) and ``active=1`` are
    refused rather than taken as left out or as true, as DRF's reading of a query string
    would; an unknown kind is refused naming the known ones."""
    params = request.query_params
    serializer = RankingFilterInputSerializer(
        data={name: params[name] for name in ("country", "kind") if name in params}
    )
    serializer.is_valid(raise_exception=True)
    return {
        "kind": serializer.validated_data["kind"],
        "country": serializer.validated_data.get("country", ""),
        "include_inactive": not query_flag(params, "active", default=True),
    }


def _kind(request: Request) -> str:
    """The ``kind`` parameter of a player's page, read as strictly as the list's."""
    params = request.query_params
    serializer = RankingKindInputSerializer(
        data={"kind": params["kind"]} if "kind" in params else {}
    )
    serializer.is_valid(raise_exception=True)
    return str(serializer.validated_data["kind"])


class RankingListApi(APIView):
    permission_classes = [AllowAny]
    pagination_class = CursorPage

    @extend_schema(
        operation_id="rankings_list",
        summary="The world ranking of one game kind",
        parameters=[RankingFilterInputSerializer],
        responses={200: RankingEntryOutputSerializer(many=True), 400: INVALID},
    )
    def get(self, request: Request) -> Response:
        rows = selectors.ranking_rows(**_filters(request))
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(rows, request, view=self) or []
        entries = [selectors.ranking_entry(row) for row in page]
        serializer = RankingEntryOutputSerializer(entries, many=True)
        return paginator.get_paginated_response(serializer.data)


class CsvRenderer(BaseRenderer):
    """Lets clients ask for text/csv; the CSV itself is written by the view. An error
    answer negotiated to text/csv carries the usual JSON error body."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None):  # type: ignore[no-untyped-def]
        return data.encode() if isinstance(data, str) else json.dumps(data).encode()


# What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(text: str) -> str:
    """``text`` as a spreadsheet shows it and never runs it: a cell that would start a
    formula gets a leading single quote, as OWASP advises (the csv module quotes the rest)."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


class RankingCsvApi(APIView):
    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer, CsvRenderer]

    @extend_schema(
        operation_id="rankings_export_csv",
        summary="The world ranking of one game kind as CSV",
        parameters=[RankingFilterInputSerializer],
        responses={
            (200, "text/csv"): OpenApiResponse(
                response=OpenApiTypes.STR,
                description=(
                    "Columns rank, previous_rank, name, country, rating, elo, glicko_rating, "
                    "glicko_rd, games, provisional, last_played; elo and glicko at full precision, "
                    "empty outside the Elo kinds (rating is then the Plackett-Luce rating)."
                ),
            ),
            400: INVALID,
        },
    )
    def get(self, request: Request) -> HttpResponse:
        if request.query_params.get("format") == "":  # DRF ignores it; the document does not
            raise ValidationError({"format": ["'' is not a format: expected csv or json."]})
        filters = _filters(request)
        entries = map(selectors.ranking_entry, selectors.ranking_rows(**filters))
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180: a CR in a name is quoted
        writer.writerow(
            [
                "rank", "previous_rank", "name", "country", "rating", "elo",
                "glicko_rating", "glicko_rd", "games", "provisional", "last_played",
            ]
        )  # fmt: skip
        for entry in entries:
            writer.writerow(
                [
                    "" if entry.rank is None else entry.rank,
                    "" if entry.previous_rank is None else entry.previous_rank,
                    spreadsheet_safe(entry.name),
                    spreadsheet_safe(entry.country),
                    rounded(entry.rating),
                    _full(entry.elo),
                    _full(entry.glicko_rating),
                    _full(entry.glicko_rd),
                    entry.games,
                    "yes" if entry.provisional else "no",
                    entry.last_played.isoformat(),
                ]
            )
        response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
        name = f"{filters['kind']}-ranking.csv"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response


def _full(value: float | None) -> str:
    """A rating at full precision for the CSV; empty when the kind has none."""
    return "" if value is None else repr(value)


class PlayerDetailApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="rankings_player",
        summary="A ranking player: current ratings, rated games and tournaments in one kind",
        parameters=[RankingKindInputSerializer],
        responses={200: PlayerDetailOutputSerializer, 400: INVALID, 404: NOT_FOUND},
    )
    def get(self, request: Request, player_id: int) -> Response:
        kind = _kind(request)
        player = selectors.player_get(player_id=player_id)
        if player is None:
            raise NotFound("No such ranking player.")
        history = selectors.player_history(player=player, kind=kind)
        data = {
            "player": player,
            "kind": kind,
            "ranking": selectors.player_entry(player=player, kind=kind),
            "history": history,
            "tournaments": selectors.player_tournaments(history=history),
        }
        return Response(PlayerDetailOutputSerializer(data).data)
