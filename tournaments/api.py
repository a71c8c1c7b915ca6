"""REST API of tournaments: one view per operation, every answer in the OpenAPI document.

Reading: anyone may see public events; a private one is a 404 to outsiders. Writing needs a
login. Running an event (settings, entries, rounds, results) needs its organiser holding the
organiser permission, a superuser, or staff holding the action's own permission
(``selectors.tournament_can_manage``); the services then apply their own checks and rules.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.contrib.auth import get_user_model
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from celticsite.api import Pagination, error_responses, query_flag, validated
from celticsite.errors import DomainError
from celticsite.permissions import ReadOpenWriteLoggedIn
from tournaments import errors, listing, pages, selectors, services, tables
from tournaments import serializers as s
from tournaments.models import Tournament
from tournaments.trf import TrfError, format_trf, parse_trf

TAGS = ["tournaments"]
_errors = error_responses(
    not_found="No such tournament (or not visible).",
    conflict="Not in this state of the event.",
)
LIST_FILTERS = {
    "open": selectors.tournament_list_open,
    "running": selectors.tournament_list_running,
    "finished": selectors.tournament_list_finished,
}


def _visible(request: Request, tournament_id: int) -> Tournament:
    return selectors.tournament_get_visible(tournament_id=tournament_id, user=request.user)


def _managed(
    request: Request, tournament_id: int, *, permission: str = selectors.ORGANISE
) -> Tournament:
    """The tournament, if the user may see it (else 404) and run it (else 403)."""
    return selectors.tournament_get_managed(
        tournament_id=tournament_id, user=request.user, permission=permission
    )


def _detail(request: Request, tournament_id: int) -> dict[str, Any]:
    tournament = _visible(request, tournament_id)
    tournament.entry_count = tournament.entries.count()  # type: ignore[attr-defined]
    tournament.entry_list = listing.detail_entries(tournament=tournament)  # type: ignore[attr-defined]
    tournament.round_list = listing.detail_rounds(tournament=tournament)  # type: ignore[attr-defined]
    can_manage = selectors.tournament_can_manage(tournament=tournament, user=request.user)
    return s.TournamentDetailSerializer(tournament, context={"can_manage": can_manage}).data


class LoggedInApi(APIView):
    permission_classes = [permissions.IsAuthenticated]


# --- Lists, reading ---------------------------------------------------------------------------


class TournamentListCreateApi(APIView):
    pagination_class = Pagination
    permission_classes = [ReadOpenWriteLoggedIn]

    @extend_schema(
        operation_id="tournaments_list",
        summary="List tournaments",
        description="`status=open`: taking registrations now, soonest to close first; "
        "`running`; `finished`. Without it: every event you may see (your own drafts too). "
        "League divisions (round robins with a `league_division`) are listed too unless "
        "`league_division=false`; `league_division=true` lists only them.",
        parameters=[
            OpenApiParameter("status", str, enum=list(LIST_FILTERS)),
            OpenApiParameter(
                "league_division",
                bool,
                description="false: only tournaments of their own; true: only league "
                "divisions; left out: both.",
            ),
        ],
        responses={200: s.TournamentSummarySerializer(many=True), **_errors(400)},
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        wanted = request.query_params.get("status")  # given empty is no value either
        if wanted is not None and wanted not in LIST_FILTERS:
            raise DomainError(
                f"status {wanted!r} is not one of {', '.join(LIST_FILTERS)}.",
                code="invalid_status",
            )
        division = _league_division_filter(request)
        select = LIST_FILTERS[wanted] if wanted else selectors.tournament_list
        rows = select(user=request.user, league_division=division)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(rows, request, view=self)
        return paginator.get_paginated_response(s.TournamentSummarySerializer(page, many=True).data)

    @extend_schema(
        operation_id="tournaments_create",
        summary="Create a tournament (organisers)",
        description="Users with the organiser permission. The event starts as a draft: "
        "publish it with `open-registration`. Bad settings get 400 `invalid_settings` with "
        "`errors` naming each field and what it allows (a number outside the `minimum` and "
        "`maximum` stated here, another format's setting, rounds on dates ending after "
        "`ends_at`).",
        request=s.TournamentSettingsInputSerializer,
        responses={201: s.TournamentDetailSerializer, **_errors(400, 401, 403)},
        tags=TAGS,
    )
    def post(self, request: Request) -> Response:
        data = validated(s.TournamentSettingsInputSerializer, request).service_kwargs()
        name = data.pop("name", "")
        tournament = services.tournament_create(organiser=request.user, name=name, **data)
        return Response(_detail(request, tournament.pk), status=status.HTTP_201_CREATED)


def _league_division_filter(request: Request) -> bool | None:
    """``?league_division=``: true or false (else 400 ``invalid_flag``); None when absent."""
    if "league_division" not in request.query_params:
        return None
    return query_flag(request.query_params, "league_division")


class TournamentDetailApi(APIView):
    permission_classes = [ReadOpenWriteLoggedIn]

    @extend_schema(
        operation_id="tournaments_detail",
        summary="A tournament: rules, its first entries, rounds with the first games",
        description="Bounded for large events: `entries` holds the first 200 entries "
        "(`entry_count` all of them; every one at `entries/`), and the rounds list their "
        "games while the total stays within 200 (`games_listed`, `game_count`; every game at "
        "`games/?round=N`).",
        responses={200: s.TournamentDetailSerializer, **_errors(404)},
        tags=TAGS,
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(_detail(request, tournament_id))

    @extend_schema(
        operation_id="tournaments_update",
        summary="Change settings before the start (organiser)",
        request=s.TournamentSettingsInputSerializer,
        responses={200: s.TournamentDetailSerializer, **_errors(400, 401, 403, 404, 409)},
        tags=TAGS,
    )
    def patch(self, request: Request, tournament_id: int) -> Response:
        tournament = _managed(request, tournament_id)
        data = validated(s.TournamentSettingsInputSerializer, request, partial=True)
        services.tournament_update(
            tournament_id=tournament.pk, actor=request.user, **data.service_kwargs()
        )
        return Response(_detail(request, tournament_id))


class StandingsPagination(Pagination):
    """Standings rows, 100 a page (``page_size`` 1 to 100)."""

    page_size = pages.STANDINGS_PER_PAGE


class TournamentStandingsApi(APIView):
    permission_classes = [permissions.AllowAny]
    pagination_class = StandingsPagination

    @extend_schema(
        operation_id="tournaments_standings",
        summary="Standings with tie-breaks and the places each player can still reach",
        description="Rows best first within each section (sections in order), in numbered "
        "pages of 100 rows (`page`, `page_size` 1 to 100; `count` is the number of rows; a "
        "page past the end is a 404). A knockout ranks by the round a player went out in "
        "and has no possible places (null). A finished event's places are those of its "
        "final scores (`places_exact` true).",
        parameters=[
            OpenApiParameter(
                "page", {"type": "integer", "minimum": 1}, description="A page number, from 1."
            ),
            OpenApiParameter(
                "page_size",
                {"type": "integer", "minimum": 1, "maximum": 100},
                description="Rows a page, 1 to 100 (default 100).",
            ),
        ],
        responses={200: s.StandingsOutputSerializer, **_errors(400, 404)},
        tags=TAGS,
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _visible(request, tournament_id)
        standings, lines = selectors.tournament_standings_with_places(tournament=tournament)
        paginator = StandingsPagination()
        page = paginator.paginate_queryset(lines, request, view=self) or []
        body = {
            "count": len(lines),
            "next": paginator.get_next_link(),
            "previous": paginator.get_previous_link(),
            "tiebreaks": list(standings.tiebreaks),
            "edition": standings.edition,
            "rows": [standings_row(line) for line in page],
        }
        return Response(s.StandingsOutputSerializer(body).data)


def standings_row(line: Any) -> dict[str, Any]:
    """A standings line as the API shows it (the pages read the same)."""
    places = line.places
    return {
        "section": line.section,
        "rank": line.rank,
        "place": line.place,
        "stage": line.stage,
        "entry_id": line.entry_id,
        "number": line.number,
        "name": line.name,
        "username": line.player.get_username() if line.player is not None else None,
        "points": s.number(line.points),
        "tiebreaks": {code: s.number(value) for code, value in line.tiebreaks.items()},
        "withdrawn": line.withdrawn,
        "best_place": places.best if places else None,
        "worst_place": places.worst if places else None,
        "clinched": bool(places and places.clinched),
        "eliminated": bool(places and places.eliminated),
        "places_exact": bool(places and places.exact),
    }


def _refuse_large_sections(tournament: Tournament, most: int, table: str) -> None:
    """409 ``<table>_too_large`` if a section has more than ``most`` players."""
    largest = pages.largest_section(tournament=tournament)
    if largest > most:
        raise errors.WrongStatus(
            f"A section has {largest} players: a {table} is given for sections of up to "
            f"{most}. The standings and the TRF file hold every result.",
            code=f"{table.replace(' ', '_')}_too_large",
        )


class TournamentCrosstableApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="tournaments_crosstable",
        summary="Crosstables, one per section",
        description="For sections of up to 40 players (one column a player): a larger "
        "section is a 409 `crosstable_too_large` (the standings and the TRF file hold every "
        "result).",
        responses={200: s.CrosstableOutputSerializer(many=True), **_errors(404, 409)},
        tags=TAGS,
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _visible(request, tournament_id)
        _refuse_large_sections(tournament, pages.CROSSTABLE_MAX_PLAYERS, "crosstable")
        tables = selectors.tournament_crosstables(tournament=tournament)
        body = [
            {
                "section": table.section,
                "rows": [
                    {
                        "number": row.number,
                        "name": row.name,
                        "entry_id": row.entry_id,
                        "cells": row.cells,
                        "byes": row.byes,
                        "points": s.number(row.points),
                    }
                    for row in table.rows
                ],
            }
            for table in tables
        ]
        return Response(s.CrosstableOutputSerializer(body, many=True).data)


class TournamentRoundTableApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="tournaments_round_table",
        summary="Round tables (wall charts), one per section",
        description="For every player, in standings order, and every round started: the "
        "opponent's number, the colour and the result, byes and forfeits marked. Empty for a "
        "knockout (see the bracket) and before the start. For sections of up to 100 players: "
        "a larger section is a 409 `round_table_too_large` (the standings and the TRF file "
        "hold every result).",
        responses={200: s.RoundTableOutputSerializer(many=True), **_errors(404, 409)},
        tags=TAGS,
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _visible(request, tournament_id)
        _refuse_large_sections(tournament, pages.ROUND_TABLE_MAX_PLAYERS, "round table")
        started = tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED)
        round_tables = tables.tournament_round_tables(tournament=tournament) if started else []
        body = [
            {
                "section": table.section,
                "rounds": table.rounds,
                "rows": [_round_table_row(row) for row in table.rows],
            }
            for table in round_tables
        ]
        return Response(s.RoundTableOutputSerializer(body, many=True).data)


def _round_table_row(row: tables.RoundTableRow) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "number": row.number,
        "entry_id": row.entry_id,
        "name": row.name,
        "username": _username(row.player),
        "withdrawn": row.withdrawn,
        "points": s.number(row.points),
        "cells": [
            {
                "round": cell.round,
                "opponent": cell.opponent,
                "colour": cell.colour,
                "mark": cell.mark,
                "points": s.number(cell.points),
                "pending": cell.pending,
                "game_id": cell.game_id,
            }
            for cell in row.cells
        ],
    }


class TournamentBracketApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="tournaments_bracket",
        summary="The bracket of a knockout, round by round",
        description="Every match with both players, their scores in the match, the winner, "
        "the games and byes; rounds not paired yet show whose winners meet. Empty for other "
        "formats and before the start.",
        responses={200: s.BracketRoundSerializer(many=True), **_errors(404)},
        tags=TAGS,
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _visible(request, tournament_id)
        body = [
            {
                "number": rnd.number,
                "name": rnd.name,
                "matches": [
                    {
                        "number": match.number,
                        "top": _bracket_side(match.top),
                        "bottom": _bracket_side(match.bottom),
                        "decided_by": match.decided_by,
                        "games": [asdict(game) for game in match.games],
                    }
                    for match in rnd.matches
                ],
            }
            for rnd in tables.tournament_bracket(tournament=tournament)
        ]
        return Response(s.BracketRoundSerializer(body, many=True).data)


def _bracket_side(side: tables.BracketSide | None) -> dict[str, Any] | None:
    if side is None:
        return None
    return {
        "entry_id": side.entry_id,
        "name": side.name,
        "username": _username(side.player),
        "seed": side.seed,
        "score": s.number(side.score),
        "winner": side.winner,
        "from_match": side.from_match,
    }


def _username(player: Any) -> str | None:
    return player.get_username() if player is not None else None


class TournamentTrfExportApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="tournaments_trf_export",
        summary="Download the event as a FIDE TRF file",
        description="Round robin and Swiss events once started; a knockout gets 409.",
        responses={
            (200, "text/plain"): OpenApiResponse(OpenApiTypes.STR, description="The TRF file."),
            **_errors(404, 409),
        },
        tags=TAGS,
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponse:
        tournament = _visible(request, tournament_id)
        text = format_trf(selectors.tournament_trf(tournament=tournament))
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}.trf"'
        return response


class TournamentTrfImportApi(LoggedInApi):
    @extend_schema(
        operation_id="tournaments_trf_import",
        summary="Import a finished event from a TRF file (organisers)",
        description="A file that does not parse gets 400 `trf_invalid` naming the line; one "
        "with no player line (001), blank for instance, gets 400 `trf_invalid` too.",
        request=s.TrfImportInputSerializer,
        responses={201: s.TournamentDetailSerializer, **_errors(400, 401, 403)},
        tags=TAGS,
    )
    def post(self, request: Request) -> Response:
        if not request.user.has_perm(selectors.ORGANISE):
            raise errors.NotOrganiser(
                "You need the organiser permission to import tournaments.",
                code="organiser_permission_required",
            )
        data = validated(s.TrfImportInputSerializer, request).validated_data
        try:
            trf = parse_trf(data["trf"])
        except TrfError as exc:
            raise errors.InvalidSettings(
                f"The TRF file is invalid: {exc}", code="trf_invalid"
            ) from None
        tournament = services.tournament_import_trf(
            trf=trf, organiser=request.user, name=data["name"]
        )
        return Response(_detail(request, tournament.pk), status=status.HTTP_201_CREATED)


# --- Players ----------------------------------------------------------------------------------


class TournamentRegisterApi(LoggedInApi):
    @extend_schema(
        operation_id="tournaments_register",
        summary="Register (or accept an invitation)",
        description="Refusals are 403 with the rule as `code`: registration_not_open, "
        "registration_closed, invitation_required, entry_code_wrong, rating_too_low, "
        "rating_too_high, too_few_finished_games, too_many_running_games, tournament_full, "
        "late_entry_closed (a running Swiss past its last round for late entries); "
        "409 already_registered.",
        request=s.RegisterInputSerializer,
        responses={201: s.EntryOutputSerializer, **_errors(400, 401, 403, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = _visible(request, tournament_id)
        data = validated(s.RegisterInputSerializer, request).validated_data
        entry = services.tournament_register(
            tournament_id=tournament.pk, user=request.user, entry_code=data["entry_code"]
        )
        return Response(s.EntryOutputSerializer(entry).data, status=status.HTTP_201_CREATED)


class TournamentWithdrawApi(LoggedInApi):
    @extend_schema(
        operation_id="tournaments_withdraw",
        summary="Leave the event",
        description="Before the start your registration is cancelled; once running you "
        "withdraw under the event's withdrawal policy (your running games are resigned).",
        request=None,
        responses={200: s.TournamentDetailSerializer, **_errors(401, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = _visible(request, tournament_id)
        if tournament.status == Tournament.Status.RUNNING:
            services.entry_withdraw(tournament_id=tournament.pk, user=request.user)
        else:
            services.registration_cancel(tournament_id=tournament.pk, user=request.user)
        return Response(_detail(request, tournament_id))


# --- Organisers -------------------------------------------------------------------------------


class TournamentOpenRegistrationApi(LoggedInApi):
    @extend_schema(
        operation_id="tournaments_open_registration",
        summary="Publish a draft: registration opens (organiser)",
        request=None,
        responses={200: s.TournamentDetailSerializer, **_errors(400, 401, 403, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = _managed(request, tournament_id)
        services.tournament_registration_open(tournament_id=tournament.pk, actor=request.user)
        return Response(_detail(request, tournament_id))


class TournamentStartApi(LoggedInApi):
    @extend_schema(
        operation_id="tournaments_start",
        summary="Start the event now: seeds, rounds, the first games (organiser)",
        description="Answers at once: round 1 is then `pairing` while a task pairs it and "
        "starts its games (a large round robin's may take some seconds); its status turns "
        "`running` when they are on.",
        request=None,
        responses={200: s.TournamentDetailSerializer, **_errors(401, 403, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = _managed(request, tournament_id)
        services.tournament_start(tournament_id=tournament.pk, actor=request.user)
        return Response(_detail(request, tournament_id))


class TournamentCancelApi(LoggedInApi):
    @extend_schema(
        operation_id="tournaments_cancel",
        summary="Call the event off (organiser); running games are annulled",
        request=s.ReasonInputSerializer,
        responses={200: s.TournamentDetailSerializer, **_errors(400, 401, 403, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = _managed(request, tournament_id)
        data = validated(s.ReasonInputSerializer, request).validated_data
        services.tournament_cancel(
            tournament_id=tournament.pk, actor=request.user, reason=data["reason"]
        )
        return Response(_detail(request, tournament_id))


class TournamentInviteApi(LoggedInApi):
    @extend_schema(
        operation_id="tournaments_invite",
        summary="Invite a player (organiser); they accept by registering",
        request=s.InviteInputSerializer,
        responses={201: s.EntryOutputSerializer, **_errors(400, 401, 403, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = _managed(request, tournament_id, permission=selectors.MANAGE_ENTRIES)
        username = validated(s.InviteInputSerializer, request).validated_data["username"]
        user = get_user_model().objects.filter(username__iexact=username).first()
        if user is None:
            raise errors.EntryNotFound(f"There is no player called {username!r}.", code="no_user")
        entry = services.entry_invite(tournament_id=tournament.pk, actor=request.user, user=user)
        return Response(s.EntryOutputSerializer(entry).data, status=status.HTTP_201_CREATED)


class EntryApproveApi(LoggedInApi):
    @extend_schema(
        operation_id="tournaments_entry_approve",
        summary="Accept a pending entry (organiser)",
        request=None,
        responses={200: s.EntryOutputSerializer, **_errors(401, 403, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        tournament = _managed(request, tournament_id, permission=selectors.MANAGE_ENTRIES)
        selectors.tournament_entry_in(tournament=tournament, entry_id=entry_id)
        entry = services.entry_approve(entry_id=entry_id, actor=request.user)
        return Response(s.EntryOutputSerializer(entry).data)


class EntryDeclineApi(LoggedInApi):
    @extend_schema(
        operation_id="tournaments_entry_decline",
        summary="Turn down a pending entry (organiser)",
        request=None,
        responses={200: s.EntryOutputSerializer, **_errors(401, 403, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        tournament = _managed(request, tournament_id, permission=selectors.MANAGE_ENTRIES)
        selectors.tournament_entry_in(tournament=tournament, entry_id=entry_id)
        entry = services.entry_decline(entry_id=entry_id, actor=request.user)
        return Response(s.EntryOutputSerializer(entry).data)


class EntryRemoveApi(LoggedInApi):
    @extend_schema(
        operation_id="tournaments_entry_remove",
        summary="Remove a player, with a reason (organiser)",
        description="Once running it counts as a withdrawal under the event's policy. "
        "The reason goes to the audit log.",
        request=s.ReasonInputSerializer,
        responses={200: s.EntryOutputSerializer, **_errors(400, 401, 403, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        tournament = _managed(request, tournament_id, permission=selectors.MANAGE_ENTRIES)
        selectors.tournament_entry_in(tournament=tournament, entry_id=entry_id)
        reason = validated(s.ReasonInputSerializer, request).validated_data["reason"]
        entry = services.entry_remove(entry_id=entry_id, actor=request.user, reason=reason)
        return Response(s.EntryOutputSerializer(entry).data)


class RoundPairManuallyApi(LoggedInApi):
    @extend_schema(
        operation_id="tournaments_pair_manually",
        summary="Pair the next round by hand and start it (organiser)",
        description="Round robin and Swiss events of one section. Every active player must "
        "be paired once (409 manual_pairing_invalid names who is not).",
        request=s.ManualPairingInputSerializer,
        responses={201: s.RoundOutputSerializer, **_errors(400, 401, 403, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = _managed(request, tournament_id, permission=selectors.MANAGE_ENTRIES)
        data = validated(s.ManualPairingInputSerializer, request).validated_data
        rnd = services.round_pair_manually(
            tournament_id=tournament.pk,
            actor=request.user,
            pairs=[(orange, blue) for orange, blue in data["pairs"]],
            byes=data["byes"],
            reason=data["reason"],
        )
        shown = selectors.tournament_rounds(tournament=tournament).get(pk=rnd.pk)
        return Response(s.RoundOutputSerializer(shown).data, status=status.HTTP_201_CREATED)


class ByeRequestApi(LoggedInApi):
    @extend_schema(
        operation_id="tournaments_bye_request",
        summary="Ask for a half-point bye in a Swiss round not paired yet",
        description="Up to the event's half_point_byes_max per player (409 "
        "bye_limit_reached); only before the round is paired (409 round_paired).",
        request=s.ByeRequestInputSerializer,
        responses={201: s.ByeEnteredSerializer, **_errors(400, 401, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = _visible(request, tournament_id)
        data = validated(s.ByeRequestInputSerializer, request).validated_data
        bye = services.bye_request(
            tournament_id=tournament.pk, user=request.user, round_number=data["round"]
        )
        return Response(s.ByeEnteredSerializer(bye).data, status=status.HTTP_201_CREATED)


class ByeCancelApi(LoggedInApi):
    @extend_schema(
        operation_id="tournaments_bye_cancel",
        summary="Take back your half-point bye for a round not paired yet",
        request=None,
        responses={204: None, **_errors(401, 404, 409)},
        tags=TAGS,
    )
    def delete(self, request: Request, tournament_id: int, round_number: int) -> Response:
        tournament = _visible(request, tournament_id)
        services.bye_request_cancel(
            tournament_id=tournament.pk, user=request.user, round_number=round_number
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class EntryByeApi(LoggedInApi):
    @extend_schema(
        operation_id="tournaments_entry_bye",
        summary="Enter a bye or an absence for a Swiss round not paired yet (organiser)",
        description="Z: absent (not answering), no points; H: half a point (outside the "
        "players' limit); F: a full point. The player is not paired that round. Audited.",
        request=s.ByeEnterInputSerializer,
        responses={201: s.ByeEnteredSerializer, **_errors(400, 401, 403, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        tournament = _managed(request, tournament_id, permission=selectors.MANAGE_ENTRIES)
        selectors.tournament_entry_in(tournament=tournament, entry_id=entry_id)
        data = validated(s.ByeEnterInputSerializer, request).validated_data
        bye = services.bye_enter(
            tournament_id=tournament.pk,
            actor=request.user,
            entry_id=entry_id,
            kind=data["kind"],
            reason=data["reason"],
            round_number=data["round"],
        )
        return Response(s.ByeEnteredSerializer(bye).data, status=status.HTTP_201_CREATED)


class ForbiddenPairsApi(LoggedInApi):
    @extend_schema(
        operation_id="tournaments_forbidden_pairs",
        summary="Set the pairs who must never meet in a Swiss (organiser)",
        description="Entry ids, e.g. players of the same club or family; replaces the "
        "list. Rounds paired afterwards honour it. Once running a reason is required.",
        request=s.ForbiddenPairsInputSerializer,
        responses={200: s.ForbiddenPairsOutputSerializer, **_errors(400, 401, 403, 404, 409)},
        tags=TAGS,
    )
    def put(self, request: Request, tournament_id: int) -> Response:
        tournament = _managed(request, tournament_id, permission=selectors.MANAGE_ENTRIES)
        data = validated(s.ForbiddenPairsInputSerializer, request).validated_data
        tournament = services.forbidden_pairs_set(
            tournament_id=tournament.pk,
            actor=request.user,
            pairs=[(a, b) for a, b in data["pairs"]],
            reason=data["reason"],
        )
        return Response({"forbidden_pairs": tournament.forbidden_pairs})


def _game_result(
    request: Request,
    tournament_id: int,
    tournament_game_id: int,
    service: Any,
    serializer_class: type[serializers.Serializer],
) -> Response:
    """Adjudicate or fix the result of one pairing of the tournament, with a reason."""
    tournament = _managed(request, tournament_id, permission=selectors.ADJUDICATE)
    selectors.tournament_game_in(tournament=tournament, tournament_game_id=tournament_game_id)
    data = validated(serializer_class, request).validated_data
    link = service(
        tournament_game_id=tournament_game_id,
        actor=request.user,
        result=data["result"],
        reason=data["reason"],
    )
    return Response(s.TournamentGameOutputSerializer(link).data)


class GameAdjudicateApi(LoggedInApi):
    @extend_schema(
        operation_id="tournaments_game_adjudicate",
        summary="Decide a running game (organiser), usually one past its deadline",
        description="`result` is 1-0, 0-1 or 1/2-1/2; the game ends adjudicated.",
        request=s.AdjudicationInputSerializer,
        responses={200: s.TournamentGameOutputSerializer, **_errors(400, 401, 403, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, tournament_id: int, tournament_game_id: int) -> Response:
        return _game_result(
            request,
            tournament_id,
            tournament_game_id,
            services.tournament_game_adjudicate,
            s.AdjudicationInputSerializer,
        )


class GameResultFixApi(LoggedInApi):
    @extend_schema(
        operation_id="tournaments_game_fix_result",
        summary="Set how a pairing counts in the event (organiser)",
        description="Any result (a forfeit, a cancellation …) whatever the game says; "
        "also after the event finished (the final standings are stored again).",
        request=s.ResultInputSerializer,
        responses={200: s.TournamentGameOutputSerializer, **_errors(400, 401, 403, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, tournament_id: int, tournament_game_id: int) -> Response:
        return _game_result(
            request,
            tournament_id,
            tournament_game_id,
            services.tournament_result_fix,
            s.ResultInputSerializer,
        )


class MatchDecideApi(LoggedInApi):
    @extend_schema(
        operation_id="tournaments_match_decide",
        summary="Decide a tied knockout match (organiser)",
        request=s.MatchDecideInputSerializer,
        responses={200: s.MatchOutputSerializer, **_errors(400, 401, 403, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Request, tournament_id: int, match_id: int) -> Response:
        tournament = _managed(request, tournament_id, permission=selectors.ADJUDICATE)
        selectors.tournament_match_in(tournament=tournament, match_id=match_id)
        data = validated(s.MatchDecideInputSerializer, request).validated_data
        match = services.knockout_match_decide(
            match_id=match_id,
            actor=request.user,
            winner_entry_id=data["winner_entry_id"],
            reason=data["reason"],
        )
        return Response(s.MatchOutputSerializer(match).data)
