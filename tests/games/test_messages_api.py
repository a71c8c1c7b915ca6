"""Game messages through the API: writing, reading, reporting and hiding, and who may do what."""

from __future__ import annotations

import pytest
from rest_framework.throttling import ScopedRateThrottle

from games import services
from games.models import Game, GameMessage, MessageReport
from moderation.models import AuditEntry
from notifications.models import OutboxEmail
from tests.accounts.factories import make_moderator
from tests.games.conftest import API, token_client
from tests.games.messaging import make_message_moderator, post


def messages_url(game_id: int) -> str:
    return f"{API}/games/{game_id}/messages/"


def report_url(message: GameMessage) -> str:
    return f"{messages_url(message.game_id)}{message.pk}/report/"


def hide_url(message: GameMessage) -> str:
    return f"{messages_url(message.game_id)}{message.pk}/hide/"


@pytest.fixture
def private_game(alice, bob) -> Game:
    return services.game_start(players=[alice, bob], public=False)


@pytest.fixture
def hello(game, alice) -> GameMessage:
    return post(game, alice, "Good luck, have fun!")


@pytest.fixture
def moderator():
    return make_message_moderator()


@pytest.fixture
def mod_api(moderator):
    return token_client(moderator)


# --- writing ------------------------------------------------------------------------------


def test_a_player_writes_a_message(game, alice, alice_api):
    response = alice_api.post(messages_url(game.pk), {"body": "  Hello Bob!\n"}, format="json")

    assert response.status_code == 201
    body = response.json()
    message = GameMessage.objects.get()
    assert body == {
        "id": message.pk,
        "author": {"username": "alice", "display_name": "alice"},
        "created_at": body["created_at"],
        "hidden": False,
        "body": "Hello Bob!",
        "hidden_reason": None,
    }
    assert (message.game, message.author, message.body) == (game, alice, "Hello Bob!")


def test_players_may_still_write_after_the_game(game, bob, bob_api):
    services.game_resign(game_id=game.pk, user=bob)

    response = bob_api.post(messages_url(game.pk), {"body": "Well played."}, format="json")

    assert response.status_code == 201
    assert GameMessage.objects.get().body == "Well played."


def test_a_spectator_cannot_write(game, carol_api):
    response = carol_api.post(messages_url(game.pk), {"body": "Nice move"}, format="json")

    assert response.status_code == 403
    assert response.json() == {
        "code": "not_a_player",
        "detail": f"You are not a player in game #{game.pk}.",
    }
    assert not GameMessage.objects.exists()


def test_writing_needs_a_login(game, anon):
    response = anon.post(messages_url(game.pk), {"body": "Hi"}, format="json")

    assert (response.status_code, response.json()["code"]) == (401, "not_authenticated")
    assert not GameMessage.objects.exists()


@pytest.mark.parametrize(
    ("body", "code", "detail"),
    [
        ("", "message_required", "The message is empty: write 1 to 2000 characters."),
        (" \n\t ", "message_required", "The message is empty: write 1 to 2000 characters."),
        (
            "x" * 2001,
            "message_too_long",
            "The message is 2001 characters long; at most 2000 are allowed.",
        ),
    ],
)
def test_an_empty_or_too_long_message_is_refused(game, alice_api, body, code, detail):
    response = alice_api.post(messages_url(game.pk), {"body": body}, format="json")

    assert response.status_code == 400
    assert response.json() == {"code": code, "detail": detail}
    assert not GameMessage.objects.exists()


def test_a_message_of_exactly_2000_characters_is_taken(game, alice_api):
    response = alice_api.post(messages_url(game.pk), {"body": "y" * 2000}, format="json")

    assert response.status_code == 201
    assert len(GameMessage.objects.get().body) == 2000


def test_a_message_without_a_body_field_is_refused(game, alice_api):
    response = alice_api.post(messages_url(game.pk), {"text": "Hi"}, format="json")

    assert response.status_code == 400
    assert response.json()["detail"] == "body: This field is required."


def test_outsiders_cannot_find_a_private_game_to_write_to(private_game, carol_api):
    response = carol_api.post(messages_url(private_game.pk), {"body": "Hi"}, format="json")

    assert response.status_code == 404
    assert response.json() == {
        "code": "game_not_found",
        "detail": f"There is no game #{private_game.pk}.",
    }


def test_writing_is_throttled_per_user(game, alice_api, bob_api, monkeypatch):
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "messages", "2/hour")
    for text in ("one", "two"):
        assert (
            alice_api.post(messages_url(game.pk), {"body": text}, format="json").status_code == 201
        )

    refused = alice_api.post(messages_url(game.pk), {"body": "three"}, format="json")

    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"
    assert bob_api.post(messages_url(game.pk), {"body": "mine"}, format="json").status_code == 201
    assert list(GameMessage.objects.values_list("body", flat=True)) == ["one", "two", "mine"]


# --- the opponent's email -----------------------------------------------------------------


def test_the_opponent_is_emailed_and_the_author_is_not(game, alice, bob, alice_api):
    alice_api.post(messages_url(game.pk), {"body": "Your move, Bob."}, format="json")

    [email] = OutboxEmail.objects.filter(event="game_message")
    assert email.recipient == bob
    assert email.game == game
    assert "Your move, Bob." in email.body_text


def test_no_email_when_the_opponent_switched_message_emails_off(game, bob, alice_api):
    bob.profile.notify_message = False
    bob.profile.save()

    response = alice_api.post(messages_url(game.pk), {"body": "Hello?"}, format="json")

    assert response.status_code == 201
    assert not OutboxEmail.objects.filter(event="game_message").exists()


# --- reading ------------------------------------------------------------------------------


def test_everyone_reads_a_public_game_oldest_first(game, alice, bob, anon, carol_api):
    post(game, alice, "first")
    post(game, bob, "second")
    post(game, alice, "third")

    for client in (anon, carol_api):
        response = client.get(messages_url(game.pk))
        assert response.status_code == 200
        body = response.json()
        assert body["count"] == 3
        assert [(m["author"]["username"], m["body"]) for m in body["results"]] == [
            ("alice", "first"),
            ("bob", "second"),
            ("alice", "third"),
        ]


def test_the_list_is_paginated(game, alice, alice_api):
    for n in range(3):
        post(game, alice, f"note {n}")

    page_2 = alice_api.get(messages_url(game.pk), {"page_size": 2, "page": 2}).json()

    assert page_2["count"] == 3
    assert [m["body"] for m in page_2["results"]] == ["note 2"]


def test_a_private_games_messages_are_404_to_outsiders(
    private_game, alice, bob_api, anon, carol_api
):
    post(private_game, alice, "Just between us")

    for client in (anon, carol_api):
        response = client.get(messages_url(private_game.pk))
        assert (response.status_code, response.json()["code"]) == (404, "game_not_found")
    assert bob_api.get(messages_url(private_game.pk)).json()["results"][0]["body"] == (
        "Just between us"
    )
    staff = token_client(make_moderator())
    assert staff.get(messages_url(private_game.pk)).json()["count"] == 1


def test_a_missing_game_is_404(alice_api):
    response = alice_api.get(messages_url(999999))

    assert (response.status_code, response.json()["code"]) == (404, "game_not_found")


# --- reporting ----------------------------------------------------------------------------


def test_a_reader_reports_a_message_once(hello, carol, carol_api):
    first = carol_api.post(report_url(hello), {"reason": " Rude. "}, format="json")
    again = carol_api.post(report_url(hello), {"reason": "Still rude."}, format="json")

    assert first.status_code == 201
    report = MessageReport.objects.get()
    assert first.json() == {
        "id": report.pk,
        "message": hello.pk,
        "reason": "Rude.",
        "created_at": first.json()["created_at"],
    }
    assert (report.reporter, report.resolved_at) == (carol, None)
    assert again.status_code == 409
    assert again.json() == {
        "code": "already_reported",
        "detail": f"You have already reported message #{hello.pk}; the moderators will look at it.",
    }
    assert MessageReport.objects.count() == 1


def test_the_opponent_may_report_but_the_author_may_not(hello, alice_api, bob_api):
    own = alice_api.post(report_url(hello), {"reason": "oops"}, format="json")

    assert own.status_code == 403
    assert own.json() == {"code": "own_message", "detail": "You cannot report your own message."}
    assert bob_api.post(report_url(hello), {"reason": "Taunting"}, format="json").status_code == 201


@pytest.mark.parametrize(
    ("reason", "code", "detail"),
    [
        ("  ", "reason_required", "The reason is empty: write 1 to 500 characters."),
        (
            "r" * 501,
            "reason_too_long",
            "The reason is 501 characters long; at most 500 are allowed.",
        ),
    ],
)
def test_a_report_needs_a_reason_of_1_to_500_characters(hello, carol_api, reason, code, detail):
    response = carol_api.post(report_url(hello), {"reason": reason}, format="json")

    assert response.status_code == 400
    assert response.json() == {"code": code, "detail": detail}
    assert not MessageReport.objects.exists()


def test_reporting_needs_a_login(hello, anon):
    response = anon.post(report_url(hello), {"reason": "Rude"}, format="json")

    assert response.status_code == 401
    assert not MessageReport.objects.exists()


def test_an_unreadable_message_cannot_be_reported(private_game, alice, carol_api):
    secret = post(private_game, alice, "Just between us")

    response = carol_api.post(report_url(secret), {"reason": "Rude"}, format="json")

    assert response.status_code == 404
    assert response.json() == {
        "code": "game_not_found",
        "detail": f"There is no game #{private_game.pk}.",
    }
    assert not MessageReport.objects.exists()


def test_a_message_is_reported_only_under_its_own_game(hello, alice, bob, carol_api):
    other = services.game_start(players=[bob, alice])
    url = f"{messages_url(other.pk)}{hello.pk}/report/"

    response = carol_api.post(url, {"reason": "Rude"}, format="json")

    assert response.status_code == 404
    assert response.json() == {
        "code": "message_not_found",
        "detail": f"There is no message #{hello.pk} in game #{other.pk}.",
    }


def test_a_hidden_message_cannot_be_reported(hello, moderator, carol_api):
    services.message_hide(
        game_id=hello.game_id, message_id=hello.pk, moderator=moderator, reason="x"
    )

    response = carol_api.post(report_url(hello), {"reason": "Rude"}, format="json")

    assert (response.status_code, response.json()["code"]) == (409, "message_hidden")


# --- hiding -------------------------------------------------------------------------------


def test_a_moderator_hides_a_message(hello, moderator, mod_api, carol_api, bob_api, anon):
    carol_api.post(report_url(hello), {"reason": "Rude"}, format="json")
    bob_api.post(report_url(hello), {"reason": "Taunting"}, format="json")

    response = mod_api.post(hide_url(hello), {"reason": "Insults"}, format="json")

    assert response.status_code == 200
    assert response.json() | {"created_at": None} == {
        "id": hello.pk,
        "author": {"username": "alice", "display_name": "alice"},
        "created_at": None,
        "hidden": True,
        "body": "Good luck, have fun!",
        "hidden_reason": "Insults",
    }
    hello.refresh_from_db()
    assert (hello.hidden_by, hello.hidden_reason, hello.is_hidden) == (moderator, "Insults", True)
    assert set(MessageReport.objects.values_list("resolved_at", flat=True)) == {hello.hidden_at}


def test_hiding_is_written_to_the_audit_log(hello, moderator, mod_api):
    mod_api.post(hide_url(hello), {"reason": "Insults"}, format="json")

    [entry] = AuditEntry.objects.all()
    assert (entry.action, entry.actor, entry.reason) == ("message_hide", moderator, "Insults")
    assert entry.target == hello
    assert entry.data == {
        "game": hello.game_id,
        "author": hello.author_id,
        "body": "Good luck, have fun!",
        "reports_resolved": 0,
    }


def test_others_see_a_placeholder_and_moderators_the_body(hello, bob, mod_api, anon, bob_api):
    post(hello.game, bob, "Thanks!")
    mod_api.post(hide_url(hello), {"reason": "Insults"}, format="json")

    for client in (anon, bob_api):
        [hidden, visible] = client.get(messages_url(hello.game_id)).json()["results"]
        assert (hidden["id"], hidden["hidden"], hidden["body"], hidden["hidden_reason"]) == (
            hello.pk,
            True,
            None,
            None,
        )
        assert hidden["author"]["username"] == "alice"
        assert (visible["hidden"], visible["body"], visible["hidden_reason"]) == (
            False,
            "Thanks!",
            None,
        )
    [hidden, _] = mod_api.get(messages_url(hello.game_id)).json()["results"]
    assert (hidden["body"], hidden["hidden_reason"]) == ("Good luck, have fun!", "Insults")


def test_only_moderators_hide(hello, bob_api, carol_api):
    staff_without_permission = token_client(make_moderator("staff"))
    for client in (bob_api, carol_api, staff_without_permission):
        response = client.post(hide_url(hello), {"reason": "Insults"}, format="json")
        assert response.status_code == 403
        assert response.json() == {
            "code": "not_a_moderator",
            "detail": "Only moderators can hide messages.",
        }
    hello.refresh_from_db()
    assert not hello.is_hidden
    assert not AuditEntry.objects.exists()


def test_hiding_twice_is_a_conflict(hello, mod_api):
    mod_api.post(hide_url(hello), {"reason": "Insults"}, format="json")

    again = mod_api.post(hide_url(hello), {"reason": "Again"}, format="json")

    assert again.status_code == 409
    assert again.json()["code"] == "message_hidden"
    assert again.json()["detail"].startswith(f"Message #{hello.pk} was already hidden on ")
    assert AuditEntry.objects.count() == 1


def test_hiding_needs_a_reason(hello, mod_api):
    response = mod_api.post(hide_url(hello), {"reason": ""}, format="json")

    assert response.status_code == 400
    assert response.json() == {
        "code": "reason_required",
        "detail": "The reason is empty: write 1 to 300 characters.",
    }
    hello.refresh_from_db()
    assert not hello.is_hidden


def test_hiding_a_missing_message_is_404(game, mod_api):
    response = mod_api.post(f"{messages_url(game.pk)}999999/hide/", {"reason": "x"}, format="json")

    assert response.status_code == 404
    assert response.json() == {
        "code": "message_not_found",
        "detail": f"There is no message #999999 in game #{game.pk}.",
    }
