"""The Swiss options on the pages: the settings on the manage form, a half-point bye asked
for and taken back on the event's page, the organiser's byes and forbidden pairs, and a
late entry."""

from __future__ import annotations

import pytest

from moderation.models import AuditEntry
from tests.tournaments.conftest import register_all
from tests.tournaments.test_pages import login, messages_of
from tournaments import services
from tournaments.models import Bye, Entry, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss(make_tournament, organiser, players):
    """A running Swiss of p1..p5, late entries until round 2, one half-point bye each."""
    tournament = make_tournament(
        name="Oak Swiss",
        format="swiss",
        rounds_planned=4,
        late_entry_last_round=2,
        half_point_byes_max=1,
    )
    register_all(tournament, players[:5])
    services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    return Tournament.objects.get(pk=tournament.pk)


def test_the_settings_form_has_the_swiss_options(make_tournament, organiser):
    tournament = make_tournament(name="Pine Swiss", format="swiss", rounds_planned=5)
    client = login(organiser)
    url = f"/tournaments/{tournament.pk}/manage/"
    form = client.get(url).context["form"]
    data = {
        name: value
        for name, value in ((n, form[n].value()) for n in form.fields)
        if value is not None and value is not False
    }
    data.update(
        late_entry_last_round=3,
        late_entry_bye="H",
        half_point_byes_max=2,
        forfeits_to_withdraw=2,
        accelerated="on",
    )
    saved = client.post(url, data, follow=True)
    assert messages_of(saved) == ["Settings saved."]
    tournament.refresh_from_db()
    assert (
        tournament.late_entry_last_round,
        tournament.late_entry_bye,
        tournament.half_point_byes_max,
        tournament.forfeits_to_withdraw,
        tournament.accelerated,
    ) == (3, "H", 2, 2, True)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Late entries until round 3 (half a point per round missed)" in page
    assert "withdrawn after 2 forfeit losses; Baku acceleration" in page


def test_a_player_asks_for_a_bye_and_takes_it_back(swiss, players):
    client = login(players[1])
    page = client.get(f"/tournaments/{swiss.pk}/").content.decode()
    assert "Ask for a half-point bye" in page
    asked = client.post(f"/tournaments/{swiss.pk}/byes/", {"round": "3"}, follow=True)
    assert messages_of(asked) == ["You have a half-point bye in round 3."]
    assert "Half-point bye in round 3" in asked.content.decode()
    again = client.post(f"/tournaments/{swiss.pk}/byes/", {"round": "4"}, follow=True)
    assert any("allows 1 half-point bye(s)" in m for m in messages_of(again))
    back = client.post(f"/tournaments/{swiss.pk}/byes/cancel/", {"round": "3"}, follow=True)
    assert messages_of(back) == ["Your bye in round 3 is taken back: you will be paired."]
    assert not Bye.objects.filter(round__tournament=swiss, kind="H").exists()
    bad = client.post(f"/tournaments/{swiss.pk}/byes/", {"round": "three"}, follow=True)
    assert messages_of(bad) == ["A round number is expected, not 'three'."]


def test_the_organiser_enters_an_absence_and_forbidden_pairs(swiss, organiser, players):
    client = login(organiser)
    manage = f"/tournaments/{swiss.pk}/manage/"
    assert "Byes and absences ahead" in client.get(manage).content.decode()
    p3 = Entry.objects.get(tournament=swiss, player=players[2])
    entered = client.post(
        f"{manage}byes/",
        {"entry": p3.pk, "kind": "Z", "round": 2, "reason": "no answer", "back": "manage"},
        follow=True,
    )
    assert messages_of(entered) == ["p3: zero-point bye in round 2."]
    assert "Round 2: p3, zero-point bye" in entered.content.decode()
    assert AuditEntry.objects.get(action="tournament_bye").reason == "no answer"
    missing = client.post(f"{manage}byes/", {"entry": p3.pk, "kind": "Z"}, follow=True)
    assert any(m.startswith("Choose the player, the kind") for m in messages_of(missing))

    url = f"{manage}forbidden-pairs/"
    unknown = client.post(url, {"pairs": "p1 nobody", "reason": "club"}, follow=True)
    assert messages_of(unknown) == ["Not a player of Oak Swiss: nobody."]
    shape = client.post(url, {"pairs": "p1 p2 p3", "reason": "club"}, follow=True)
    assert messages_of(shape) == ["Line 1: expected two usernames, found 'p1 p2 p3'."]
    saved = client.post(
        url, {"pairs": "p1 p2\n\nP4 p5", "reason": "same club", "back": "manage"}, follow=True
    )
    assert messages_of(saved) == ["2 forbidden pairs saved."]
    entries = {e.name: e.pk for e in swiss.entries.all()}
    swiss.refresh_from_db()
    assert swiss.forbidden_pairs == sorted(
        [sorted([entries["p1"], entries["p2"]]), sorted([entries["p4"], entries["p5"]])]
    )
    html = saved.content.decode()
    assert "p1 p2\np4 p5" in html  # shown back in the form


def test_a_late_entry_from_the_event_page(swiss, players):
    client = login(players[5])
    page = client.get(f"/tournaments/{swiss.pk}/").content.decode()
    assert "A late entry: you start in round 2" in page
    done = client.post(f"/tournaments/{swiss.pk}/register/", follow=True)
    assert messages_of(done) == ["You are registered in Oak Swiss."]
    entry = Entry.objects.get(tournament=swiss, player=players[5])
    assert (entry.status, entry.seed, entry.joined_round) == ("active", 6, 2)
