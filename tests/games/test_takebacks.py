"""Takebacks both players agree to: asking before the opponent moves, accepting (the move
removed, the position and both clocks as they were) or declining, which games allow it, the
audit, the API and the game page."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from celticsite.errors import Conflict, NotPermitted
from games import selectors, services
from games.clock import ClockKind, TimeControl
from games.models import Game, Move, TakebackRequest
from moderation.models import AuditEntry
from tests.games.conftest import API
from tests.seats import to_move
from tournaments.models import Entry, Round, Tournament, TournamentGame

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)  # a Monday
DAY = timedelta(days=1)


def first_move(game: Game) -> str:
    return str(sorted(selectors.game_position(game=game).legal_choices(), key=str)[0])


def play(game: Game, user) -> Game:
    services.move_submit(
        game_id=game.pk, user=user, expected_ply=game.ply, notation=first_move(game)
    )
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def clock():
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


@pytest.fixture
def unrated(alice, bob, clock) -> Game:
    return services.game_start(players=[alice, bob], rated=False)


def test_accepting_removes_the_move_and_gives_back_the_time_it_had(unrated, alice, bob, clock):
    clock.move_to(T0 + DAY)  # alice moves with 2 of her 3 days left
    moved = play(unrated, alice)
    clock.move_to(T0 + 2 * DAY)
    services.takeback_request(game_id=unrated.pk, user=alice, expected_ply=1)
    clock.move_to(T0 + 3 * DAY)  # bob answers a day later

    services.takeback_answer(game_id=unrated.pk, user=bob, accept=True)

    game = Game.objects.get(pk=unrated.pk)
    assert (game.ply, to_move(game), Move.objects.filter(game=game).count()) == (0, "orange", 0)
    assert game.turn_started_at == T0 + 3 * DAY
    assert game.deadline == T0 + 3 * DAY + 2 * DAY  # the 2 days she had when she moved
    assert moved.seat_time_left(2) == game.seat_time_left(2)  # bob loses nothing either
    assert selectors.game_position(game=game).steps == ()
    actions = list(AuditEntry.objects.order_by("pk").values_list("action", "actor__username"))
    assert actions == [("takeback_request", "alice"), ("takeback_accept", "bob")]


def test_a_fischer_bank_is_restored_to_what_it_was_before_the_move(alice, bob, clock) -> None:
    fischer = TimeControl(kind=ClockKind.FISCHER, bank_days=7, increment_days=1, max_days=9)
    game = services.game_start(players=[alice, bob], rated=False, time_control=fischer)
    clock.move_to(T0 + 3 * DAY)
    moved = play(game, alice)
    assert moved.seat_time_left(1) == 5 * DAY  # 7 - 3 + 1
    services.takeback_request(game_id=game.pk, user=alice, expected_ply=1)
    clock.move_to(T0 + 4 * DAY)

    services.takeback_answer(game_id=game.pk, user=bob, accept=True)

    game.refresh_from_db()
    assert (game.seat_time_left(1), game.seat_time_left(2)) == (7 * DAY, 7 * DAY)
    assert game.deadline == T0 + 4 * DAY + 4 * DAY  # the 4 days she had left when she moved
    again = play(game, alice)  # at once: the 3 days she had used still count, no more
    assert again.ply == 1 and again.seat_time_left(1) == 5 * DAY


def test_declining_changes_nothing_and_a_move_is_asked_back_once(unrated, alice, bob) -> None:
    play(unrated, alice)
    services.takeback_request(game_id=unrated.pk, user=alice, expected_ply=1)

    declined = services.takeback_answer(game_id=unrated.pk, user=bob, accept=False)

    assert declined.status == TakebackRequest.Status.DECLINED
    assert Game.objects.get(pk=unrated.pk).ply == 1
    with pytest.raises(Conflict) as again:
        services.takeback_request(game_id=unrated.pk, user=alice, expected_ply=1)
    assert again.value.code == "takeback_already_asked"
    assert AuditEntry.objects.filter(action="takeback_decline").count() == 1


def test_no_takeback_once_the_opponent_has_moved(unrated, alice, bob) -> None:
    play(unrated, alice)
    services.takeback_request(game_id=unrated.pk, user=alice, expected_ply=1)
    game = play(Game.objects.get(pk=unrated.pk), bob)  # the request lapses

    with pytest.raises(Conflict) as lapsed:
        services.takeback_answer(game_id=game.pk, user=bob, accept=True)
    assert lapsed.value.code == "no_takeback"
    with pytest.raises(Conflict) as late:
        services.takeback_request(game_id=game.pk, user=alice, expected_ply=game.ply)
    assert late.value.code == "nothing_to_take_back"
    assert Game.objects.get(pk=game.pk).ply == 2


def test_only_the_opponent_answers_and_only_the_mover_asks(unrated, alice, bob) -> None:
    play(unrated, alice)
    with pytest.raises(Conflict):
        services.takeback_request(game_id=unrated.pk, user=bob, expected_ply=1)
    services.takeback_request(game_id=unrated.pk, user=alice, expected_ply=1)

    with pytest.raises(Conflict) as own:
        services.takeback_answer(game_id=unrated.pk, user=alice, accept=True)
    assert own.value.code == "no_takeback"


def test_rated_games_allow_it_only_if_created_so(alice, bob) -> None:
    plain = play(services.game_start(players=[alice, bob]), alice)
    with pytest.raises(NotPermitted) as refused:
        services.takeback_request(game_id=plain.pk, user=alice, expected_ply=1)
    assert "created without takebacks" in refused.value.detail

    allowed = play(services.game_start(players=[alice, bob], takebacks=True), alice)
    assert services.takeback_request(game_id=allowed.pk, user=alice, expected_ply=1).move


def test_never_in_a_tournament_game(alice, bob) -> None:
    game = play(services.game_start(players=[alice, bob], rated=False, takebacks=True), alice)
    event = Tournament.objects.create(name="Cup", organiser=bob)
    entries = [
        Entry.objects.create(tournament=event, player=p, name=p.username, status="active")
        for p in (alice, bob)
    ]
    TournamentGame.objects.create(
        tournament=event,
        round=Round.objects.create(tournament=event, number=1),
        game=game,
        orange=entries[0],
        blue=entries[1],
        board=1,
    )

    with pytest.raises(NotPermitted) as refused:
        services.takeback_request(game_id=game.pk, user=alice, expected_ply=1)
    assert "never possible in tournament" in refused.value.detail


def test_the_api_asks_shows_and_accepts(unrated, alice, alice_api, bob_api) -> None:
    play(unrated, alice)
    url = f"{API}/games/{unrated.pk}/takeback/"

    asked = alice_api.post(url, {"ply": 1}, format="json")
    pending = bob_api.get(url).json()["pending"]
    accepted = bob_api.post(f"{url}accept/")

    assert asked.status_code == 201 and asked.json()["status"] == "pending"
    assert pending["move"] == asked.json()["move"] and pending["requester"]["username"] == "alice"
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    assert alice_api.get(f"{API}/games/{unrated.pk}/").json()["ply"] == 0
    assert bob_api.get(url).json() == {"pending": None}


def test_a_challenge_with_takebacks_makes_a_game_that_allows_them(alice_api, bob_api) -> None:
    made = alice_api.post(
        f"{API}/challenges/", {"opponent": "bob", "takebacks": True}, format="json"
    ).json()
    game = bob_api.post(f"{API}/challenges/{made['id']}/accept/").json()

    assert made["takebacks"] is True and game["takebacks"] is True


def test_the_game_page_offers_the_takeback_and_the_answer(unrated, alice, bob) -> None:
    move = play(unrated, alice).moves.get().notation
    page = reverse("games:game", args=[unrated.pk])
    asker, answerer = Client(), Client()
    asker.force_login(alice)
    answerer.force_login(bob)

    assert f"Ask to take back {move}" in asker.get(page).content.decode()
    assert "Ask to take back" not in answerer.get(page).content.decode()
    asker.post(reverse("games:game_takeback", args=[unrated.pk]), {"ply": 1})
    assert f"Your opponent asks to take back <strong>{move}</strong>" in (
        answerer.get(page).content.decode()
    )
    answered = answerer.post(reverse("games:game_takeback_accept", args=[unrated.pk]), follow=True)

    assert f"{move} taken back" in answered.content.decode()
    assert Game.objects.get(pk=unrated.pk).ply == 0
