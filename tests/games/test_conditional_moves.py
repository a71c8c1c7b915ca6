"""Conditional moves: "if my opponent plays X, I play Y", queued while the opponent is to move.

In these games alice plays Orange (to move first) and bob Blue, so bob's lines answer
alice's next move. From the start, "d5 ESW" is legal for Orange and "c5 ESW" for Blue after
it; then Orange may play "b5 E" and Blue "c4 N".
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from celticsite.errors import DomainError
from games import errors, selectors, services
from games.clock import ClockKind, TimeControl
from games.models import ConditionalLine, Game, Move
from games.services import moves as move_services
from notifications.email_events import Event
from notifications.models import OutboxEmail
from tests.games.conftest import API
from tests.seats import side, to_move

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def lines_url(game_id: int) -> str:
    return f"{API}/games/{game_id}/conditional-moves/"


@pytest.fixture
def fischer_game(alice, bob) -> Game:
    tc = TimeControl(kind=ClockKind.FISCHER, bank_days=10, increment_days=2, max_days=11)
    return services.game_start(players=[alice, bob], time_control=tc, now=START)


def queue(game: Game, user, *moves: str, ply: int = 0) -> ConditionalLine:
    return services.conditional_line_create(
        game_id=game.pk, user=user, expected_ply=ply, moves=list(moves)
    )


def recorded(game: Game) -> list[tuple[int, str, str]]:
    return [(m.ply, side(m), m.notation) for m in Move.objects.filter(game=game)]


# --- the reply is played --------------------------------------------------------------------


def test_a_matching_reply_is_played_at_once_with_both_clocks_run(fischer_game, alice, bob):
    queue(fischer_game, bob, "d5 ESW", "c5 ESW")
    moved_at = START + timedelta(days=1, hours=12)

    outcome = services.move_submit(
        game_id=fischer_game.pk, user=alice, expected_ply=0, notation="d5 ESW", now=moved_at
    )

    assert [(t.ply, side(t), t.notation) for t in outcome.turns] == [
        (0, "orange", "d5 ESW"),
        (1, "blue", "c5 ESW"),
    ]
    game = Game.objects.get(pk=fischer_game.pk)
    assert recorded(game) == [(0, "orange", "d5 ESW"), (1, "blue", "c5 ESW")]
    assert (game.ply, to_move(game)) == (2, "orange")
    assert game.seat_time_left(1) == timedelta(days=10.5)  # 10 - 1.5 + 2
    assert game.seat_time_left(2) == 11 * DAY  # 10 - 0 + 2, capped at 11
    assert game.turn_started_at == moved_at
    assert game.deadline == moved_at + timedelta(days=10.5)
    assert not ConditionalLine.objects.exists()


def test_the_reply_is_part_of_the_opponents_move_only_the_mover_is_told(
    game, alice, bob, django_capture_on_commit_callbacks
):
    """One transaction: bob is never told it is his turn, alice is told once, at ply 2."""
    queue(game, bob, "d5 ESW", "c5 ESW")
    OutboxEmail.objects.all().delete()

    with django_capture_on_commit_callbacks(execute=True):
        services.move_submit(game_id=game.pk, user=alice, expected_ply=0, notation="d5 ESW")

    turn_emails = OutboxEmail.objects.filter(event=Event.YOUR_TURN)
    assert list(turn_emails.values_list("recipient__username", flat=True)) == ["alice"]


def test_if_the_reply_cannot_be_recorded_the_opponents_move_is_not_either(
    game, alice, bob, monkeypatch
):
    queue(game, bob, "d5 ESW", "c5 ESW")
    real_record = move_services._move_record

    def fail_on_the_reply(game, *, seat, **rest):
        if seat == 2:
            raise RuntimeError("disk full")
        return real_record(game, seat=seat, **rest)

    monkeypatch.setattr(move_services, "_move_record", fail_on_the_reply)
    with pytest.raises(RuntimeError, match="disk full"):
        services.move_submit(game_id=game.pk, user=alice, expected_ply=0, notation="d5 ESW")

    assert recorded(game) == []
    assert ConditionalLine.objects.count() == 1


def test_a_longer_line_keeps_its_rest_for_the_next_move(game, alice, bob):
    queue(game, bob, "d5 ESW", "c5 ESW", "b5 E", "c4 N")

    services.move_submit(game_id=game.pk, user=alice, expected_ply=0, notation="d5 ESW")

    line = ConditionalLine.objects.get()
    assert (line.owner, line.start_ply, line.trigger, line.moves) == (
        bob,
        2,
        "b5 E",
        ["b5 E", "c4 N"],
    )
    services.move_submit(game_id=game.pk, user=alice, expected_ply=2, notation="b5 E")
    assert recorded(game)[2:] == [(2, "orange", "b5 E"), (3, "blue", "c4 N")]
    assert not ConditionalLine.objects.exists()


def test_notation_is_compared_in_its_canonical_form(game, alice, bob):
    line = queue(game, bob, "d5 wse", "c5  sew")
    assert line.moves == ["d5 ESW", "c5 ESW"]

    services.move_submit(game_id=game.pk, user=alice, expected_ply=0, notation="d5 SWE")

    assert recorded(game)[1] == (1, "blue", "c5 ESW")


# --- lines that no longer match ---------------------------------------------------------------


def test_a_different_move_drops_every_line_and_plays_nothing(game, alice, bob):
    queue(game, bob, "d5 ESW", "c5 ESW")
    queue(game, bob, "d5 EW", "c5 E")

    services.move_submit(game_id=game.pk, user=alice, expected_ply=0, notation="d5 ES")

    assert recorded(game) == [(0, "orange", "d5 ES")]
    game.refresh_from_db()
    assert (game.ply, to_move(game)) == (1, "blue")
    assert not ConditionalLine.objects.exists()


def test_of_several_lines_the_matching_one_is_played_and_the_others_dropped(game, alice, bob):
    queue(game, bob, "d5 ES", "d4 N")
    queue(game, bob, "d5 ESW", "c5 ESW", "b5 E", "c4 N")
    queue(game, bob, "d5 EW", "c5 EW")

    services.move_submit(game_id=game.pk, user=alice, expected_ply=0, notation="d5 ESW")

    assert recorded(game)[1] == (1, "blue", "c5 ESW")
    assert list(ConditionalLine.objects.values_list("trigger", flat=True)) == ["b5 E"]


def test_a_continuation_is_dropped_when_the_opponent_deviates(game, alice, bob):
    queue(game, bob, "d5 ESW", "c5 ESW", "b5 E", "c4 N")
    services.move_submit(game_id=game.pk, user=alice, expected_ply=0, notation="d5 ESW")

    services.move_submit(game_id=game.pk, user=alice, expected_ply=2, notation="b5 ES")

    assert recorded(game)[2:] == [(2, "orange", "b5 ES")]
    assert not ConditionalLine.objects.exists()


def test_a_line_with_the_same_first_move_replaces_the_earlier_one(game, bob):
    first = queue(game, bob, "d5 ESW", "c5 ESW")
    second = queue(game, bob, "d5 ESW", "c5 E")

    assert second.pk == first.pk
    assert list(ConditionalLine.objects.values_list("moves", flat=True)) == [["d5 ESW", "c5 E"]]


# --- refused lines --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("moves", "code", "message"),
    [
        (["d5 ESW"], "invalid_line", "2 to 10 moves in pairs .*; 1 were given"),
        (["d5 ESW", "c5 ESW", "b5 E"], "invalid_line", "; 3 were given"),
        (["d5 ESW", "c5 ESW"] * 6, "invalid_line", "; 12 were given"),
        (["d5 ESW", "c5 XYZ"], "invalid_notation", r"^Move 2 \(your reply\): "),
        (
            ["d5 ESW", "d5 ESW"],
            "illegal_move",
            r"^Move 2 \(your reply\) is illegal after d5 ESW: d5 ESW: d5 already holds a tile",
        ),
        (
            ["a1 N", "c5 ESW"],
            "illegal_move",
            r"^Move 1 \(your opponent's move\) is illegal in the current position: a1 N: ",
        ),
    ],
)
def test_a_line_that_is_not_legal_in_sequence_is_refused_and_nothing_stored(
    game, bob, moves, code, message
):
    with pytest.raises(DomainError, match=message) as caught:
        queue(game, bob, *moves)

    assert caught.value.code == code
    assert not ConditionalLine.objects.exists()


def test_an_illegal_move_names_its_place_in_the_line_and_its_rule(game, bob):
    with pytest.raises(errors.IllegalMove) as caught:
        queue(game, bob, "d5 ESW", "d5 ESW")

    assert caught.value.extra == {"rule": "occupied", "index": 2}


def test_on_your_own_turn_you_play_instead(game, alice):
    with pytest.raises(errors.NotYourTurn, match="It is your turn: play your move now") as caught:
        queue(game, alice, "d5 ESW", "c5 ESW")
    assert caught.value.code == "your_turn"


def test_a_stale_ply_is_refused(game, alice, bob):
    services.move_submit(game_id=game.pk, user=alice, expected_ply=0, notation="d5 ESW")

    with pytest.raises(errors.StalePly, match="at ply 1, not 0"):
        queue(game, alice, "c5 ESW", "b5 E", ply=0)


def test_outsiders_and_finished_games_are_refused(game, alice, bob, carol):
    with pytest.raises(errors.NotAPlayer):
        queue(game, carol, "d5 ESW", "c5 ESW")
    services.game_resign(game_id=game.pk, user=alice)
    with pytest.raises(errors.GameNotActive):
        queue(game, bob, "d5 ESW", "c5 ESW")


# --- who sees them ----------------------------------------------------------------------------


def test_only_the_owner_lists_their_lines(game, alice, bob, carol):
    line = queue(game, bob, "d5 ESW", "c5 ESW")

    assert list(selectors.conditional_line_list(game=game, user=bob)) == [line]
    assert list(selectors.conditional_line_list(game=game, user=alice)) == []
    with pytest.raises(errors.GameNotFound):
        selectors.conditional_line_list(game=game, user=carol)


def test_api_create_list_and_delete_for_the_owner(game, bob_api):
    response = bob_api.post(
        lines_url(game.pk), {"ply": 0, "moves": ["d5 ESW", "c5 ESW"]}, format="json"
    )
    assert response.status_code == 201, response.json()
    created = response.json()
    assert (created["start_ply"], created["moves"]) == (0, ["d5 ESW", "c5 ESW"])

    listed = bob_api.get(lines_url(game.pk)).json()
    assert [(row["id"], row["moves"]) for row in listed] == [(created["id"], ["d5 ESW", "c5 ESW"])]

    deleted = bob_api.delete(f"{lines_url(game.pk)}{created['id']}/")
    assert deleted.status_code == 204
    assert bob_api.get(lines_url(game.pk)).json() == []


def test_api_refusal_names_the_move_and_rule(game, bob_api):
    response = bob_api.post(
        lines_url(game.pk), {"ply": 0, "moves": ["d5 ESW", "d5 ESW"]}, format="json"
    )

    assert response.status_code == 400
    body = response.json()
    assert (body["code"], body["rule"], body["index"]) == ("illegal_move", "occupied", 2)
    assert body["detail"].startswith("Move 2 (your reply) is illegal after d5 ESW")


def test_api_others_cannot_see_or_delete_a_line(game, bob, alice_api, carol_api):
    line = queue(game, bob, "d5 ESW", "c5 ESW")

    assert alice_api.get(lines_url(game.pk)).json() == []
    assert alice_api.delete(f"{lines_url(game.pk)}{line.pk}/").status_code == 404
    assert carol_api.get(lines_url(game.pk)).status_code == 404
    assert carol_api.delete(f"{lines_url(game.pk)}{line.pk}/").status_code == 404
    assert ConditionalLine.objects.filter(pk=line.pk).exists()


def test_api_opponents_move_answers_with_both_turns(game, bob, alice_api):
    queue(game, bob, "d5 ESW", "c5 ESW")

    response = alice_api.post(f"{API}/games/{game.pk}/moves/", {"ply": 0, "move": "d5 ESW"})

    assert response.status_code == 201
    assert [t["notation"] for t in response.json()["turns"]] == ["d5 ESW", "c5 ESW"]
