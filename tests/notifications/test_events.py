"""Who hears about what: the event hooks, the daily digest and deadline reminders."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail

from games import services as game_services
from games.clock import ClockKind, TimeControl
from notifications import events
from notifications.models import OutboxEmail
from notifications.services import digests_send, outbox_muted
from notifications.tasks import send_daily_digests, send_deadline_reminders
from tests.accounts.factories import make_user
from tests.notifications.conftest import set_profile

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def rows() -> list[tuple[str, str]]:
    return list(OutboxEmail.objects.order_by("pk").values_list("recipient__username", "subject"))


def test_challenge_received_goes_to_the_challenged_player(alice, bob):
    challenge = game_services.challenge_create(challenger=alice, opponent=bob, message="Fancy one?")
    events.on_challenge_received(challenge)
    [row] = OutboxEmail.objects.all()
    assert (row.recipient, row.event) == (bob, "challenge_received")
    assert row.subject.startswith("Alice A. challenges you to a game of Celtic! [celtic:0-")
    assert "a rated game: 3 days per move." in row.body_text
    assert 'Their message: "Fancy one?"' in row.body_text
    assert "https://celtic.example/challenges/" in row.body_text


def test_open_seek_notifies_no_one(alice):
    events.on_challenge_received(game_services.challenge_create(challenger=alice))
    assert OutboxEmail.objects.count() == 0


def test_challenge_turned_off_silences_challenges(alice, bob):
    set_profile(bob, notify_challenge=False)
    events.on_challenge_received(game_services.challenge_create(challenger=alice, opponent=bob))
    assert OutboxEmail.objects.count() == 0


def test_challenge_declined_tells_the_challenger_once(alice, bob):
    challenge = game_services.challenge_create(
        challenger=alice, opponent=bob, rated=False, time_control=TimeControl(days_per_move=5)
    )
    game_services.challenge_decline(challenge_id=challenge.pk, user=bob)
    events.on_challenge_declined(challenge)  # a second call queues nothing more
    [row] = OutboxEmail.objects.filter(event="challenge_declined")
    assert (row.recipient, row.subject) == (alice, "bob declined your challenge")
    assert "bob declined your unrated challenge: 5 days per move." in row.body_text
    assert "/challenges/" in row.body_text


def test_a_declined_fischer_challenge_names_its_clock_without_nested_brackets(alice, bob):
    fischer = TimeControl(kind=ClockKind.FISCHER, bank_days=10, increment_days=2, max_days=20)
    challenge = game_services.challenge_create(challenger=alice, opponent=bob, time_control=fischer)
    game_services.challenge_decline(challenge_id=challenge.pk, user=bob)
    [row] = OutboxEmail.objects.filter(event="challenge_declined")
    expected = "bob declined your rated challenge: 10 days + 2 per move (at most 20)."
    assert expected in row.body_text
    assert expected in row.body_html


def test_a_cancelled_challenge_tells_no_one(alice, bob):
    challenge = game_services.challenge_create(challenger=alice, opponent=bob)
    OutboxEmail.objects.all().delete()  # the challenge itself, sent to bob
    game_services.challenge_cancel(challenge_id=challenge.pk, user=alice)
    assert OutboxEmail.objects.count() == 0


def test_challenge_turned_off_silences_a_decline(alice, bob):
    set_profile(alice, notify_challenge=False)
    challenge = game_services.challenge_create(challenger=alice, opponent=bob)
    game_services.challenge_decline(challenge_id=challenge.pk, user=bob)
    assert not OutboxEmail.objects.filter(event="challenge_declined").exists()


def test_challenge_accepted_tells_the_challenger(alice, bob):
    challenge = game_services.challenge_create(challenger=alice, opponent=bob, seat_choice=1)
    game = game_services.challenge_accept(challenge_id=challenge.pk, user=bob)
    events.on_challenge_accepted(challenge, game)  # a second call queues nothing more
    [row] = OutboxEmail.objects.filter(event="challenge_accepted")
    assert row.recipient == alice
    assert row.subject == f"bob accepted your challenge: game #{game.pk}"
    assert "you play Orange; 3 days per move, rated." in row.body_text
    assert "You move first, before " in row.body_text
    assert row.game == game


def test_game_started_tells_both_players_who_moves_first(alice, bob, game):
    events.on_game_started(game)
    by_user = {row.recipient.username: row for row in OutboxEmail.objects.all()}
    assert "You move first" in by_user["alice"].body_text
    assert "bob moves first" not in by_user["alice"].body_text
    bob_body = by_user["bob"].body_text
    assert "Alice A. moves first; we will tell you when it is your turn." in bob_body


def test_game_finished_tells_each_player_their_outcome(alice, bob, game):
    game = game_services.game_resign(game_id=game.pk, user=bob)
    events.on_game_finished(game)
    events.on_game_finished(game)  # twice: still one email each
    assert rows() == [
        ("alice", f"Game #{game.pk} against bob: you won"),
        ("bob", f"Game #{game.pk} against Alice A.: you lost"),
    ]
    body = OutboxEmail.objects.get(recipient=bob).body_text
    assert "you lost (1-0).\nBlue resigned: Orange wins (1-0)." in body


def test_game_end_turned_off_silences_results(alice, bob, game):
    set_profile(alice, notify_game_end=False)
    events.on_game_finished(game_services.game_resign(game_id=game.pk, user=bob))
    assert [user for user, _ in rows()] == ["bob"]


def test_daily_digest_collects_held_turns_into_one_email(
    alice, bob, django_capture_on_commit_callbacks
):
    set_profile(alice, email_digest=True)
    carol = make_user("carol")
    games = [game_services.game_start(players=[alice, other]) for other in (bob, carol)]
    for game in games:
        events.on_turn(game)
    assert mail.outbox == []

    with django_capture_on_commit_callbacks(execute=True):
        assert send_daily_digests.apply().get() == 1
    [email] = mail.outbox
    assert email.to == ["alice@example.org"]
    assert email.subject == "Your Celtic! digest: 2 updates"
    assert f"- Your move against bob (game #{games[0].pk})" in email.body
    assert f"https://celtic.example/games/{games[1].pk}/" in email.body
    digest = OutboxEmail.objects.get(event="daily_digest")
    assert set(digest.digest_items.values_list("status", flat=True)) == {"sent"}
    assert digest.digest_items.count() == 2

    assert digests_send() == []  # nothing left to collect
    assert len(mail.outbox) == 1


def test_digest_leaves_out_turns_already_played(alice, bob, game):
    set_profile(alice, email_digest=True)
    events.on_turn(game)
    with outbox_muted():  # the turn is played: it is bob's now
        game_services.move_submit(game_id=game.pk, user=alice, expected_ply=0, notation="d5 ESW")
    assert digests_send() == []
    assert mail.outbox == []
    assert OutboxEmail.objects.get(event="your_turn").status == "sent"  # consumed, not resent


def test_deadline_reminder_a_day_before_a_three_day_deadline(
    alice, bob, django_capture_on_commit_callbacks
):
    with time_machine.travel(T0, tick=False):
        game = game_services.game_start(players=[alice, bob])  # deadline T0 + 3 days
    with time_machine.travel(T0 + timedelta(days=1, hours=23), tick=False):
        assert send_deadline_reminders.apply().get() == 0
    with (
        time_machine.travel(T0 + timedelta(days=2, hours=1), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert send_deadline_reminders.apply().get() == 1
        assert send_deadline_reminders.apply().get() == 0  # already sent
    [email] = mail.outbox
    assert email.subject.startswith(f"23 h 0 min left in game #{game.pk} against bob [celtic:")
    assert "Deadline: Thu 5 Mar 2026, 09:00 GMT." in email.body  # Europe/Dublin, winter
