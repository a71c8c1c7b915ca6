"""Schemathesis against the OpenAPI document: every operation, every check, in-process.

For each operation schemathesis generates valid and invalid requests from the document and
sends them to the Django app through its WSGI interface, authenticated with a real API token,
then checks every answer: no server error, a status code and content type the document lists,
a body that matches the documented schema, invalid input refused, authentication enforced
where it is declared, unknown methods answered 405.

Valid requests name real objects (a game, a message, an open seek, a spare token); the
game is Celtic! and Celtic Knot in turn, each with a message of its own, so that the
answers of both kinds (their positions above all) are checked against the document.
The number of examples per operation is bounded to keep the run to a minute or two
(``SCHEMATHESIS_MAX_EXAMPLES`` raises it, ``SCHEMATHESIS_RANDOM=1`` draws new examples, for
a longer local run). Besides those, schemathesis' coverage phase tries each operation's
boundary values (every value of an enum, lengths at their limits, missing fields).
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from django.contrib.auth.models import User
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from accounts.services import api_token_create
from games import services
from ladders import services as ladder_services
from leagues import services as league_services
from tests.accounts.factories import grant_permissions, make_user
from tests.tournaments.conftest import grant
from tournaments import services as tournament_services
from tournaments.models import TournamentGame

MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "15"))
DETERMINISTIC = os.environ.get("SCHEMATHESIS_RANDOM", "") == ""
"""The same examples on every run (CI stays reproducible); SCHEMATHESIS_RANDOM=1 explores."""


@pytest.fixture(autouse=True)
def _no_lockout_for_probes(settings: Any) -> None:
    """Schemathesis probes every operation with wrong credentials and expects 401; the
    failed-login lockout (429 after a few wrong passwords, tested in tests/accounts) would
    answer its later probes instead."""
    settings.CELTIC_LOGIN_FAILURES_PER_ACCOUNT = 1_000_000
    settings.CELTIC_LOGIN_FAILURES_PER_ADDRESS = 1_000_000


@pytest.fixture(autouse=True)
def _keep_the_test_connection() -> Iterator[None]:
    """The WSGI app closes "old" database connections at each request's start and end, and
    inside the test's transaction PostgreSQL's counts as old: every request after the first
    found it closed. Django's test client unhooks the same signals for the same reason."""
    hooks = (signals.request_started, signals.request_finished)
    for hook in hooks:
        hook.disconnect(close_old_connections)
    yield
    for hook in hooks:
        hook.connect(close_old_connections)


@dataclass(frozen=True)
class World:
    """The caller's token, and ids of real objects the caller may act on; ``knot``: the
    game and message ids of a Celtic Knot game, used in turn with those of ``ids``."""

    key: str
    ids: dict[str, int]
    knot: dict[str, int]


@pytest.fixture
def world(db: Any) -> World:
    """Alice (the caller) plays Bob, who wrote her a message; Bob has an open seek; Alice
    has a spare token (so that revoking "a token" never revokes the one in use); Alice
    organises a running knockout; Bob runs a league Alice registered for and a ladder she is
    on, below him."""
    alice, bob = make_user("alice"), make_user("bob")
    challenge = services.challenge_create(challenger=alice, opponent=bob, seat_choice=1)
    game = services.challenge_accept(challenge_id=challenge.pk, user=bob)
    message = services.message_post(game_id=game.pk, author=bob, body="Good luck!")
    seek = services.challenge_create(challenger=bob, rated=False, message="anyone?")
    spare, _ = api_token_create(user=alice, name="spare")
    _, key = api_token_create(user=alice, name="schemathesis")
    ids = {"game_id": game.pk, "message_id": message.pk, "challenge_id": seek.pk}
    ids |= _league_and_ladder_ids(organiser=bob, player=alice)
    ids |= {"token_id": spare.pk, **_a_running_knockout(alice)}
    return World(key=key, ids=ids, knot=_a_knot_game(alice, bob))


def _a_knot_game(player: User, opponent: User) -> dict[str, int]:
    """A Celtic Knot game ``player`` (seat 1) plays: a square chosen, so that its position
    holds flips and destinations; with a message."""
    challenge = services.challenge_create(
        challenger=player, opponent=opponent, kind="knot", seat_choice=1
    )
    game = services.challenge_accept(challenge_id=challenge.pk, user=opponent)
    services.move_submit(game_id=game.pk, user=player, expected_ply=0, notation="a1")
    message = services.message_post(game_id=game.pk, author=opponent, body="Bonne chance !")
    return {"game_id": game.pk, "message_id": message.pk}


def _a_running_knockout(organiser: Any) -> dict[str, int]:
    """Ids in a started knockout that ``organiser`` (given the permission) runs: Carol
    against Dave in its one match, a pair of games (the first one's id is used)."""
    organiser = grant(organiser, "organise_tournament")
    event = tournament_services.tournament_create(
        organiser=organiser, name="Samhain Knockout", format="knockout"
    )
    tournament_services.tournament_registration_open(tournament_id=event.pk, actor=organiser)
    for name in ("carol", "dave"):
        tournament_services.tournament_register(tournament_id=event.pk, user=make_user(name))
    tournament_services.tournament_start(tournament_id=event.pk, actor=organiser)
    game = TournamentGame.objects.filter(tournament=event).order_by("pk").first()
    assert game is not None
    return {
        "tournament_id": event.pk,
        "entry_id": game.orange_id,
        "tournament_game_id": game.pk,
        "match_id": game.match_id,
    }


def _league_and_ladder_ids(*, organiser: User, player: User) -> dict[str, int]:
    """A league in registration and a ladder, both ``organiser``'s, with ``player`` in each
    (so that leaving, cancelling and carrying over have something to act on)."""
    organiser = grant_permissions(
        organiser,
        "leagues.organise_league",
        "tournaments.organise_tournament",
        "ladders.organise_ladder",
    )
    league = league_services.league_create(
        organiser=organiser, name="Schema League", first_registration_opens_at=timezone.now()
    )
    season = league.seasons.get()
    league_services.season_register(season_id=season.pk, user=player)
    ladder = ladder_services.ladder_create(organiser=organiser, name="Schema Ladder")
    ladder_services.ladder_join(ladder_id=ladder.pk, user=organiser)
    ladder_services.ladder_join(ladder_id=ladder.pk, user=player)
    return {"league_id": league.pk, "season_id": season.pk, "ladder_id": ladder.pk}


# A schema-valid request these operations may still refuse with 400, because what decides it
# is a rule JSON Schema cannot state: the rules of the game, the password policy, names and
# addresses already taken, the days of vacation left this year, the game's length. Every
# other check, and this one for every other operation, runs as schemathesis ships it.
ALSO_REFUSED_WHEN_VALID = {
    ("POST", "/api/v1/games/{game_id}/moves/"): "an illegal move (the rules of the game's kind)",
    ("POST", "/api/v1/games/{game_id}/conditional-moves/"): "a line with a move that does not "
    "parse or is illegal (the rules of Celtic!), a blank one included",
    ("POST", "/api/v1/challenges/"): "a Fischer cap below its bank; yourself as the opponent; "
    "a kind the server does not host, a seat count the kind does not allow, a seat outside "
    "the game, a colour that disagrees with the seat",
    ("POST", "/api/v1/accounts/signup/"): "a weak password, a taken username or address",
    ("PATCH", "/api/v1/accounts/me/"): "an email address another account uses",
    ("POST", "/api/v1/accounts/tokens/"): "a name one of your active tokens has",
    ("POST", "/api/v1/accounts/me/vacation/"): "0 days, or more days than you have left",
    ("GET", "/api/v1/games/{game_id}/positions/{ply}/"): "a ply beyond the game's length; "
    "a tried move (after=) that is illegal",
    ("GET", "/api/v1/games/{game_id}/legal-moves/"): "a tried move (after=) that is illegal",
    # A cursor is opaque: only one the list gave out (in a next or previous link) is valid.
    ("GET", "/api/v1/games/"): "a cursor the list did not give out",
    ("GET", "/api/v1/rankings/"): "a cursor the list did not give out",
    # Text that is only blanks is refused once trimmed; JSON Schema's \s is not Python's.
    ("POST", "/api/v1/games/{game_id}/messages/"): "a body of blanks only",
    ("POST", "/api/v1/games/{game_id}/messages/{message_id}/report/"): "a blank reason",
    ("POST", "/api/v1/games/{game_id}/messages/{message_id}/hide/"): "a blank reason",
    # Each setting states its own limits; the rules tying settings together are the service's.
    ("POST", "/api/v1/tournaments/"): "settings that contradict each other (a Swiss event "
    "without rounds, at_date without starts_at, dates out of order, more minimum than "
    "maximum players); a name taken or blank; a Fischer cap below its bank",
    ("PATCH", "/api/v1/tournaments/{tournament_id}/"): "the same rules as creating one",
    ("POST", "/api/v1/leagues/"): "settings that contradict each other (a Fischer cap below "
    "its bank, promotion and relegation that do not fit the divisions); a name taken or blank",
    ("PATCH", "/api/v1/leagues/{league_id}/"): "the same rules as creating one",
    ("POST", "/api/v1/ladders/"): "a name taken, or blank once trimmed; a Fischer cap below "
    "its bank; a game kind the server does not host or that two cannot play",
    ("POST", "/api/v1/tournaments/{tournament_id}/matches/{match_id}/decide/"): "a winner "
    "who is not one of the match's two players",
    ("POST", "/api/v1/tournaments/import-trf/"): "text that is no TRF file (FIDE's format)",
    ("PUT", "/api/v1/tournaments/{tournament_id}/forbidden-pairs/"): "an event that is not a "
    "Swiss (only Swiss events pair by score); entry ids of another event; a player twice",
    **{
        ("POST", f"/api/v1/tournaments/{{tournament_id}}/{action}/"): "a blank reason"
        for action in (
            "cancel",
            "pairings",
            "entries/{entry_id}/remove",
            "games/{tournament_game_id}/adjudicate",
            "games/{tournament_game_id}/fix-result",
        )
    },
}


# The coverage phase sends every value of an enum: for these two, each of the ~600 time zones,
# two thirds of the run's requests. Their examples and fuzzing phases still run.
ENUMERATES_TIME_ZONES = ("POST /api/v1/accounts/signup/", "PATCH /api/v1/accounts/me/")


def _config() -> SchemathesisConfig:
    return SchemathesisConfig.from_dict(
        {
            "generation": {
                "max-examples": MAX_EXAMPLES,
                "mode": "all",  # valid and invalid requests
                "database": "none",
                "deterministic": DETERMINISTIC,
            },
            "operations": [
                {
                    "include-name": f"{method} {path}",
                    "checks": {
                        "positive_data_acceptance": {
                            "expected-statuses": ["2xx", "400", "401", "403", "404", "409", "429"]
                        }
                    },
                }
                for method, path in ALSO_REFUSED_WHEN_VALID
            ]
            + [
                {"include-name": name, "phases": {"coverage": {"enabled": False}}}
                for name in ENUMERATES_TIME_ZONES
            ],
        }
    )


def _load_schema() -> Any:
    """The document the app serves at /api/schema/, bound to the app for in-process calls.

    Generated directly rather than fetched: fetching it passes the throttles, whose counts
    live in the database, and no database is open while tests are collected.
    """
    document = json.loads(OpenApiJsonRenderer().render(SchemaGenerator().get_schema(public=True)))
    loaded = schemathesis.openapi.from_dict(document, config=_config())
    loaded.app = get_wsgi_application()
    return loaded


schema = _load_schema()

_KNOT_TURN = itertools.cycle((False, True))
"""Whether the next valid request names the Celtic Knot game (every other one does)."""


@schema.parametrize()
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_api_keeps_every_promise_of_its_openapi_document(case: Any, world: World) -> None:
    """Valid requests name the real objects (random ids would only ever find nothing), a
    Celtic! and a Celtic Knot game in turn; invalid ones keep their generated ids."""
    if case.meta is not None and case.meta.generation.mode.is_positive:
        ids = world.ids | world.knot if next(_KNOT_TURN) else world.ids
        for name in case.path_parameters or {}:
            if name in ids:
                case.path_parameters[name] = ids[name]
    case.call_and_validate(headers={"Authorization": f"Token {world.key}"})
