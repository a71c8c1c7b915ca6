"""Rows for the tournaments app: events are read by anyone, run by their organiser (here a
user who holds no role: ``orga`` of the world's events) or a superuser.

No role organises an event or holds a tournaments permission, so every action that runs an
event is the superuser's alone; staff and moderators get 403 (404 where they cannot see a
draft). ``tests/tournaments/test_api_permissions.py`` covers the organiser, another
organiser and the arbiter (staff holding the tournaments permissions) at the API;
``COMPETITION_ROWS`` cover them at the screens: the manage page, a result entered there, and
the admin lists the arbiter's actions are on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from django.contrib.auth.models import Permission, User
from django.urls import reverse

from tests.accounts.factories import make_user
from tests.security.matrix import (
    ANONYMOUS,
    ARBITER,
    COMPETITION_ROLES,
    LAPSED_ORGANISER,
    NOBODY,
    ORGANISER,
    OTHER_ORGANISER,
    PLAYER,
    STAFF,
    SUPERUSER,
    SUPERUSERS,
    AdminRow,
    ApiRow,
    CompetitionRow,
    delete_row,
    expect,
)
from tests.security.matrix.world import World
from tournaments.models import Bye, Entry, KnockoutMatch, Tournament, TournamentGame

V1 = "/api/v1/tournaments"
EVENT = f"{V1}/{{tournament_id}}"
TRF_FILE = Path(__file__).parents[2] / "tournaments" / "trf" / "data" / "celtic_open.trf"

OPEN_TO_ALL = expect(200)
LOGGED_IN = {"anonymous": 401}
ORGANISERS_ONLY = expect(403, **LOGGED_IN, superuser=200)  # the superuser, as no role organises
REASON_BODY = {"reason": "Matrix"}


def _event(world: World, name: str) -> Tournament:
    return world.targets[f"t_{name}"]


def _ids(name: str, **more: Callable[[World], Any]) -> Callable[[World], Mapping[str, Any]]:
    """The URL values for the world's event ``name`` (``t_open`` …), with ``more`` of them."""
    return lambda world: {
        "tournament_id": _event(world, name).pk,
        **{key: value(world) for key, value in more.items()},
    }


def _pending_entry(world: World) -> Entry:
    return _event(world, "approval").entries.get()


def _entrant(world: World) -> Entry:
    return _event(world, "running").entries.get(player__username="entrant1")


def _running_game(world: World) -> TournamentGame:
    return _event(world, "running").games.order_by("board").first()


def _decided_game(world: World) -> TournamentGame:
    return _event(world, "dates").games.order_by("board").first()


def _match(world: World) -> KnockoutMatch:
    return KnockoutMatch.objects.filter(round__tournament=_event(world, "knockout")).first()


def _round_two(world: World) -> dict[str, Any]:
    seeds = list(_event(world, "dates").entries.order_by("seed").values_list("pk", flat=True))
    return {**REASON_BODY, "pairs": [[seeds[0], seeds[3]], [seeds[2], seeds[1]]]}


API_ROWS = [
    # --- reading: the world's events are public ---
    ApiRow("GET", f"{V1}/", OPEN_TO_ALL),
    ApiRow("GET", f"{EVENT}/", OPEN_TO_ALL, ids=_ids("open")),
    # Its long lists a page at a time: hidden like the detail (a draft: its organiser,
    # superusers and staff holding tournaments permissions).
    ApiRow("GET", f"{EVENT}/entries/", expect(404, superuser=200), ids=_ids("draft")),
    ApiRow("GET", f"{EVENT}/games/", OPEN_TO_ALL, ids=_ids("running"), query={"round": "1"}),
    ApiRow("GET", f"{EVENT}/standings/", OPEN_TO_ALL, ids=_ids("running")),
    ApiRow("GET", f"{EVENT}/crosstable/", OPEN_TO_ALL, ids=_ids("running")),
    ApiRow("GET", f"{EVENT}/rounds-table/", OPEN_TO_ALL, ids=_ids("running")),
    ApiRow("GET", f"{EVENT}/bracket/", OPEN_TO_ALL, ids=_ids("knockout")),
    ApiRow("GET", f"{EVENT}/trf/", OPEN_TO_ALL, ids=_ids("running")),
    # --- organisers: creating needs the organiser permission ---
    ApiRow("POST", f"{V1}/", expect(403, **LOGGED_IN, superuser=201), body={"name": "New"}),
    ApiRow(
        "POST",
        f"{V1}/import-trf/",
        expect(403, **LOGGED_IN, superuser=201),
        body=lambda world: {"trf": TRF_FILE.read_text(), "name": ""},
    ),
    ApiRow("PATCH", f"{EVENT}/", ORGANISERS_ONLY, body={"description": "x"}, ids=_ids("open")),
    # A draft is seen by its organiser, superusers and staff holding tournaments permissions.
    ApiRow(
        "POST",
        f"{EVENT}/open-registration/",
        expect(404, **LOGGED_IN, superuser=200),
        ids=_ids("draft"),
    ),
    ApiRow("POST", f"{EVENT}/start/", ORGANISERS_ONLY, ids=_ids("open")),
    ApiRow("POST", f"{EVENT}/cancel/", ORGANISERS_ONLY, body=REASON_BODY, ids=_ids("open")),
    ApiRow(
        "POST",
        f"{EVENT}/invite/",
        expect(403, **LOGGED_IN, superuser=201),
        body={"username": "guest"},
        ids=_ids("open"),
    ),
    ApiRow(
        "POST",
        f"{EVENT}/entries/{{entry_id}}/approve/",
        ORGANISERS_ONLY,
        ids=_ids("approval", entry_id=lambda world: _pending_entry(world).pk),
    ),
    ApiRow(
        "POST",
        f"{EVENT}/entries/{{entry_id}}/decline/",
        ORGANISERS_ONLY,
        ids=_ids("approval", entry_id=lambda world: _pending_entry(world).pk),
    ),
    ApiRow(
        "POST",
        f"{EVENT}/entries/{{entry_id}}/remove/",
        ORGANISERS_ONLY,
        body=REASON_BODY,
        ids=_ids("running", entry_id=lambda world: _entrant(world).pk),
    ),
    ApiRow(
        "POST",
        f"{EVENT}/pairings/",
        expect(403, **LOGGED_IN, superuser=201),
        body=_round_two,
        ids=_ids("dates"),
    ),
    ApiRow(
        "POST",
        f"{EVENT}/games/{{tournament_game_id}}/adjudicate/",
        ORGANISERS_ONLY,
        body={**REASON_BODY, "result": "1-0"},
        ids=_ids("running", tournament_game_id=lambda world: _running_game(world).pk),
    ),
    ApiRow(
        "POST",
        f"{EVENT}/games/{{tournament_game_id}}/fix-result/",
        ORGANISERS_ONLY,
        body={**REASON_BODY, "result": "cancelled"},
        ids=_ids("dates", tournament_game_id=lambda world: _decided_game(world).pk),
    ),
    ApiRow(
        "POST",
        f"{EVENT}/matches/{{match_id}}/decide/",
        ORGANISERS_ONLY,
        body=lambda world: {**REASON_BODY, "winner_entry_id": _match(world).higher_id},
        ids=_ids("knockout", match_id=lambda world: _match(world).pk),
    ),
    # --- players ---
    ApiRow(
        "POST",
        f"{EVENT}/register/",
        expect(201, **LOGGED_IN, player=409),
        body={},  # no entry code: the event has none
        ids=_ids("open"),
    ),
    ApiRow("POST", f"{EVENT}/withdraw/", expect(409, **LOGGED_IN, player=200), ids=_ids("open")),
    # --- Swiss: half-point byes asked for ahead, the organiser's byes and forbidden pairs ---
    ApiRow(
        "POST",
        f"{EVENT}/byes/",
        expect(409, **LOGGED_IN, player=201),
        body={"round": 2},
        ids=_ids("swiss"),
    ),
    ApiRow(
        "DELETE",
        f"{EVENT}/byes/{{round_number}}/",
        expect(409, **LOGGED_IN),  # the player has no bye to take back; no one else has one
        ids=_ids("swiss", round_number=lambda world: 2),
    ),
    ApiRow(
        "POST",
        f"{EVENT}/entries/{{entry_id}}/bye/",
        expect(403, **LOGGED_IN, superuser=201),
        body={**REASON_BODY, "round": 2, "kind": "Z"},
        ids=_ids("swiss", entry_id=lambda world: _event(world, "swiss").entries.first().pk),
    ),
    ApiRow(
        "PUT",
        f"{EVENT}/forbidden-pairs/",
        ORGANISERS_ONLY,
        body={**REASON_BODY, "pairs": []},
        ids=_ids("swiss"),
    ),
]

REASON = {"confirm": "yes", "reason": "Matrix"}

ADMIN_ROWS = [
    AdminRow(
        "tournaments.tournament",
        "open_registration",
        SUPERUSERS,
        lambda world: _event(world, "draft"),
        lambda t: t.status == Tournament.Status.REGISTRATION,
        asks=False,
    ),
    AdminRow(
        "tournaments.tournament",
        "start",
        SUPERUSERS,
        lambda world: _event(world, "open"),
        lambda t: t.status == Tournament.Status.RUNNING,
        asks=False,
    ),
    AdminRow(
        "tournaments.tournament",
        "cancel",
        SUPERUSERS,
        lambda world: _event(world, "open"),
        lambda t: t.status == Tournament.Status.CANCELLED,
        REASON,
    ),
    AdminRow(
        "tournaments.entry",
        "approve",
        SUPERUSERS,
        _pending_entry,
        lambda entry: entry.status == Entry.Status.APPROVED,
        asks=False,
    ),
    AdminRow(
        "tournaments.entry",
        "remove",
        SUPERUSERS,
        _entrant,
        lambda entry: entry.status == Entry.Status.REMOVED,
        REASON,
    ),
    AdminRow(
        "tournaments.tournamentgame",
        "adjudicate",
        SUPERUSERS,
        _running_game,
        lambda link: link.result == TournamentGame.Result.ORANGE_WINS,
        {**REASON, "result": "1-0"},
    ),
    AdminRow(
        "tournaments.tournamentgame",
        "fix_result",
        SUPERUSERS,
        _decided_game,
        lambda link: link.result == TournamentGame.Result.CANCELLED and link.result_fixed,
        {**REASON, "result": "cancelled"},
    ),
    AdminRow(
        "tournaments.knockoutmatch",
        "decide",
        SUPERUSERS,
        _match,
        lambda match: match.winner_id is not None and match.winner_id == match.lower_id,
        {**REASON, "winner": "lower"},
    ),
    # Events, entries, games, matches and byes change only through the services.
    delete_row("tournaments.tournament", lambda world: _event(world, "draft"), NOBODY),
    delete_row("tournaments.entry", _entrant, NOBODY),
    delete_row("tournaments.tournamentgame", _running_game, NOBODY),
    delete_row("tournaments.knockoutmatch", _match, NOBODY),
    delete_row(
        "tournaments.bye",
        lambda world: Bye.objects.filter(round__tournament=_event(world, "running")).first(),
        NOBODY,
    ),
]


# --- The event's roles at the screens: the manage page and the admin lists ----------------

ARBITER_PERMISSIONS = ("manage_tournament_entries", "adjudicate_tournament_game")


def _grant(user: User, *codenames: str) -> User:
    for codename in codenames:
        user.user_permissions.add(
            Permission.objects.get(codename=codename, content_type__app_label="tournaments")
        )
    return User.objects.get(pk=user.pk)  # fresh, so the permission cache is empty


def _actor(world: World, role: str) -> User | None:
    """Who plays each role for the world's events (``orga`` organises them all)."""
    organiser = _event(world, "running").organiser
    if role == ANONYMOUS:
        return None
    if role == ORGANISER:
        return User.objects.get(pk=organiser.pk)
    if role == LAPSED_ORGANISER:
        organiser.user_permissions.clear()
        return User.objects.get(pk=organiser.pk)
    if role == OTHER_ORGANISER:
        return _grant(make_user("rival"), "organise_tournament", *ARBITER_PERMISSIONS)
    if role == ARBITER:
        arbiter = make_user("arbiter")
        arbiter.is_staff = True
        arbiter.save()
        return _grant(arbiter, *ARBITER_PERMISSIONS)
    return world.users[role]  # PLAYER, STAFF, SUPERUSER


RUNS_IT = frozenset({ORGANISER, ARBITER, SUPERUSER})
NOT_STAFF = {
    ANONYMOUS: 302,
    PLAYER: 302,
    ORGANISER: 302,
    LAPSED_ORGANISER: 302,
    OTHER_ORGANISER: 302,
}


def _admin_list(model: str) -> CompetitionRow:
    """An admin list an arbiter's action is on: the admin sends whoever is not staff to its
    login; staff without the permissions are refused."""
    return CompetitionRow(
        f"tournaments: the admin's list of {model}",
        "GET",
        lambda world: reverse(f"admin:tournaments_{model}_changelist"),
        {**NOT_STAFF, STAFF: 403, ARBITER: 200, SUPERUSER: 200},
        _actor,
    )


COMPETITION_ROWS = [
    CompetitionRow(
        "tournaments: the manage page",
        "GET",  # refused: back to the event's page (anonymous: to the login)
        lambda world: f"/tournaments/{_event(world, 'running').pk}/manage/",
        {
            ANONYMOUS: 302,
            PLAYER: 302,
            STAFF: 302,
            ORGANISER: 200,
            LAPSED_ORGANISER: 302,
            OTHER_ORGANISER: 302,
            ARBITER: 200,
            SUPERUSER: 200,
        },
        _actor,
    ),
    CompetitionRow(
        "tournaments: adjudicate a game (the manage page)",
        "POST",  # back to the manage page, refused or done
        lambda world: (
            f"/tournaments/{_event(world, 'running').pk}/manage/games/"
            f"{_running_game(world).pk}/adjudicate/"
        ),
        dict.fromkeys(COMPETITION_ROLES, 302),
        _actor,
        body={**REASON_BODY, "result": "1-0", "back": "manage"},
        changed=lambda world: (
            TournamentGame.objects.get(pk=_running_game(world).pk).result
            == TournamentGame.Result.ORANGE_WINS
        ),
        changes_for=RUNS_IT,
    ),
    _admin_list("entry"),
    _admin_list("tournamentgame"),
    _admin_list("knockoutmatch"),
]
