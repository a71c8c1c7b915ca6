"""A ladder played through its challenge games, with every place checked after each change.

Rules: challenge up to 2 places above, a time forfeit costs 2 places, 30 days without a
challenge game and you leave. Players a … f join in that order at T0 (places 1 … 6).
"""

from __future__ import annotations

import pytest

from games.models import Game
from games.timeouts import game_timeouts_decide
from ladders import services
from ladders.models import LadderChallenge, LadderEvent
from ladders.tasks import advance_ladders
from notifications.models import OutboxEmail
from tests.accounts.factories import make_moderator, make_user
from tests.ladders.conftest import DAY, T0, finish, first_move, names

pytestmark = pytest.mark.django_db


def test_a_ladder_climbed_defended_timed_out_drawn_and_left(make_ladder, clock, commit):
    ladder = make_ladder(challenge_range=2, timeout_drop_places=2, inactivity_days=30)
    p = {name: make_user(name) for name in "abcdef"}
    arbiter = make_moderator("arbiter")

    def challenge(challenger: str, defender: str, day: int) -> LadderChallenge:
        clock(T0 + day * DAY)
        with commit():
            return services.ladder_challenge(
                ladder_id=ladder.pk, challenger=p[challenger], defender_id=p[defender].pk
            )

    for name in "abcdef":
        services.ladder_join(ladder_id=ladder.pk, user=p[name])
    assert names(ladder) == ["a", "b", "c", "d", "e", "f"]

    # 1. e (5) beats c (3): e takes place 3, c and d move down one.
    first = challenge("e", "c", day=1)
    assert (first.challenger_place, first.defender_place) == (5, 3)
    assert first.game.seat_users() == [p["e"], p["c"]]
    clock(T0 + 2 * DAY)
    finish(first.game, "1-0", commit=commit)
    assert names(ladder) == ["a", "b", "e", "c", "d", "f"]

    # 2. f (6) loses to d (5): nothing moves.
    second = challenge("f", "d", day=3)
    clock(T0 + 4 * DAY)
    finish(second.game, "0-1", commit=commit)
    assert names(ladder) == ["a", "b", "e", "c", "d", "f"]

    # 3. c (4) challenges b (2), moves, and b never answers: c wins on time and takes
    #    place 2 (b, e move down), then b drops 2 places for the time forfeit.
    third = challenge("c", "b", day=5)
    first_move(third.game)
    clock(T0 + 9 * DAY)  # 3 days per move: b's deadline was T0 + 8 days
    with commit():
        assert game_timeouts_decide(now=T0 + 9 * DAY) == [third.game_id]
    assert Game.objects.get(pk=third.game_id).termination == Game.Termination.TIMEOUT
    assert names(ladder) == ["a", "c", "e", "d", "b", "f"]
    result, drop = (
        LadderEvent.objects.filter(challenge=third).exclude(kind="challenged").order_by("pk")
    )
    assert (result.kind, result.order_after) == (
        LadderEvent.Kind.RESULT,
        [p[n].pk for n in ["a", "c", "b", "e", "d", "f"]],
    )
    assert (result.place_before, result.place_after) == (4, 2)  # c, the challenger
    assert (result.opponent_place_before, result.opponent_place_after) == (2, 3)  # b
    assert (drop.kind, drop.player_id, drop.place_before, drop.place_after) == (
        LadderEvent.Kind.DROPPED,
        p["b"].pk,
        3,
        5,
    )

    # 4. d (4) draws with e (3): nothing moves.
    fourth = challenge("d", "e", day=10)
    clock(T0 + 11 * DAY)
    finish(fourth.game, "1/2-1/2", commit=commit, arbiter=arbiter)
    assert names(ladder) == ["a", "c", "e", "d", "b", "f"]

    # 5. c (2) loses to a (1): nothing moves; a has now played too.
    fifth = challenge("c", "a", day=12)
    clock(T0 + 13 * DAY)
    finish(fifth.game, "0-1", commit=commit)
    assert names(ladder) == ["a", "c", "e", "d", "b", "f"]

    # 6. f's last game ended at T0 + 4 days: gone 30 days later, b (T0 + 9) not yet.
    clock(T0 + 34 * DAY)
    assert advance_ladders() == {"recorded": [], "removed": [p["f"].pk]}
    assert names(ladder) == ["a", "c", "e", "d", "b"]
    assert advance_ladders() == {"recorded": [], "removed": []}  # safe to run twice

    # 7. b's last game was decided at T0 + 9 days: gone at T0 + 39; d and e (T0 + 11) stay.
    clock(T0 + 39 * DAY)
    assert advance_ladders() == {"recorded": [], "removed": [p["b"].pk]}
    assert names(ladder) == ["a", "c", "e", "d"]

    kinds = list(ladder.events.order_by("pk").values_list("kind", flat=True))
    assert kinds == ["joined"] * 6 + [
        "challenged", "result",  # e beats c
        "challenged", "result",  # d beats f
        "challenged", "result", "dropped",  # c beats b on time
        "challenged", "result",  # d draws e
        "challenged", "result",  # a beats c
        "inactive",  # f
        "inactive",  # b
    ]  # fmt: skip
    last = ladder.events.order_by("pk").last()
    assert (last.player_id, last.place_before, last.place_after) == (p["b"].pk, 5, None)
    assert last.order_after == [p[n].pk for n in ["a", "c", "e", "d"]]
    assert list(ladder.challenges.order_by("pk").values_list("winner__username", flat=True)) == [
        "e",
        "d",
        "c",
        None,
        "a",
    ]


def test_the_emails_name_the_challenge_and_the_new_places(make_ladder, clock, commit):
    ladder = make_ladder(timeout_drop_places=2)
    x, y, z = make_user("x"), make_user("y"), make_user("z")
    for user in (x, y, z):
        services.ladder_join(ladder_id=ladder.pk, user=user)
    with commit():
        made = services.ladder_challenge(ladder_id=ladder.pk, challenger=z, defender_id=x.pk)
    received = OutboxEmail.objects.get(event="ladder_challenge")
    assert received.recipient == x
    assert received.subject == "Club Ladder: z challenges you for place 1"
    assert "z (place 3) challenges you (place 1)" in received.body_text
    finish(made.game, "1-0", commit=commit)
    results = {e.recipient.username: e for e in OutboxEmail.objects.filter(event="ladder_result")}
    assert results["z"].subject == "Club Ladder: you won against x; you are now in place 1"
    assert results["x"].subject == "Club Ladder: you lost against z; you are now in place 2"
    assert "You were in place 3; you are now in place 1." in results["z"].body_text


def test_a_time_forfeit_near_the_bottom_drops_only_to_the_bottom_and_the_email_says_so(
    make_ladder, clock, commit
):
    ladder = make_ladder(challenge_range=3, timeout_drop_places=2)
    p = {name: make_user(name) for name in ("w", "x", "y", "z")}
    for name in ("w", "x", "y", "z"):
        services.ladder_join(ladder_id=ladder.pk, user=p[name])
    with commit():
        made = services.ladder_challenge(
            ladder_id=ladder.pk, challenger=p["z"], defender_id=p["x"].pk
        )
    first_move(made.game)
    clock(T0 + 4 * DAY)
    with commit():
        game_timeouts_decide(now=T0 + 4 * DAY)
    # z takes place 2 (x, y move down), then x drops 2 places but only 1 is left below.
    assert names(ladder) == ["w", "z", "y", "x"]
    email = OutboxEmail.objects.get(event="ladder_result", recipient=p["x"])
    assert email.subject == "Club Ladder: you lost against z; you are now in place 4"
    assert "You were in place 2; you are now in place 4. Losing on time costs 1 place." in (
        email.body_text
    )


def test_players_who_turned_challenge_emails_off_get_none(make_ladder, commit):
    ladder = make_ladder()
    quiet, keen = make_user("quiet"), make_user("keen")
    profile = quiet.profile
    profile.notify_challenge = False
    profile.save()
    for user in (quiet, keen):
        services.ladder_join(ladder_id=ladder.pk, user=user)
    with commit():
        services.ladder_challenge(ladder_id=ladder.pk, challenger=keen, defender_id=quiet.pk)
    assert not OutboxEmail.objects.filter(event="ladder_challenge").exists()


def test_a_player_removed_during_the_game_is_told_so_in_words(
    make_ladder, organiser, clock, commit
):
    ladder = make_ladder()
    x, z = make_user("x"), make_user("z")
    for user in (x, z):
        services.ladder_join(ladder_id=ladder.pk, user=user)
    with commit():
        made = services.ladder_challenge(ladder_id=ladder.pk, challenger=z, defender_id=x.pk)
    services.ladder_player_remove(
        ladder_id=ladder.pk, actor=organiser, player_id=z.pk, reason="Left the club"
    )
    finish(made.game, "1-0", commit=commit)
    email = OutboxEmail.objects.get(event="ladder_result", recipient=z)
    assert email.subject == "Club Ladder: you won against x; you are no longer on the ladder"
    assert "You are no longer on the ladder." in email.body_text
