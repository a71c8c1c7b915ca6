"""The seed of a Celtic Knot game is secret while the game runs: it reaches no page, no API
answer, no email and no log line (only its SHA-256 is public); once the game is over the
record reveals it."""

from __future__ import annotations

import logging

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games import services
from games.models import Game
from notifications.models import OutboxEmail
from notifications.services import outbox_flush
from tests.accounts.factories import make_superuser, make_user
from tests.games.conftest import API, submit, token_client

pytestmark = pytest.mark.django_db


def api_answers(game: Game) -> dict[str, str]:
    """Every read of the game through the API, as text, for a watcher and for seat 1."""
    base = f"{API}/games/{game.pk}"
    paths = [
        "/",
        "/moves/",
        "/legal-moves/",
        "/record/?as=json",
        "/record/?as=text",
        "/live/",
        *(f"/positions/{ply}/" for ply in range(game.ply + 1)),
    ]
    answers = {}
    for who, client in (
        ("watcher", APIClient()),
        ("seat 1", token_client(game.user_at(1), name="reader")),
    ):
        for path in paths:
            response = client.get(base + path)
            assert response.status_code == 200, (path, response.content)
            answers[f"{who} {path}"] = response.content.decode()
    return answers


def pages(game: Game, superuser: User) -> dict[str, str]:
    """The game page for a watcher and a player, and the admin's change page of the game."""
    player, admin = Client(), Client()
    player.force_login(game.user_at(1))
    admin.force_login(superuser)
    page = reverse("games:game", args=[game.pk])
    found = {
        "page (watcher)": Client().get(page),
        "page (player)": player.get(page),
        "admin change page": admin.get(reverse("admin:games_game_change", args=[game.pk])),
    }
    for name, response in found.items():
        assert response.status_code == 200, name
    return {name: response.content.decode() for name, response in found.items()}


def emails() -> dict[str, str]:
    """Every email the outbox holds, rendered and sent, and what the outbox rows keep."""
    outbox_flush()
    rows = {
        f"outbox row {row.pk} ({row.event})": " ".join(
            [row.subject, row.body_text, row.body_html, row.board_svg, str(row.context)]
        )
        for row in OutboxEmail.objects.all()
    }
    sent = {f"email to {m.to}: {m.subject}": m.message().as_string() for m in mail.outbox}
    return rows | sent


def leaks(seed: str, texts: dict[str, str]) -> list[str]:
    return [name for name, text in texts.items() if seed.lower() in text.lower()]


def test_the_seed_stays_secret_while_the_game_runs_and_is_revealed_at_the_end(caplog):
    caplog.set_level(logging.DEBUG)
    players = [make_user(name) for name in ("ann", "ben", "cat")]
    game = services.game_start(players=players, kind="knot")
    seed = Game.objects.get(pk=game.pk).chance_seed
    assert len(seed) == 64

    # a few choices through the API: squares (flips drawn), destinations, extra moves
    clients = {seat: token_client(game.user_at(seat)) for seat in (1, 2, 3)}
    for _ in range(8):
        game.refresh_from_db()
        legal = APIClient().get(f"{API}/games/{game.pk}/legal-moves/").json()
        answer = submit(clients[legal["seat_to_move"]], game.pk, legal["ply"], legal["moves"][0])
        assert answer.status_code == 201, answer.json()
        assert seed not in answer.content.decode()
    tried = APIClient().get(f"{API}/games/{game.pk}/legal-moves/?after=a1,a2")
    assert seed not in tried.content.decode()
    services.game_resign(game_id=game.pk, user=game.user_at(2))  # the others play on
    game.refresh_from_db()
    assert game.is_active

    root = make_superuser()
    seen = api_answers(game) | pages(game, root) | emails()
    assert emails(), "the players had emails (your turn ...)"
    assert leaks(seed, seen) == []
    assert game.chance_commitment in seen["watcher /record/?as=text"]
    assert f'"chance_commitment":"{game.chance_commitment}"' in seen["watcher /"]
    assert seed.lower() not in caplog.text.lower()

    services.game_resign(game_id=game.pk, user=game.user_at(3))  # one left: the game ends
    game.refresh_from_db()
    assert game.status == "finished"
    record = APIClient().get(f"{API}/games/{game.pk}/record/?as=text").content.decode()
    assert f'[FlipSeed "{seed}"]' in record
    assert APIClient().get(f"{API}/games/{game.pk}/").json()["chance_seed"] == seed
    assert seed in pages(game, root)["admin change page"]
