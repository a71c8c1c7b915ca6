"""Ladder services: each refusal with its code, and the paths around results."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from celticsite.errors import DomainError
from games import services as game_services
from ladders import services
from ladders.audit import LADDER_REMOVE
from ladders.models import Ladder, LadderChallenge, LadderEvent
from moderation.models import AuditEntry
from tests.accounts.factories import make_moderator, make_user
from tests.ladders.conftest import DAY, T0, finish, grant, names

pytestmark = pytest.mark.django_db


def code_of(call, **kwargs) -> str:
    with pytest.raises(DomainError) as caught:
        call(**kwargs)
    return caught.value.code


@pytest.fixture
def four(make_ladder):
    """A ladder (range 2, 1 open challenge each, rematch after 7 days) with a, b, c, d."""
    ladder = make_ladder(challenge_range=2, max_open_challenges=1, rematch_days=7)
    users = {name: make_user(name) for name in "abcd"}
    for name in "abcd":
        services.ladder_join(ladder_id=ladder.pk, user=users[name])
    return ladder, users


def test_only_organisers_create_ladders_and_bad_settings_are_named_together(db, organiser):
    assert (
        code_of(services.ladder_create, organiser=make_user("nobody"), name="X")
        == "organiser_permission_required"
    )
    with pytest.raises(DomainError) as caught:
        services.ladder_create(organiser=organiser, name=" ", challenge_range=0, inactivity_days=1)
    assert caught.value.code == "invalid_settings"
    assert set(caught.value.extra["errors"]) == {"name", "challenge_range", "inactivity_days"}
    assert (
        code_of(services.ladder_create, organiser=organiser, name="X", prize=3) == "unknown_setting"
    )
    services.ladder_create(organiser=organiser, name="Club")
    with pytest.raises(DomainError) as caught:
        services.ladder_create(organiser=organiser, name="club")
    assert caught.value.extra["errors"] == {"name": "There is already a ladder called 'club'."}
    assert Ladder.objects.count() == 1


def test_join_and_leave_refusals(four):
    ladder, p = four
    assert code_of(services.ladder_join, ladder_id=ladder.pk, user=p["a"]) == "already_on_ladder"
    assert code_of(services.ladder_join, ladder_id=999, user=p["a"]) == "ladder_not_found"
    suspended = make_user("suspended")
    suspended.is_active = False
    assert code_of(services.ladder_join, ladder_id=ladder.pk, user=suspended) == "inactive_user"
    stranger = make_user("stranger")
    assert code_of(services.ladder_leave, ladder_id=ladder.pk, user=stranger) == "not_on_ladder"
    services.ladder_challenge(ladder_id=ladder.pk, challenger=p["c"], defender_id=p["a"].pk)
    assert code_of(services.ladder_leave, ladder_id=ladder.pk, user=p["a"]) == "challenge_in_play"
    services.ladder_leave(ladder_id=ladder.pk, user=p["b"])
    assert names(ladder) == ["a", "c", "d"]
    services.ladder_join(ladder_id=ladder.pk, user=p["b"])  # back, at the bottom
    assert names(ladder) == ["a", "c", "d", "b"]


@pytest.mark.parametrize(
    ("challenger", "defender", "code"),
    [
        ("c", "c", "self_challenge"),
        ("c", "d", "not_above"),
        ("d", "a", "out_of_range"),
        ("x", "a", "not_on_ladder"),
        ("c", "x", "opponent_not_on_ladder"),
    ],
)
def test_challenge_refusals_about_who(four, challenger, defender, code):
    ladder, p = four
    p["x"] = make_user("x")
    assert (
        code_of(
            services.ladder_challenge,
            ladder_id=ladder.pk,
            challenger=p[challenger],
            defender_id=p[defender].pk,
        )
        == code
    )
    assert not LadderChallenge.objects.exists()


def test_challenge_refusals_about_limits_and_rematches(four, clock, commit):
    ladder, p = four

    def refused(challenger: str, defender: str) -> str:
        return code_of(
            services.ladder_challenge,
            ladder_id=ladder.pk,
            challenger=p[challenger],
            defender_id=p[defender].pk,
        )

    made = services.ladder_challenge(ladder_id=ladder.pk, challenger=p["c"], defender_id=p["b"].pk)
    assert refused("c", "b") == "pair_already_playing"
    assert refused("c", "a") == "too_many_open_challenges"
    assert refused("d", "b") == "opponent_too_busy"
    clock(T0 + DAY)
    finish(made.game, "0-1", commit=commit)  # b defends
    clock(T0 + 8 * DAY - DAY / 24)
    assert refused("c", "b") == "rematch_too_soon"
    clock(T0 + 8 * DAY)
    services.ladder_challenge(ladder_id=ladder.pk, challenger=p["c"], defender_id=p["b"].pk)
    assert ladder.challenges.count() == 2


def test_a_suspended_player_cannot_be_challenged(four):
    ladder, p = four
    p["a"].is_active = False
    p["a"].save()
    assert (
        code_of(
            services.ladder_challenge, ladder_id=ladder.pk, challenger=p["b"], defender_id=p["a"].pk
        )
        == "opponent_inactive"
    )


def test_a_result_is_recorded_once_and_a_later_adjudication_changes_nothing(four, commit):
    ladder, p = four
    made = services.ladder_challenge(ladder_id=ladder.pk, challenger=p["c"], defender_id=p["a"].pk)
    finish(made.game, "1-0", commit=commit)
    assert names(ladder) == ["c", "a", "b", "d"]
    assert services.ladder_game_ended(game_id=made.game_id) is False
    moderator = make_moderator()
    with commit():
        game_services.game_adjudicate(
            game_id=made.game_id, actor=moderator, result="0-1", reason="fair play check"
        )
    assert names(ladder) == ["c", "a", "b", "d"]
    assert ladder.events.filter(kind=LadderEvent.Kind.RESULT).count() == 1


def test_an_annulled_game_voids_the_challenge(four, commit):
    ladder, p = four
    made = services.ladder_challenge(ladder_id=ladder.pk, challenger=p["b"], defender_id=p["a"].pk)
    with commit():
        game_services.game_annul(game_id=made.game_id, actor=make_moderator(), reason="bug")
    made.refresh_from_db()
    assert made.status == LadderChallenge.Status.VOID and made.winner is None
    assert names(ladder) == ["a", "b", "c", "d"]
    assert ladder.events.get(kind=LadderEvent.Kind.RESULT).note == (
        "The game was annulled: no change."
    )


def test_the_beat_records_a_result_whose_message_was_lost(four):
    ladder, p = four
    made = services.ladder_challenge(ladder_id=ladder.pk, challenger=p["c"], defender_id=p["a"].pk)
    game_services.game_resign(game_id=made.game_id, user=p["a"])  # no commit: no hook ran
    assert names(ladder) == ["a", "b", "c", "d"]
    assert services.ladders_advance(now=T0) == {"recorded": [made.game_id], "removed": []}
    assert names(ladder) == ["c", "a", "b", "d"]


def test_organiser_removal_needs_the_organiser_and_a_reason_and_is_audited(four, organiser):
    ladder, p = four
    assert (
        code_of(
            services.ladder_player_remove,
            ladder_id=ladder.pk,
            actor=p["a"],
            player_id=p["b"].pk,
            reason="x",
        )
        == "not_organiser"
    )
    assert (
        code_of(
            services.ladder_player_remove,
            ladder_id=ladder.pk,
            actor=organiser,
            player_id=p["b"].pk,
            reason=" ",
        )
        == "reason_required"
    )
    staff = make_user("staff")
    staff.is_staff = True  # the permission works for staff only: the organiser rule
    staff.save()
    staff = grant(staff, "manage_ladder_players")
    services.ladder_player_remove(
        ladder_id=ladder.pk, actor=staff, player_id=p["b"].pk, reason="left the club"
    )
    assert names(ladder) == ["a", "c", "d"]
    entry = AuditEntry.objects.get(action=LADDER_REMOVE)
    assert (entry.actor, entry.reason, entry.data) == (
        staff,
        "left the club",
        {"player_id": p["b"].pk, "place": 2},
    )
    assert (
        code_of(
            services.ladder_player_remove,
            ladder_id=ladder.pk,
            actor=organiser,
            player_id=p["b"].pk,
            reason="again",
        )
        == "not_on_ladder"
    )


def test_removal_follows_the_organiser_rule_of_every_competition(four, organiser):
    """A non-staff holder of ``manage_ladder_players`` (who organises ladders of their own)
    removes nobody from another organiser's ladder, and an organiser who lost
    ``organise_ladder`` no longer removes from theirs (``organiser_or_staff_may``)."""
    ladder, p = four
    rival = grant(make_user("rival"), "organise_ladder", "manage_ladder_players")
    lapsed = User.objects.get(pk=organiser.pk)
    lapsed.user_permissions.clear()
    lapsed = User.objects.get(pk=organiser.pk)

    refused = {
        who: code_of(
            services.ladder_player_remove,
            ladder_id=ladder.pk,
            actor=actor,
            player_id=p["b"].pk,
            reason="x",
        )
        for who, actor in (("rival", rival), ("lapsed", lapsed))
    }

    assert refused == {"rival": "not_organiser", "lapsed": "not_organiser"}
    assert names(ladder) == ["a", "b", "c", "d"]
