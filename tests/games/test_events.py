"""games.events: every event is published where it happens; inside-the-transaction receivers
hear it with the objects at once, after-commit receivers with ids once the transaction
commits, never before and never when it rolls back."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction

from games import events, services
from games.models import Game, GameMessage
from games.timeouts import game_timeouts_decide
from tests.accounts.factories import make_superuser, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def ended() -> Iterator[list[tuple[str, int]]]:
    """What after-commit receivers of the two ending events hear: (event, game id)."""
    heard: list[tuple[str, int]] = []

    def receiver(sender: events.Event, *, game_id: int, **kwargs: object) -> None:
        heard.append((sender.name, game_id))

    for event in (events.game_finished, events.game_result_changed):
        events.subscribe(event, receiver, after_commit=True, dispatch_uid=f"test-{event.name}")
    yield heard
    for event in (events.game_finished, events.game_result_changed):
        event.committed.disconnect(dispatch_uid=f"test-{event.name}")


@pytest.fixture
def inside() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """What inside-the-transaction receivers of every event hear: (event, payload)."""
    heard: list[tuple[str, dict[str, Any]]] = []

    def receiver(sender: events.Event, **payload: Any) -> None:
        payload.pop("signal")
        heard.append((sender.name, payload))

    for event in events.EVENTS:
        events.subscribe(event, receiver, after_commit=False, dispatch_uid=f"test-{event.name}")
    yield heard
    for event in events.EVENTS:
        event.inside.disconnect(dispatch_uid=f"test-{event.name}")


def test_resignation_announces_after_commit(game, bob, ended, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.game_resign(game_id=game.pk, user=bob)
        assert ended == []  # not before the commit
    assert len(callbacks) >= 1
    assert ended == [("game_finished", game.pk)]


def test_annul_adjudicate_and_timeouts_announce(
    alice, bob, ended, django_capture_on_commit_callbacks
):
    moderator = make_superuser()
    games = [services.game_start(players=[alice, bob]) for _ in range(3)]
    with django_capture_on_commit_callbacks(execute=True):
        services.game_annul(game_id=games[0].pk, actor=moderator, reason="test")
        services.game_adjudicate(game_id=games[1].pk, actor=moderator, result="1-0", reason="t")
        game_timeouts_decide(now=games[2].deadline + timedelta(minutes=1))
    assert ended == [
        ("game_result_changed", games[0].pk),
        ("game_result_changed", games[1].pk),
        ("game_finished", games[2].pk),
    ]
    assert Game.objects.get(pk=games[2].pk).status == Game.Status.ANNULLED


def test_nothing_is_announced_when_the_transaction_rolls_back(
    game, bob, ended, django_capture_on_commit_callbacks
):
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        services.game_resign(game_id=game.pk, user=bob)
        raise RuntimeError("boom")
    assert ended == []
    assert Game.objects.get(pk=game.pk).is_active


def test_after_commit_receivers_get_ids_and_inside_receivers_objects(
    alice, bob, inside, django_capture_on_commit_callbacks
):
    heard: list[dict[str, object]] = []

    def receiver(sender: events.Event, **payload: object) -> None:
        payload.pop("signal")
        heard.append(payload)

    events.subscribe(events.game_started, receiver, after_commit=True, dispatch_uid="test-ids")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            games = services.games_start_many(pairs=[(alice, bob), (bob, alice)], announce=False)
    finally:
        events.game_started.committed.disconnect(dispatch_uid="test-ids")
    assert heard == [{"game_ids": [g.pk for g in games], "announce": False}]
    assert inside == [
        ("game_started", {"games": games, "announce": False}),
        ("turn_started", {"games": games}),
    ]


def test_each_service_publishes_its_events_in_its_transaction(alice, bob, inside):
    carol = make_user("carol")
    challenge = services.challenge_create(challenger=alice, opponent=bob)
    declined = services.challenge_create(challenger=alice, opponent=carol)
    services.challenge_decline(challenge_id=declined.pk, user=carol)
    game = services.challenge_accept(challenge_id=challenge.pk, user=bob)
    mover = game.user_to_move()
    moved = services.move_submit(game_id=game.pk, user=mover, expected_ply=0, notation="d5 ESW")
    message = services.message_post(game_id=game.pk, author=bob, body="Well played")
    services.game_resign(game_id=game.pk, user=bob)
    assert [name for name, _ in inside] == [
        "challenge_created",
        "challenge_created",
        "challenge_declined",
        "game_started",
        "challenge_accepted",
        "turn_started",
        "turn_started",
        "message_posted",
        "game_finished",
    ]
    assert inside[3][1] == {"games": [game], "announce": False}
    assert inside[4][1] == {"challenge": challenge, "game": game}
    assert inside[6][1] == {"games": [moved.game]}
    assert inside[7][1] == {"message": GameMessage.objects.get(pk=message.pk)}
    assert inside[8][1]["game"].result == ("1-0" if bob == game.user_at(2) else "0-1")


def test_a_result_change_says_what_it_was_before(alice, bob, game, inside):
    moderator = make_superuser()
    services.game_adjudicate(game_id=game.pk, actor=moderator, result="1/2-1/2", reason="agreed")
    [(name, payload)] = inside
    assert name == "game_result_changed"
    assert (payload["previous_status"], payload["previous_result"]) == ("active", "")
    assert payload["game"].result == "1/2-1/2"
