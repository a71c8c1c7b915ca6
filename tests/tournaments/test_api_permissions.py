"""Who may call each tournaments endpoint, as one table for the roles only tournaments have
(the organiser, another organiser, the arbiter; the project's nine roles are in
``tests/security/matrix/tournaments.py``), then every error path with the code it answers.

Roles: ``anon`` (no login), ``player`` (registered in the event), ``outsider`` (logged in, not
in it), ``organiser`` (organises it, holds the organiser permission), ``other_org`` (holds the
organiser permission, organises other events), ``staff`` (staff, no tournament permission),
``arbiter`` (staff holding the adjudicate and manage-entries permissions), ``superuser``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games import services as game_services
from tests.accounts.factories import make_superuser, make_user
from tests.games.conftest import token_client
from tests.tournaments.conftest import grant
from tournaments import services
from tournaments.models import Entry, KnockoutMatch, Tournament

pytestmark = pytest.mark.django_db

T = "/api/v1/tournaments"
ROLES = ("anon", "player", "outsider", "organiser", "other_org", "staff", "arbiter", "superuser")
TRF_FILE = Path(__file__).parent / "trf" / "data" / "celtic_open.trf"


@dataclass
class World:
    users: dict[str, User]
    others: list[User]  # three more registered players
    clients: dict[str, APIClient] = field(default_factory=dict)

    def event(self, *, open_registration: bool = True, **settings: Any) -> Tournament:
        """An event of ``organiser`` with ``player`` and the three others registered."""
        settings.setdefault("name", f"Event {Tournament.objects.count() + 1}")
        organiser = self.users["organiser"]
        tournament = services.tournament_create(organiser=organiser, **settings)
        if open_registration:
            services.tournament_registration_open(tournament_id=tournament.pk, actor=organiser)
            for user in [self.users["player"], *self.others]:
                services.tournament_register(tournament_id=tournament.pk, user=user)
        return Tournament.objects.get(pk=tournament.pk)

    def running(self, **settings: Any) -> Tournament:
        tournament = self.event(**settings)
        services.tournament_start(tournament_id=tournament.pk, actor=self.users["organiser"])
        return Tournament.objects.get(pk=tournament.pk)


@pytest.fixture
def world(db) -> World:
    staff = make_user("staff")
    staff.is_staff = True
    staff.save()
    arbiter = make_user("arbiter")
    arbiter.is_staff = True
    arbiter.save()
    users = {
        "player": make_user("player"),
        "outsider": make_user("outsider"),
        "organiser": grant(make_user("organiser"), "organise_tournament"),
        "other_org": grant(make_user("other_org"), "organise_tournament"),
        "staff": staff,
        "arbiter": grant(arbiter, "adjudicate_tournament_game", "manage_tournament_entries"),
        "superuser": make_superuser("superuser"),
    }
    make_user("guest")  # someone to invite
    return World(users=users, others=[make_user(f"p{i}") for i in range(2, 5)])


def client_for(world: World, role: str) -> APIClient:
    """The role's client, logged in with a real API token (made once per role)."""
    if role == "anon":
        return APIClient()
    if role not in world.clients:
        world.clients[role] = token_client(world.users[role])
    return world.clients[role]


# A case: the request (method, path and body, built from the world) and the status each role
# gets, in the order of ROLES.
Request = Callable[[World], tuple[str, str, dict[str, Any] | None]]


def _reason(extra: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"reason": "checked by the arbiter", **(extra or {})}


def _entry_of(tournament: Tournament, username: str) -> int:
    return Entry.objects.get(tournament=tournament, player__username=username).pk


def _first_game(tournament: Tournament) -> int:
    return tournament.games.order_by("board").first().pk


def _ended_game(tournament: Tournament) -> int:
    """The first pairing, its game resigned by Blue (a result the organiser may fix)."""
    link = tournament.games.order_by("board").select_related("game").first()
    game_services.game_resign(game_id=link.game.pk, user=link.game.user_at(2))
    return link.pk


def _round_one_decided(w: World) -> Tournament:
    """A running event on dates, round 1 adjudicated, round 2 waiting for its date."""
    tournament = w.running(round_start_mode="on_dates", round_interval_days=7)
    for link in tournament.games.filter(round__number=1):
        services.tournament_game_adjudicate(
            tournament_game_id=link.pk, actor=w.users["organiser"], result="1-0", reason="done"
        )
    return tournament


def _manual_pairs(w: World) -> tuple[str, str, dict[str, Any]]:
    tournament = _round_one_decided(w)
    ids = list(tournament.entries.order_by("seed").values_list("pk", flat=True))
    body = _reason({"pairs": [[ids[0], ids[3]], [ids[1], ids[2]]]})
    return "post", f"{T}/{tournament.pk}/pairings/", body


def _trf_import(w: World) -> tuple[str, str, dict[str, Any]]:
    return "post", f"{T}/import-trf/", {"trf": TRF_FILE.read_text(), "name": ""}


def _pending_entry(w: World) -> tuple[str, str, None]:
    tournament = w.event(registration_mode="approval")  # the four registered are pending
    return "post", f"{T}/{tournament.pk}/entries/{_entry_of(tournament, 'p2')}/approve/", None


def _pending_entry_decline(w: World) -> tuple[str, str, None]:
    method, path, body = _pending_entry(w)
    return method, path.replace("/approve/", "/decline/"), body


def _first_match(w: World) -> tuple[Tournament, KnockoutMatch]:
    tournament = w.running(format="knockout")
    return tournament, KnockoutMatch.objects.filter(round__tournament=tournament).first()


def _match_decide(w: World) -> tuple[str, str, dict[str, Any]]:
    tournament, match = _first_match(w)
    body = _reason({"winner_entry_id": match.higher_id})
    return "post", f"{T}/{tournament.pk}/matches/{match.pk}/decide/", body


CASES: dict[str, tuple[Request, tuple[int, ...]]] = {
    # reading            anon player outsider organiser other_org staff arbiter superuser
    "list": (lambda w: ("get", f"{T}/", None), (200, 200, 200, 200, 200, 200, 200, 200)),
    "detail": (
        lambda w: ("get", f"{T}/{w.event().pk}/", None),
        (200, 200, 200, 200, 200, 200, 200, 200),
    ),
    "detail of a private event": (
        lambda w: ("get", f"{T}/{w.event(public=False).pk}/", None),
        (404, 200, 404, 200, 404, 404, 200, 200),
    ),
    "standings of a private event": (
        lambda w: ("get", f"{T}/{w.running(public=False).pk}/standings/", None),
        (404, 200, 404, 200, 404, 404, 200, 200),
    ),
    "crosstable": (
        lambda w: ("get", f"{T}/{w.running().pk}/crosstable/", None),
        (200, 200, 200, 200, 200, 200, 200, 200),
    ),
    "round table of a private event": (
        lambda w: ("get", f"{T}/{w.running(public=False).pk}/rounds-table/", None),
        (404, 200, 404, 200, 404, 404, 200, 200),
    ),
    "bracket of a private knockout": (
        lambda w: ("get", f"{T}/{w.running(public=False, format='knockout').pk}/bracket/", None),
        (404, 200, 404, 200, 404, 404, 200, 200),
    ),
    "TRF export": (
        lambda w: ("get", f"{T}/{w.running().pk}/trf/", None),
        (200, 200, 200, 200, 200, 200, 200, 200),
    ),
    "detail of a draft": (
        lambda w: ("get", f"{T}/{w.event(open_registration=False).pk}/", None),
        (404, 404, 404, 200, 404, 404, 200, 200),
    ),
    # players
    "register": (
        lambda w: ("post", f"{T}/{w.event().pk}/register/", {}),
        (401, 409, 201, 201, 201, 201, 201, 201),
    ),
    "register in a private event": (
        lambda w: ("post", f"{T}/{w.event(public=False).pk}/register/", {}),
        (401, 409, 404, 201, 404, 404, 201, 201),
    ),
    "withdraw before the start": (
        lambda w: ("post", f"{T}/{w.event().pk}/withdraw/", None),
        (401, 200, 409, 409, 409, 409, 409, 409),
    ),
    "withdraw while running": (
        lambda w: ("post", f"{T}/{w.running().pk}/withdraw/", None),
        (401, 200, 409, 409, 409, 409, 409, 409),
    ),
    # organisers
    "create": (
        lambda w: ("post", f"{T}/", {"name": "New event"}),
        (401, 403, 403, 201, 201, 403, 403, 201),
    ),
    "update": (
        lambda w: ("patch", f"{T}/{w.event().pk}/", {"description": "Bring snacks."}),
        (401, 403, 403, 200, 403, 403, 403, 200),
    ),
    "open registration": (
        lambda w: ("post", f"{T}/{w.event(open_registration=False).pk}/open-registration/", None),
        (401, 404, 404, 200, 404, 404, 403, 200),
    ),
    "start": (
        lambda w: ("post", f"{T}/{w.event().pk}/start/", None),
        (401, 403, 403, 200, 403, 403, 403, 200),
    ),
    "cancel": (
        lambda w: ("post", f"{T}/{w.event().pk}/cancel/", _reason()),
        (401, 403, 403, 200, 403, 403, 403, 200),
    ),
    "invite": (
        lambda w: ("post", f"{T}/{w.event().pk}/invite/", {"username": "guest"}),
        (401, 403, 403, 201, 403, 403, 201, 201),
    ),
    "approve": (_pending_entry, (401, 403, 403, 200, 403, 403, 200, 200)),
    "decline": (_pending_entry_decline, (401, 403, 403, 200, 403, 403, 200, 200)),
    "decide a knockout match": (_match_decide, (401, 403, 403, 200, 403, 403, 200, 200)),
    "remove a player": (
        lambda w: (
            "post",
            f"{T}/{(t := w.event()).pk}/entries/{_entry_of(t, 'p2')}/remove/",
            _reason(),
        ),
        (401, 403, 403, 200, 403, 403, 200, 200),
    ),
    "pair a round by hand": (_manual_pairs, (401, 403, 403, 201, 403, 403, 201, 201)),
    "adjudicate": (
        lambda w: (
            "post",
            f"{T}/{(t := w.running()).pk}/games/{_first_game(t)}/adjudicate/",
            _reason({"result": "1-0"}),
        ),
        (401, 403, 403, 200, 403, 403, 200, 200),
    ),
    "fix a result": (
        lambda w: (
            "post",
            f"{T}/{(t := w.running()).pk}/games/{_ended_game(t)}/fix-result/",
            _reason({"result": "cancelled"}),
        ),
        (401, 403, 403, 200, 403, 403, 200, 200),
    ),
    "TRF import": (_trf_import, (401, 403, 403, 201, 201, 403, 403, 201)),
}


@pytest.mark.parametrize(
    ("case", "role"),
    [(case, role) for case in CASES for role in ROLES],
    ids=[f"{case}-{role}" for case in CASES for role in ROLES],
)
def test_who_may_call_what(world, case, role, django_capture_on_commit_callbacks):
    build, expected = CASES[case]
    method, path, body = build(world)
    with django_capture_on_commit_callbacks(execute=True):
        answer = getattr(client_for(world, role), method)(path, body, format="json")
    want = expected[ROLES.index(role)]
    assert answer.status_code == want, (case, role, answer.content[:300])
    if want >= 400:
        assert set(answer.json()) >= {"code", "detail"}


# --- Error paths, each with its code ------------------------------------------------------------


def _post(world: World, role: str, path: str, body: dict[str, Any] | None = None) -> Any:
    return client_for(world, role).post(path, body or {}, format="json")


def test_bad_settings_name_each_field(world):
    answer = _post(
        world,
        "organiser",
        f"{T}/",
        {"name": "Bad", "start_mode": "at_date", "min_players": 6, "max_players": 4},
    )
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == "invalid_settings"
    assert set(body["errors"]) == {"max_players", "starts_at"}


def test_a_setting_of_the_wrong_type_is_a_field_error(world):
    answer = _post(world, "organiser", f"{T}/", {"name": "Bad", "min_players": "many"})
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid")
    assert "min_players" in answer.json()["errors"]


def test_a_taken_name_is_refused(world):
    world.event(name="Beltane")
    answer = _post(world, "organiser", f"{T}/", {"name": "beltane"})
    assert answer.status_code == 400
    assert "already a tournament called" in answer.json()["errors"]["name"]


def test_an_unknown_list_filter(world):
    answer = client_for(world, "anon").get(f"{T}/?status=soon")
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid_status")


def test_register_with_a_wrong_code_and_when_full(world):
    coded = world.event(open_registration=False, entry_code="triskele", max_players=4)
    services.tournament_registration_open(tournament_id=coded.pk, actor=world.users["organiser"])
    wrong = _post(world, "outsider", f"{T}/{coded.pk}/register/", {"entry_code": "spiral"})
    assert (wrong.status_code, wrong.json()["code"]) == (403, "entry_code_wrong")
    full = world.event(max_players=4)
    answer = _post(world, "outsider", f"{T}/{full.pk}/register/")
    assert (answer.status_code, answer.json()["code"]) == (403, "tournament_full")


def test_starting_twice_and_updating_a_running_event_are_conflicts(world):
    tournament = world.running()
    again = _post(world, "organiser", f"{T}/{tournament.pk}/start/")
    assert (again.status_code, again.json()["code"]) == (409, "wrong_status")
    patch = client_for(world, "organiser").patch(
        f"{T}/{tournament.pk}/", {"description": "late"}, format="json"
    )
    assert (patch.status_code, patch.json()["code"]) == (409, "wrong_status")


def test_too_few_players_to_start(world):
    tournament = world.event(open_registration=False, min_players=6)
    services.tournament_registration_open(
        tournament_id=tournament.pk, actor=world.users["organiser"]
    )
    answer = _post(world, "organiser", f"{T}/{tournament.pk}/start/")
    assert (answer.status_code, answer.json()["code"]) == (409, "too_few_players")


def test_entries_and_games_of_another_event_are_not_found(world):
    mine, other = world.running(), world.running()
    entry = other.entries.first().pk
    game = _first_game(other)
    removed = _post(world, "organiser", f"{T}/{mine.pk}/entries/{entry}/remove/", _reason())
    assert (removed.status_code, removed.json()["code"]) == (404, "entry_not_found")
    fixed = _post(
        world, "organiser", f"{T}/{mine.pk}/games/{game}/fix-result/", _reason({"result": "1-0"})
    )
    assert (fixed.status_code, fixed.json()["code"]) == (404, "tournament_game_not_found")
    decided = _post(
        world, "organiser", f"{T}/{mine.pk}/matches/999/decide/", _reason({"winner_entry_id": 1})
    )
    assert (decided.status_code, decided.json()["code"]) == (404, "match_not_found")
    missing = client_for(world, "anon").get(f"{T}/999999/")
    assert (missing.status_code, missing.json()["code"]) == (404, "tournament_not_found")


def test_a_reason_is_required_and_results_must_be_known(world):
    tournament = world.running()
    entry = _entry_of(tournament, "p2")
    game = _ended_game(tournament)
    no_reason = _post(world, "organiser", f"{T}/{tournament.pk}/entries/{entry}/remove/")
    assert (no_reason.status_code, no_reason.json()["code"]) == (400, "invalid")
    blank = _post(
        world, "organiser", f"{T}/{tournament.pk}/games/{game}/fix-result/",
        {"result": "1-0", "reason": "   "},
    )  # fmt: skip
    assert blank.status_code == 400 and "reason" in blank.json()["detail"]
    unknown = _post(
        world,
        "organiser",
        f"{T}/{tournament.pk}/games/{game}/adjudicate/",
        _reason({"result": "2-0"}),
    )
    assert (unknown.status_code, unknown.json()["code"]) == (400, "invalid")
    pending = _post(
        world, "organiser", f"{T}/{tournament.pk}/games/{game}/fix-result/", _reason({"result": ""})
    )
    # "pending" is no result to fix to: the documented choices leave it out
    assert (pending.status_code, pending.json()["code"]) == (400, "invalid")
    assert set(pending.json()["errors"]) == {"result"}


def test_a_manual_pairing_waits_for_the_running_round(world):
    tournament = world.running()
    ids = list(tournament.entries.order_by("seed").values_list("pk", flat=True))
    answer = _post(
        world,
        "organiser",
        f"{T}/{tournament.pk}/pairings/",
        _reason({"pairs": [[ids[0], ids[3]], [ids[1], ids[2]]]}),
    )
    assert (answer.status_code, answer.json()["code"]) == (409, "round_not_complete")


def test_a_manual_pairing_must_pair_everyone_once(world):
    tournament = _round_one_decided(world)
    ids = list(tournament.entries.order_by("seed").values_list("pk", flat=True))
    answer = _post(
        world,
        "organiser",
        f"{T}/{tournament.pk}/pairings/",
        _reason({"pairs": [[ids[0], ids[1]], [ids[1], ids[2]]]}),
    )
    assert (answer.status_code, answer.json()["code"]) == (409, "manual_pairing_invalid")
    assert "paired twice" in answer.json()["detail"] and "not paired" in answer.json()["detail"]
    shape = _post(
        world, "organiser", f"{T}/{tournament.pk}/pairings/", _reason({"pairs": [[ids[0]]]})
    )
    assert (shape.status_code, shape.json()["code"]) == (400, "invalid")


def test_inviting_someone_unknown_or_already_in(world):
    tournament = world.event()
    nobody = _post(world, "organiser", f"{T}/{tournament.pk}/invite/", {"username": "nobody"})
    assert (nobody.status_code, nobody.json()["code"]) == (404, "no_user")
    again = _post(world, "organiser", f"{T}/{tournament.pk}/invite/", {"username": "player"})
    assert (again.status_code, again.json()["code"]) == (409, "already_registered")


def test_trf_files_in_and_out(world):
    bad = _post(world, "organiser", f"{T}/import-trf/", {"trf": "012 Only a name\n001 broken"})
    assert (bad.status_code, bad.json()["code"]) == (400, "trf_invalid")
    for text, line in (("012 Cup\nXXR 32768", 2), ("142 32768", 1)):
        huge = _post(world, "organiser", f"{T}/import-trf/", {"trf": text})
        assert (huge.status_code, huge.json()["code"]) == (400, "trf_invalid")
        assert f"TRF line {line}: expected the number of rounds" in huge.json()["detail"]
    knockout = world.running(format="knockout", round_start_mode="round_by_round")
    answer = client_for(world, "anon").get(f"{T}/{knockout.pk}/trf/")
    assert (answer.status_code, answer.json()["code"]) == (409, "trf_knockout")
    draft = world.event()
    early = client_for(world, "anon").get(f"{T}/{draft.pk}/trf/")
    assert (early.status_code, early.json()["code"]) == (409, "trf_not_started")
    running = world.running(name="Lughnasa")
    text = client_for(world, "anon").get(f"{T}/{running.pk}/trf/")
    assert text["Content-Type"] == "text/plain; charset=utf-8"
    assert text.content.decode().startswith("012 Lughnasa\n")
    assert text.content.decode().count("\n001 ") == 4


def test_a_match_is_decided_for_one_of_its_players_once(world):
    tournament, match = _first_match(world)
    url = f"{T}/{tournament.pk}/matches/{match.pk}/decide/"
    outsider = tournament.entries.exclude(pk__in=[match.higher_id, match.lower_id]).first()
    wrong = _post(world, "organiser", url, _reason({"winner_entry_id": outsider.pk}))
    assert (wrong.status_code, wrong.json()["code"]) == (400, "winner_not_in_match")
    done = _post(world, "organiser", url, _reason({"winner_entry_id": match.lower_id}))
    assert done.status_code == 200
    assert (done.json()["winner_id"], done.json()["decided_by"]) == (match.lower_id, "organiser")
    again = _post(world, "organiser", url, _reason({"winner_entry_id": match.higher_id}))
    assert (again.status_code, again.json()["code"]) == (409, "match_decided")
