"""The Swiss options through the API: settings, forbidden pairs, byes asked for by players
and entered by the organiser, a late entry."""

from __future__ import annotations

import pytest

from moderation.models import AuditEntry
from tests.accounts.factories import make_user
from tests.games.conftest import token_client
from tests.tournaments.conftest import grant
from tournaments.models import Bye, Entry

pytestmark = pytest.mark.django_db

T = "/api/v1/tournaments"


@pytest.fixture
def event(commit):
    """A Swiss of four (ann, ben, cai, dee) created and run through the API."""
    organiser = grant(make_user("orga"), "organise_tournament")
    names = ("ann", "ben", "cai", "dee")
    clients = {user.username: token_client(user) for user in [organiser, *map(make_user, names)]}
    created = clients["orga"].post(
        f"{T}/",
        {
            "name": "Lughnasa Swiss",
            "format": "swiss",
            "rounds_planned": 3,
            "late_entry_last_round": 2,
            "late_entry_bye": "H",
            "half_point_byes_max": 1,
            "forfeits_to_withdraw": 2,
            "accelerated": False,
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    tournament_id = created.json()["id"]
    clients["orga"].post(f"{T}/{tournament_id}/open-registration/")
    for name in names:
        assert clients[name].post(f"{T}/{tournament_id}/register/").status_code == 201
    return tournament_id, clients


def entry_id(tournament_id: int, name: str) -> int:
    return Entry.objects.get(tournament_id=tournament_id, name=name).pk


def test_settings_and_forbidden_pairs(event, commit):
    tournament_id, clients = event
    orga = clients["orga"]
    ann, cai = entry_id(tournament_id, "ann"), entry_id(tournament_id, "cai")
    assert (
        clients["ann"]
        .put(f"{T}/{tournament_id}/forbidden-pairs/", {"pairs": [[ann, cai]]}, format="json")
        .status_code
        == 403
    )
    bad = orga.put(f"{T}/{tournament_id}/forbidden-pairs/", {"pairs": [[ann, 0]]}, format="json")
    assert (bad.status_code, bad.json()["code"]) == (400, "unknown_entry")
    done = orga.put(f"{T}/{tournament_id}/forbidden-pairs/", {"pairs": [[cai, ann]]}, format="json")
    assert done.json() == {"forbidden_pairs": [[ann, cai]]}
    with commit():
        assert orga.post(f"{T}/{tournament_id}/start/").status_code == 200
    detail = orga.get(f"{T}/{tournament_id}/").json()
    assert detail["forbidden_pairs"] == [[ann, cai]]
    assert {k: detail["rules"][k] for k in ("late_entry_last_round", "late_entry_bye")} == {
        "late_entry_last_round": 2,
        "late_entry_bye": "H",
    }
    assert detail["rules"]["half_point_byes_max"] == 1
    assert detail["rules"]["forfeits_to_withdraw"] == 2
    games = detail["rounds"][0]["games"]
    assert {frozenset((g["orange"], g["blue"])) for g in games} == {
        frozenset(("ann", "dee")),
        frozenset(("cai", "ben")),
    }  # not ann-cai, the first round's S1-S2 pairing
    no_reason = orga.put(f"{T}/{tournament_id}/forbidden-pairs/", {"pairs": []}, format="json")
    assert (no_reason.status_code, no_reason.json()["code"]) == (400, "reason_required")


def test_byes_requested_taken_back_and_entered_by_the_organiser(event, commit):
    tournament_id, clients = event
    orga, ben = clients["orga"], clients["ben"]
    with commit():
        orga.post(f"{T}/{tournament_id}/start/")
    asked = ben.post(f"{T}/{tournament_id}/byes/", {}, format="json")
    assert asked.status_code == 201
    assert asked.json() == {
        "entry_id": entry_id(tournament_id, "ben"),
        "name": "ben",
        "kind": "H",
        "round": 2,
    }
    again = ben.post(f"{T}/{tournament_id}/byes/", {"round": 3}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "bye_limit_reached")
    paired = ben.post(f"{T}/{tournament_id}/byes/", {"round": 1}, format="json")
    assert (paired.status_code, paired.json()["code"]) == (409, "round_paired")
    assert ben.delete(f"{T}/{tournament_id}/byes/2/").status_code == 204
    gone = ben.delete(f"{T}/{tournament_id}/byes/2/")
    assert (gone.status_code, gone.json()["code"]) == (409, "no_bye")

    dee = entry_id(tournament_id, "dee")
    url = f"{T}/{tournament_id}/entries/{dee}/bye/"
    refused = ben.post(url, {"kind": "Z", "reason": "x"}, format="json")
    assert refused.status_code == 403
    wrong = orga.post(url, {"kind": "U", "reason": "x"}, format="json")
    assert (wrong.status_code, wrong.json()["code"]) == (400, "invalid_bye_kind")
    absent = orga.post(url, {"kind": "Z", "round": 3, "reason": "no reply"}, format="json")
    assert absent.status_code == 201 and absent.json()["round"] == 3
    assert Bye.objects.get(entry_id=dee).kind == "Z"
    assert AuditEntry.objects.get(action="tournament_bye").reason == "no reply"


def test_a_late_entry_through_the_api(event, commit):
    tournament_id, clients = event
    with commit():
        clients["orga"].post(f"{T}/{tournament_id}/start/")
    late = token_client(make_user("eve"))
    entered = late.post(f"{T}/{tournament_id}/register/", {}, format="json")
    assert entered.status_code == 201
    assert (entered.json()["seed"], entered.json()["joined_round"]) == (5, 2)
    assert entered.json()["status"] == "active"
