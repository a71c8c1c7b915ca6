"""Fixtures for the tournaments tests: an organiser, players, and helpers that create an
event and play its games through the games services."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth.models import Permission, User

from games import services as game_services
from games.engine import game_state
from games.models import Game
from tests.accounts.factories import make_user
from tournaments import services
from tournaments.models import Tournament
from tournaments.standings.records import Colour, Outcome, PlayerRecord, RoundRecord
from tournaments.trf import TrfTournament

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # a Monday


def grant(user: User, *codenames: str) -> User:
    for codename in codenames:
        user.user_permissions.add(
            Permission.objects.get(codename=codename, content_type__app_label="tournaments")
        )
    return User.objects.get(pk=user.pk)  # fresh, so the permission cache is empty


@pytest.fixture
def commit(django_capture_on_commit_callbacks: Any) -> Callable[[], Any]:
    """``with commit(): ...`` runs the block's on-commit callbacks (the ``game_ended`` hook,
    outbox sends) at its end, as a real commit would, callbacks queued by callbacks included."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def organiser(db) -> User:
    return grant(make_user("orga"), "organise_tournament")


@pytest.fixture
def players(db) -> list[User]:
    """Six players: p1 .. p6."""
    return [make_user(f"p{i}") for i in range(1, 7)]


MakeTournament = Callable[..., Tournament]


@pytest.fixture
def make_tournament(organiser) -> MakeTournament:
    """A tournament open for registration (``open_registration=False`` keeps the draft)."""

    def make(*, open_registration: bool = True, **settings: Any) -> Tournament:
        settings.setdefault("name", f"Event {Tournament.objects.count() + 1}")
        tournament = services.tournament_create(organiser=organiser, **settings)
        if open_registration:
            services.tournament_registration_open(tournament_id=tournament.pk, actor=organiser)
        return Tournament.objects.get(pk=tournament.pk)

    return make


def register_all(tournament: Tournament, users: list[User], **kwargs: Any) -> None:
    for user in users:
        services.tournament_register(tournament_id=tournament.pk, user=user, **kwargs)


def play_out(
    game: Game, *, commit: Callable[[], Any], seed: int = 1, now: datetime | None = None
) -> Game:
    """Play ``game`` to its end through ``move_submit``, each side choosing at random; each
    move commits (so the last one sends ``game_ended``)."""
    rng = random.Random(seed)
    game = Game.objects.get(pk=game.pk)
    while game.is_active:
        moves = sorted(game_state(game).legal_choices(), key=str)
        user = game.user_to_move()
        with commit():
            game = game_services.move_submit(
                game_id=game.pk,
                user=user,
                expected_ply=game.ply,
                notation=str(rng.choice(moves)),
                now=now,
            ).game
    return game


def first_move(game: Game, *, now: datetime | None = None) -> Game:
    """The player to move plays their first legal move (in text order); at ply 0 that is
    Orange's first move, after which the game counts as started."""
    game = Game.objects.get(pk=game.pk)
    move = str(sorted(game_state(game).legal_choices(), key=str)[0])
    return game_services.move_submit(
        game_id=game.pk,
        user=game.user_to_move(),
        expected_ply=game.ply,
        notation=move,
        now=now,
    ).game


def finish(
    game: Game | None,
    result: str,
    *,
    commit: Callable[[], Any],
    arbiter: User | None = None,
    now: datetime | None = None,
) -> Game:
    """End ``game`` with ``result`` as players would: Orange moves once, then the loser
    resigns; a draw is adjudicated by ``arbiter``. Commits, so the hook runs."""
    assert game is not None
    game = Game.objects.get(pk=game.pk)
    with commit():
        if result == "1/2-1/2":
            assert arbiter is not None
            return game_services.game_adjudicate(
                game_id=game.pk, actor=arbiter, result=result, reason="agreed draw"
            )
        if game.ply == 0:
            game = first_move(game, now=now)
        loser = game.user_at(2 if result == "1-0" else 1)
        return game_services.game_resign(game_id=game.pk, user=loser, now=now)


def imported(organiser, *, players: int, rounds: int = 2, name: str = "") -> Tournament:
    """A finished Swiss of ``players`` (even) imported from a TRF file: each round the
    neighbours 1-2, 3-4, ... of a shifted ring meet, Orange wins, Blue wins in turn."""
    played: dict[int, list[RoundRecord]] = {n: [] for n in range(1, players + 1)}
    for number in range(1, rounds + 1):
        ring = [(n + number - 1) % players + 1 for n in range(players)]
        for board, (orange, blue) in enumerate(zip(ring[::2], ring[1::2], strict=True)):
            first, second = (
                (Outcome.WIN, Outcome.LOSS) if board % 2 else (Outcome.LOSS, Outcome.WIN)
            )
            played[orange].append(RoundRecord(number, first, blue, Colour.ORANGE))
            played[blue].append(RoundRecord(number, second, orange, Colour.BLUE))
    records = tuple(PlayerRecord(n, f"Player {n}", 2000, tuple(r)) for n, r in played.items())
    header = (("012", name or f"Imported {players}"), ("092", "Swiss"), ("142", str(rounds)))
    return services.tournament_import_trf(
        trf=TrfTournament(header=header, players=records), organiser=organiser, tiebreaks=["bh"]
    )
