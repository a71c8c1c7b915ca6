"""The game-kinds migrations refuse to go back while a row would be lost or change kind.

Each reverse starts with a check (a ``RunPython`` whose forward does nothing); these tests run
the checks on today's models, without migrating. Going back and forward on the demo data, and
the refusal of games/0010 through ``migrate`` itself: tests/test_migrations_demo_roundtrip.py.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from importlib import import_module

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.db.migrations.exceptions import IrreversibleError
from django.db.models import Model

from games.models import Game, GameSeat
from games.services import challenge_create, game_start
from ladders import services as ladder_services
from leagues import services as league_services
from tests.accounts.factories import grant_permissions, make_user
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def _organiser() -> User:
    return grant_permissions(
        make_user("orga"),
        "tournaments.organise_tournament",
        "leagues.organise_league",
        "ladders.organise_ladder",
    )


def _tournament(organiser: User, name: str, kind: str) -> Model:
    return tournament_services.tournament_create(organiser=organiser, name=name, kind=kind)


def _league(organiser: User, name: str, kind: str) -> Model:
    opens = datetime(2026, 3, 2, tzinfo=UTC)
    return league_services.league_create(
        organiser=organiser, name=name, first_registration_opens_at=opens, kind=kind
    )


def _ladder(organiser: User, name: str, kind: str) -> Model:
    return ladder_services.ladder_create(organiser=organiser, name=name, kind=kind)


COMPETITIONS = [
    ("tournaments", "0006_kind", _tournament),
    ("leagues", "0004_kind", _league),
    ("ladders", "0002_kind", _ladder),
]


def _guard(app: str, migration: str, name: str) -> Callable[..., None]:
    return getattr(import_module(f"{app}.migrations.{migration}"), name)


@pytest.mark.parametrize(("app", "migration", "make"), COMPETITIONS)
def test_a_competition_kind_is_not_dropped_while_one_plays_another_kind(app, migration, make):
    organiser = _organiser()
    make(organiser, "Celtic Cup", "celtic")
    knot = make(organiser, "Knot Cup", "knot")
    refuse = _guard(app, migration, "refuse_other_kinds")

    with pytest.raises(IrreversibleError) as refused:
        refuse(apps, None)

    assert str(refused.value) == (
        f"{app}/{migration} cannot be reversed: 1 {app} play another kind than Celtic! "
        f"('Knot Cup'), and the schema before it has no kind. Remove them first, or stay at "
        f"{app}/{migration} or later."
    )
    type(knot).objects.filter(pk=knot.pk).update(kind="celtic")
    refuse(apps, None)  # every one plays Celtic!: going back loses nothing


def test_challenge_invitations_are_not_dropped_with_their_table():
    ann, bob, cy = (make_user(name) for name in ("ann", "bob", "cy"))
    challenge = challenge_create(challenger=ann, invited=[bob, cy], kind="knot", seat_count=3)
    refuse = _guard("games", "0011_challenge_invitations", "refuse_invitations")

    with pytest.raises(IrreversibleError, match=r"^games/0011_challenge_invitations cannot be "):
        refuse(apps, None)

    challenge.invitations.all().delete()
    refuse(apps, None)


def test_a_two_seat_celtic_game_that_places_its_seats_unlike_its_result_is_refused():
    game = game_start(players=[make_user("ann"), make_user("bob")])
    refuse = _guard("games", "0010_game_seats", "refuse_what_colours_cannot_hold")
    refuse(apps, None)  # a running Celtic! game for two goes back

    GameSeat.objects.filter(game=game, seat=1).update(place=1)
    with pytest.raises(IrreversibleError) as refused:
        refuse(apps, None)
    assert f"games whose places the result does not give: 1 (#{game.pk})" in str(refused.value)
    assert Game.objects.filter(pk=game.pk, status="active").exists()
