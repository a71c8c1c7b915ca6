"""The tournament pages with the Django test client: lists, an event's page, registering and
withdrawing, the organiser's create and manage pages, and their refusals."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from moderation.models import AuditEntry
from tests.accounts.factories import PASSWORD, make_superuser, make_user
from tests.tournaments.conftest import finish, grant, register_all
from tournaments import services
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def login(user) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def test_the_list_shows_open_running_and_finished_events(make_tournament, organiser, players):
    open_event = make_tournament(name="Imbolc Open", entry_code="knot")
    running = make_tournament(name="Beltane RR")
    register_all(running, players[:3])
    services.tournament_start(tournament_id=running.pk, actor=organiser)
    make_tournament(name="Hidden", public=False)
    make_tournament(name="Draft", open_registration=False)
    page = Client().get("/tournaments/")
    assert page.status_code == 200
    html = page.content.decode()
    assert [t.name for t in page.context["open"]] == [open_event.name]
    assert [t.name for t in page.context["running"]] == ["Beltane RR"]
    assert "Imbolc Open" in html and ">code</span>" in html
    assert "Hidden" not in html and "Draft" not in html
    assert 'href="/tournaments/"' in html  # the header links here
    assert "Create a tournament" not in html
    organiser_view = login(organiser).get("/tournaments/").content.decode()
    assert "Create a tournament" in organiser_view and "Your drafts" in organiser_view


def test_an_event_page_register_then_cancel(make_tournament, players):
    tournament = make_tournament(name="Lúnasa Cup", entry_code="knot", tiebreaks=["sb"])
    url = f"/tournaments/{tournament.pk}/"
    anonymous = Client().get(url).content.decode()
    assert "Lúnasa Cup" in anonymous and "Log in</a> to register" in anonymous
    assert "Sonneborn-Berger" in anonymous  # the rules list the tie-breaks
    ann = login(players[0])
    page = ann.get(url).content.decode()
    assert 'name="entry_code"' in page and ">Register</button>" in page
    wrong = ann.post(f"{url}register/", {"entry_code": "loop"}, follow=True)
    assert any("entry code" in m for m in messages_of(wrong))
    assert not Entry.objects.filter(tournament=tournament).exists()
    right = ann.post(f"{url}register/", {"entry_code": "knot"}, follow=True)
    assert messages_of(right) == ["You are registered in Lúnasa Cup."]
    assert "Cancel my registration" in right.content.decode()
    left = ann.post(f"{url}withdraw/", follow=True)
    assert messages_of(left) == ["Your registration in Lúnasa Cup is cancelled."]
    assert not Entry.objects.filter(tournament=tournament).exists()


def test_a_running_event_shows_rounds_standings_places_and_crosstable(
    make_tournament, organiser, players, commit
):
    tournament = make_tournament(name="Samhain RR", tiebreaks=["de", "sb"])
    register_all(tournament, players[:4])
    services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    link = tournament.games.order_by("board").select_related("game").first()
    finish(link.game, "1-0", commit=commit)  # Orange moves, Blue resigns
    page = Client().get(f"/tournaments/{tournament.pk}/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "Round 1" in html and "Round 3" in html and "Paired when it starts." in html
    assert f'href="/games/{link.game.pk}/"' in html and "1-0" in html
    lines = page.context["lines"]
    assert [line.points for line in lines][:1] == [1] and len(lines) == 4
    assert all(line.places.best == 1 for line in lines)
    assert '<abbr title="Direct encounter">DE</abbr>' in html
    assert html.count('class="num self"') == 4  # the crosstable's diagonal
    assert "Download the TRF file" in html
    # the game page names the event and round
    game_page = Client().get(f"/games/{link.game.pk}/").content.decode()
    assert "Samhain RR</a>, round 1, board 1" in game_page
    assert f'href="/tournaments/{tournament.pk}/"' in game_page
    # a player may withdraw while it runs
    player_page = login(players[0]).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Withdraw from the event" in player_page


def test_a_private_event_is_not_found_by_outsiders(make_tournament, players):
    tournament = make_tournament(name="Secret", public=False)
    assert Client().get(f"/tournaments/{tournament.pk}/").status_code == 404
    assert login(players[0]).get(f"/tournaments/{tournament.pk}/").status_code == 404
    assert Client().get("/tournaments/999999/").status_code == 404


def test_create_needs_the_permission_and_shows_errors_on_fields(organiser, players):
    refused = login(players[0]).get("/tournaments/new/", follow=True)
    assert any("organiser permission" in m for m in messages_of(refused))
    assert Client().get("/tournaments/new/").status_code == 302  # to the login page
    client = login(organiser)
    assert client.get("/tournaments/new/").status_code == 200
    form = {
        "name": "Yule Swiss",
        "format": "round_robin",
        "cycles": 1,
        "registration_mode": "open",
        "min_players": 6,
        "max_players": 4,
        "start_mode": "by_organiser",
        "round_start_mode": "round_by_round",
        "knockout_extra_pairs": 1,
        "knockout_decider": "higher_seed",
        "withdrawal_policy": "half_rule",
        "tiebreaks": "de, sb, nonsense",
        "tiebreak_edition": "2026",
        "min_finished_games": 0,
        "clock_kind": "per_move",
        "days_per_move": 4,
        "bank_days": 10,
        "increment_days": 2,
        "max_days": 20,
        "rated": "on",
        "public": "on",
    }
    bad = client.post("/tournaments/new/", form)
    assert bad.status_code == 400
    assert "At least the minimum (6)" in bad.content.decode()
    assert "Unknown tie-break(s): nonsense" in bad.content.decode()
    assert not Tournament.objects.exists()
    good = client.post(
        "/tournaments/new/", {**form, "max_players": 8, "tiebreaks": "de, sb"}, follow=True
    )
    tournament = Tournament.objects.get()
    assert good.redirect_chain[-1][0] == f"/tournaments/{tournament.pk}/manage/"
    assert (tournament.name, tournament.tiebreaks, tournament.days_per_move) == (
        "Yule Swiss",
        ["de", "sb"],
        4,
    )
    assert tournament.status == Tournament.Status.DRAFT


def test_manage_publish_approve_invite_start_and_fix(organiser, players, commit):
    tournament = services.tournament_create(
        organiser=organiser, name="Oak Cup", registration_mode="approval"
    )
    client = login(organiser)
    manage = f"/tournaments/{tournament.pk}/manage/"
    page = client.get(manage).content.decode()
    assert "Open registration" in page and "Save the settings" in page
    client.post(f"{manage}open/", {"back": "manage"})
    register_all(Tournament.objects.get(pk=tournament.pk), players[:3])
    pending = Entry.objects.filter(tournament=tournament, status="pending")
    assert pending.count() == 3
    for entry in pending:
        done = client.post(f"{manage}entries/{entry.pk}/approve/", {"back": "manage"})
        assert done.status_code == 302 and done["Location"] == manage
    invited = client.post(f"{manage}invite/", {"username": players[3].username}, follow=True)
    assert messages_of(invited)[-1] == f"{players[3].username} is invited."
    unknown = client.post(f"{manage}invite/", {"username": "nobody"}, follow=True)
    assert messages_of(unknown) == ["There is no player called 'nobody'."]
    no_reason = client.post(
        f"{manage}entries/{Entry.objects.filter(tournament=tournament).first().pk}/remove/",
        {"reason": ""},
        follow=True,
    )
    assert any("reason is required" in m for m in messages_of(no_reason))
    with commit():
        started = client.post(f"{manage}start/", {"back": "manage"}, follow=True)
    assert messages_of(started) == [
        "Oak Cup has started: round 1 is being paired, its games start in a moment."
    ]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    page = started.content.decode()
    assert "Games and results" in page and "Adjudicate…" in page
    link = tournament.games.select_related("game").order_by("board").first()
    fixed = client.post(
        f"{manage}games/{link.pk}/adjudicate/",
        {"result": "0-1", "reason": "agreed by both", "back": "manage"},
        follow=True,
    )
    assert messages_of(fixed) == ["Board 1 of round 1: Blue wins."]
    link.game.refresh_from_db()
    assert link.game.result == "0-1"
    assert list(AuditEntry.objects.values_list("reason", flat=True)) == ["agreed by both"]


def test_manage_is_for_the_organiser(make_tournament, organiser, players):
    tournament = make_tournament(name="Ash Cup")
    refused = login(players[0]).get(f"/tournaments/{tournament.pk}/manage/", follow=True)
    assert refused.redirect_chain[-1][0] == f"/tournaments/{tournament.pk}/"
    assert any("Only the organiser" in m for m in messages_of(refused))
    start = login(players[0]).post(f"/tournaments/{tournament.pk}/manage/start/", follow=True)
    assert any("Only the organiser" in m for m in messages_of(start))
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.REGISTRATION
    root = login(make_superuser("root"))
    assert root.get(f"/tournaments/{tournament.pk}/manage/").status_code == 200


def test_manual_pairing_by_seed(make_tournament, organiser, players, commit):
    tournament = make_tournament(name="Elm RR", round_start_mode="on_dates", round_interval_days=7)
    register_all(tournament, players[:4])
    services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    client = login(organiser)
    url = f"/tournaments/{tournament.pk}/manage/pair/"
    early = client.post(url, {"pairs": "1 4\n2 3", "reason": "x"}, follow=True)
    assert messages_of(early) == [
        "Round 2 can be paired by hand once round 1 is complete (every game decided or "
        "adjudicated)."
    ]
    for link in tournament.games.all():
        finish(link.game, "1-0", commit=commit)
    bad = client.post(url, {"pairs": "1 2\nthree", "reason": "x", "back": "manage"}, follow=True)
    assert any('Line 2 ("three")' in m for m in messages_of(bad))
    unknown = client.post(url, {"pairs": "1 9\n2 3", "reason": "x"}, follow=True)
    assert messages_of(unknown) == ["No player has seed 9."]
    done = client.post(url, {"pairs": "1 4\n2 3", "reason": "a club night"}, follow=True)
    assert messages_of(done) == ["Round 2 is paired and started."]
    second = tournament.rounds.get(number=2)
    assert sorted((g.orange.seed, g.blue.seed) for g in second.games.all()) == [(1, 4), (2, 3)]


def test_pages_have_no_inline_scripts_or_styles(make_tournament, organiser, players):
    tournament = make_tournament(name="Holly RR")
    register_all(tournament, players[:4])
    services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    client = login(organiser)
    for url in (
        "/tournaments/",
        f"/tournaments/{tournament.pk}/",
        f"/tournaments/{tournament.pk}/manage/",
        "/tournaments/new/",
    ):
        html = client.get(url).content.decode()
        assert not re.search(r"<script(?![^>]*\bsrc=)", html), url
        assert " style=" not in html and " onclick=" not in html, url


def test_settings_change_before_the_start_only(make_tournament, organiser, players):
    tournament = make_tournament(name="Rowan Cup")
    client = login(organiser)
    url = f"/tournaments/{tournament.pk}/manage/"
    form = client.get(url).context["form"]
    data = {
        name: value
        for name, value in ((n, form[n].value()) for n in form.fields)
        if value is not None and value is not False
    }
    assert data["name"] == "Rowan Cup"  # the form shows the current settings
    data["description"] = "Bring a pencil."
    data["tiebreaks"] = "sb"
    saved = client.post(url, data, follow=True)
    assert not saved.context or not saved.context["form"].errors, saved.context["form"].errors
    assert messages_of(saved) == ["Settings saved."]
    tournament.refresh_from_db()
    assert (tournament.description, tournament.tiebreaks) == ("Bring a pencil.", ["sb"])
    register_all(tournament, players[:2])
    services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    late = client.post(url, {**data, "description": "late"}, follow=True)
    assert messages_of(late) == ["Rowan Cup has started: its settings can no longer change."]
    tournament.refresh_from_db()
    assert tournament.description == "Bring a pencil."
    assert late.context["form"] is None


def _arbiter():
    user = make_user("arbiter")
    user.is_staff = True
    user.save()
    return grant(user, "manage_tournament_entries", "adjudicate_tournament_game")


def test_an_arbiter_opens_the_manage_page_with_the_actions_of_their_permissions(
    make_tournament, organiser, players
):
    tournament = make_tournament(name="Arbiter Cup")
    register_all(tournament, players[:4])
    services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    client = login(_arbiter())

    page = client.get(f"/tournaments/{tournament.pk}/manage/")
    html = page.content.decode()
    settings = client.post(f"/tournaments/{tournament.pk}/manage/", {"name": "Mine"}, follow=True)

    assert page.status_code == 200
    assert (html.count(">Remove</button>"), html.count("Adjudicate…")) == (4, 2)
    assert "Cancel the event" not in html and "Save the settings" not in html
    assert (
        f'href="/tournaments/{tournament.pk}/manage/"'
        in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    )
    assert messages_of(settings) == [
        "Only the organiser of Arbiter Cup (holding the organiser permission) or an "
        "administrator may do this."
    ]
    assert Tournament.objects.get(pk=tournament.pk).name == "Arbiter Cup"


def test_staff_with_one_permission_see_only_its_actions(make_tournament, organiser, players):
    tournament = make_tournament()
    register_all(tournament, players[:4])
    services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    entries_only = make_user("entries")
    entries_only.is_staff = True
    entries_only.save()

    html = (
        login(grant(entries_only, "manage_tournament_entries"))
        .get(f"/tournaments/{tournament.pk}/manage/")
        .content.decode()
    )

    assert (html.count(">Remove</button>"), html.count("Adjudicate…")) == (4, 0)


def test_the_form_shows_a_setting_out_of_range_on_its_field(organiser):
    """The page refuses what the API refuses, with the same words, on the field."""
    client = login(organiser)
    form = client.get("/tournaments/new/").context["form"]
    data = {
        name: value
        for name, value in ((n, form[n].value()) for n in form.fields)
        if value is not None and value is not False
    }

    refused = client.post(
        "/tournaments/new/", {**data, "name": "Lammas Cup", "round_duration_days": 0}
    )

    assert refused.status_code == 400
    assert refused.context["form"].errors["round_duration_days"] == [
        "From 1 to 365 days, or empty; not 0."
    ]
    assert not Tournament.objects.exists()


# --- The settings form: one fieldset per format ----------------------------------------------

FORMAT_FIELDS = {
    "round_robin": {"cycles", "section_size", "withdrawal_policy"},
    "knockout": {"knockout_extra_pairs", "knockout_decider"},
    "swiss": {
        "rounds_planned",
        "late_entry_last_round",
        "late_entry_bye",
        "half_point_byes_max",
        "forfeits_to_withdraw",
        "accelerated",
    },
}


def _inputs(html: str) -> set[str]:
    return set(re.findall(r'<(?:input|select|textarea)[^>]*\bname="([a-z_]+)"', html))


def _format_fieldsets(html: str) -> dict[str, str]:
    return dict(
        re.findall(r'<fieldset[^>]*data-format="([a-z_]+)"[^>]*>(.*?)</fieldset>', html, re.S)
    )


@pytest.mark.parametrize("url", ["/tournaments/new/", "manage"])
def test_the_settings_form_has_one_fieldset_per_format_with_all_its_settings(
    make_tournament, organiser, url
):
    """The Swiss settings were on no page; every format's fields were shown at once."""
    if url == "manage":
        url = f"/tournaments/{make_tournament(name='Ash Cup').pk}/manage/"
    html = login(organiser).get(url).content.decode()

    fieldsets = _format_fieldsets(html)
    shared = re.sub(r'<fieldset[^>]*data-format="[a-z_]+".*?</fieldset>', "", html, flags=re.S)

    assert {name: _inputs(part) for name, part in fieldsets.items()} == FORMAT_FIELDS
    assert not _inputs(shared) & set().union(*FORMAT_FIELDS.values())
    assert {"name", "format", "tiebreaks", "start_mode", "clock_kind"} <= _inputs(shared)
    assert 'src="/static/tournaments/settings_form.js"' in html


def _new_event(**fields):
    """The new-event form as a browser without scripts sends it: every format's fields."""
    return {
        "name": "Lammas Swiss",
        "format": "swiss",
        "cycles": 1,
        "rounds_planned": 5,
        "late_entry_bye": "Z",
        "half_point_byes_max": 0,
        "registration_mode": "open",
        "min_players": 2,
        "start_mode": "by_organiser",
        "round_start_mode": "round_by_round",
        "knockout_extra_pairs": 1,
        "knockout_decider": "higher_seed",
        "withdrawal_policy": "half_rule",
        "tiebreak_edition": "2026",
        "min_finished_games": 0,
        "clock_kind": "per_move",
        "days_per_move": 3,
        "bank_days": 10,
        "increment_days": 2,
        "max_days": 20,
        **fields,
    }


def test_a_swiss_is_created_with_its_settings_from_the_form(organiser):
    form = _new_event(
        rounds_planned=7,
        late_entry_last_round=3,
        late_entry_bye="H",
        half_point_byes_max=2,
        forfeits_to_withdraw=2,
        accelerated="on",
    )

    created = login(organiser).post("/tournaments/new/", form)

    assert created.status_code == 302, created.context["form"].errors
    swiss = Tournament.objects.get()
    assert (
        swiss.rounds_planned,
        swiss.late_entry_last_round,
        swiss.late_entry_bye,
        swiss.half_point_byes_max,
        swiss.forfeits_to_withdraw,
        swiss.accelerated,
    ) == (7, 3, "H", 2, 2, True)


def test_the_fields_of_the_formats_not_chosen_are_not_taken(organiser):
    """Without scripts a browser sends them all; with the script it sends only the chosen
    format's (the others' fieldsets are disabled): either way the event is the one chosen."""
    client = login(organiser)
    everything = _new_event(
        name="Rowan RR", format="round_robin", cycles=2, late_entry_last_round=3
    )
    only_swiss = {k: v for k, v in _new_event().items() if k not in FORMAT_FIELDS["round_robin"]}
    only_swiss = {k: v for k, v in only_swiss.items() if k not in FORMAT_FIELDS["knockout"]}

    for form in (everything, only_swiss):
        answer = client.post("/tournaments/new/", form)
        assert answer.status_code == 302, answer.context["form"].errors

    rr = Tournament.objects.get(name="Rowan RR")
    swiss = Tournament.objects.get(name="Lammas Swiss")
    assert (rr.format, rr.cycles, rr.rounds_planned, rr.late_entry_last_round) == (
        "round_robin",
        2,
        None,
        None,
    )
    assert (swiss.format, swiss.rounds_planned, swiss.cycles, swiss.knockout_extra_pairs) == (
        "swiss",
        5,
        1,
        1,
    )
