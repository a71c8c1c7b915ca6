"""Who may run an event, at the services: its organiser while they hold the organiser
permission, a superuser, and staff holding the entries or adjudicate permission for those
actions only (``selectors.tournament_can_manage``, the rule the API and pages apply too)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Permission, User

from celticsite.errors import DomainError
from tests.accounts.factories import make_superuser, make_user
from tests.tournaments.conftest import grant, register_all
from tournaments import services
from tournaments.models import Entry, Tournament, TournamentGame

pytestmark = pytest.mark.django_db


def _refused(call: Callable[[], Any]) -> str:
    with pytest.raises(DomainError) as caught:
        call()
    return caught.value.code


def _staff(username: str, *codenames: str) -> User:
    user = make_user(username)
    user.is_staff = True
    user.save()
    return grant(user, *codenames)


def _running(make_tournament: Any, players: list[User], organiser: User) -> Tournament:
    tournament = make_tournament()
    register_all(tournament, players[:4])
    return services.tournament_start(tournament_id=tournament.pk, actor=organiser)


def _first_link(tournament: Tournament) -> TournamentGame:
    return tournament.games.order_by("board").first()


def test_another_organiser_cannot_run_the_event(make_tournament, players, organiser):
    rival = grant(make_user("rival"), "organise_tournament")
    draft = make_tournament(open_registration=False)
    tid = draft.pk

    assert {
        "update": _refused(
            lambda: services.tournament_update(tournament_id=tid, actor=rival, description="x")
        ),
        "publish": _refused(
            lambda: services.tournament_registration_open(tournament_id=tid, actor=rival)
        ),
        "cancel": _refused(
            lambda: services.tournament_cancel(tournament_id=tid, actor=rival, reason="mine now")
        ),
    } == {"update": "not_organiser", "publish": "not_organiser", "cancel": "not_organiser"}
    services.tournament_registration_open(tournament_id=tid, actor=organiser)
    register_all(draft, players[:4])
    assert _refused(lambda: services.tournament_start(tournament_id=tid, actor=rival)) == (
        "not_organiser"
    )
    assert Tournament.objects.get(pk=tid).status == Tournament.Status.REGISTRATION


def test_another_organiser_cannot_touch_a_running_event(make_tournament, players, organiser):
    rival = grant(make_user("rival"), "organise_tournament", "adjudicate_tournament_game")
    tournament = _running(make_tournament, players, organiser)
    link = _first_link(tournament)

    code = _refused(
        lambda: services.tournament_game_adjudicate(
            tournament_game_id=link.pk, actor=rival, result="1-0", reason="I say so"
        )
    )
    dates = _refused(
        lambda: services.round_dates_set(
            tournament_id=tournament.pk, actor=rival, round_number=1, ends_at=None
        )
    )

    assert (code, dates) == ("not_organiser", "not_organiser")  # not staff: no arbiter's rights
    assert TournamentGame.objects.get(pk=link.pk).result == TournamentGame.Result.PENDING


def test_an_organiser_who_lost_the_permission_loses_control(make_tournament, organiser):
    tournament = make_tournament(open_registration=False)
    organiser.user_permissions.remove(
        Permission.objects.get(
            codename="organise_tournament", content_type__app_label="tournaments"
        )
    )
    former = User.objects.get(pk=organiser.pk)

    assert _refused(
        lambda: services.tournament_update(
            tournament_id=tournament.pk, actor=former, description="still mine?"
        )
    ) == ("not_organiser")
    assert _refused(
        lambda: services.tournament_registration_open(tournament_id=tournament.pk, actor=former)
    ) == ("not_organiser")
    assert Tournament.objects.get(pk=tournament.pk).description == ""


def test_staff_with_the_adjudicate_permission_adjudicate_only(
    make_tournament, players, organiser, commit
):
    arbiter = _staff("arbiter", "adjudicate_tournament_game")
    tournament = _running(make_tournament, players, organiser)
    link = _first_link(tournament)

    with commit():
        services.tournament_game_adjudicate(
            tournament_game_id=link.pk, actor=arbiter, result="0-1", reason="no moves"
        )
    cancel = _refused(
        lambda: services.tournament_cancel(
            tournament_id=tournament.pk, actor=arbiter, reason="not theirs"
        )
    )
    remove = _refused(
        lambda: services.entry_remove(
            entry_id=tournament.entries.first().pk, actor=arbiter, reason="not theirs"
        )
    )

    assert TournamentGame.objects.get(pk=link.pk).result == TournamentGame.Result.BLUE_WINS
    assert (cancel, remove) == ("not_organiser", "not_organiser")
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING


def test_the_permission_without_staff_status_is_not_enough(make_tournament, players, organiser):
    tournament = make_tournament(registration_mode="approval")
    register_all(tournament, players[:1])
    entry = tournament.entries.get()
    clerk = grant(make_user("clerk"), "manage_tournament_entries")  # not staff

    assert _refused(lambda: services.entry_approve(entry_id=entry.pk, actor=clerk)) == (
        "not_organiser"
    )
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.PENDING


def test_staff_with_the_entries_permission_manage_entries_only(make_tournament, players):
    tournament = make_tournament(registration_mode="approval")
    register_all(tournament, players[:1])
    entry = tournament.entries.get()
    clerk = _staff("clerk", "manage_tournament_entries")

    services.entry_approve(entry_id=entry.pk, actor=clerk)
    start = _refused(lambda: services.tournament_start(tournament_id=tournament.pk, actor=clerk))

    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.APPROVED
    assert start == "not_organiser"


def test_a_superuser_and_the_organiser_run_it(make_tournament, players, organiser, commit):
    root = make_superuser("root")
    tournament = make_tournament()
    register_all(tournament, players[:4])
    services.tournament_start(tournament_id=tournament.pk, actor=root)
    link = _first_link(tournament)

    with commit():  # the organiser needs no games moderator permission for their own event
        services.tournament_game_adjudicate(
            tournament_game_id=link.pk, actor=organiser, result="1-0", reason="no moves"
        )

    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING
    assert TournamentGame.objects.get(pk=link.pk).result == TournamentGame.Result.ORANGE_WINS
