"""The organiser actions in the admin: each behind its own permission, reasons audited."""

from __future__ import annotations

import pytest
import time_machine
from django.contrib.auth.models import Permission, User
from django.urls import reverse

from moderation.models import AuditEntry
from tests.accounts.factories import make_user
from tests.tournaments.conftest import T0, grant, register_all
from tournaments import services
from tournaments.models import Entry, Tournament, TournamentGame

pytestmark = pytest.mark.django_db

GAMES = reverse("admin:tournaments_tournamentgame_changelist")
ENTRIES = reverse("admin:tournaments_entry_changelist")


def staff(username: str, *codenames: str) -> User:
    user = make_user(username)
    user.is_staff = True
    user.save()
    for codename in ("view_tournament", "view_entry", "view_tournamentgame", *codenames):
        user.user_permissions.add(
            Permission.objects.get(codename=codename, content_type__app_label="tournaments")
        )
    return User.objects.get(pk=user.pk)


@pytest.fixture
def running(make_tournament, organiser, players, commit) -> Tournament:
    with time_machine.travel(T0, tick=False):
        tournament = make_tournament()
        register_all(tournament, players[:4])
        with commit():
            services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    return tournament


def test_actions_follow_permissions(client, running):
    viewer = staff("viewer")
    client.force_login(viewer)
    page = client.get(GAMES)
    assert page.status_code == 200
    assert b'value="adjudicate"' not in page.content
    arbiter = staff("arbiter", "adjudicate_tournament_game")
    client.force_login(arbiter)
    assert b'value="adjudicate"' in client.get(GAMES).content
    assert b'value="remove"' not in client.get(ENTRIES).content


def test_adjudicate_asks_a_reason_then_decides_and_audits(client, running, commit):
    arbiter = staff("arbiter", "adjudicate_tournament_game")
    client.force_login(arbiter)
    link = TournamentGame.objects.filter(tournament=running).order_by("board").first()
    form = {"action": "adjudicate", "_selected_action": [link.pk]}
    asked = client.post(GAMES, form)
    assert asked.status_code == 200
    assert b"Adjudicate tournament games" in asked.content
    with commit():
        done = client.post(
            GAMES, {**form, "confirm": "yes", "reason": "no moves in 30 days", "result": "0-1"}
        )
    assert done.status_code == 302
    link.refresh_from_db()
    assert link.result == TournamentGame.Result.BLUE_WINS
    entry = AuditEntry.objects.get(action="game_adjudicate")
    assert (entry.actor, entry.reason) == (arbiter, "no moves in 30 days")


def test_remove_a_player_with_a_reason(client, running, players, commit):
    manager = grant(staff("manager"), "manage_tournament_entries")
    client.force_login(manager)
    entry = Entry.objects.get(tournament=running, player=players[2])
    with commit():
        client.post(
            ENTRIES,
            {
                "action": "remove",
                "_selected_action": [entry.pk],
                "confirm": "yes",
                "reason": "abusive messages",
            },
        )
    entry.refresh_from_db()
    assert entry.status == Entry.Status.REMOVED
    assert AuditEntry.objects.get(action="tournament_remove").reason == "abusive messages"


def test_an_arbiter_opens_the_lists_their_actions_are_on(running, client):
    """Staff holding the entries and adjudicate permissions, and no view permission: the
    lists of entries, games and knockout matches open (read-only); events' list does not, as
    its actions are the organiser's."""
    arbiter = make_user("arbiter")
    arbiter.is_staff = True
    arbiter.save()
    client.force_login(grant(arbiter, "manage_tournament_entries", "adjudicate_tournament_game"))

    status = {
        model: client.get(reverse(f"admin:tournaments_{model}_changelist")).status_code
        for model in ("entry", "tournamentgame", "knockoutmatch", "tournament", "bye")
    }
    entry = running.entries.first()

    assert status == {
        "entry": 200,
        "tournamentgame": 200,
        "knockoutmatch": 200,
        "tournament": 403,
        "bye": 403,
    }
    assert client.get(reverse("admin:tournaments_entry_change", args=[entry.pk])).status_code == 200
    assert client.get(reverse("admin:tournaments_entry_add")).status_code == 403
