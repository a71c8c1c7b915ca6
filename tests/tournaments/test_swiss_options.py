"""The organiser's Swiss options through the services: late entries, half-point byes asked
for ahead of a round, absences entered by the organiser, withdrawal after forfeits,
forbidden pairs, Baku acceleration, and pairing by hand around the byes."""

from __future__ import annotations

from datetime import timedelta
from fractions import Fraction

import pytest
import time_machine
from django.contrib.auth.models import User

from celticsite.errors import DomainError
from games import services as game_services
from moderation.models import AuditEntry
from tests.accounts.factories import make_user
from tests.tournaments.conftest import T0, finish, register_all
from tournaments import selectors, services
from tournaments.models import Bye, Entry, Round, Tournament, TournamentGame

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _at_t0():
    with time_machine.travel(T0, tick=False):
        yield


@pytest.fixture
def swiss(make_tournament, organiser, commit):
    """A running Swiss of ``size`` unrated players s1..sN (seeded in that order)."""

    def make(size: int = 6, **settings) -> Tournament:
        settings.setdefault("rounds_planned", 4)
        tournament = make_tournament(format="swiss", **settings)
        names = [f"s{i}" for i in range(1, size + 1)]
        register_all(
            tournament, [User.objects.filter(username=n).first() or make_user(n) for n in names]
        )
        for entry in tournament.entries.filter(status="pending"):
            services.entry_approve(entry_id=entry.pk, actor=organiser)
        with commit():
            services.tournament_start(tournament_id=tournament.pk, actor=organiser)
        return Tournament.objects.get(pk=tournament.pk)

    return make


def round_links(tournament: Tournament, number: int) -> list[TournamentGame]:
    return list(
        TournamentGame.objects.filter(tournament=tournament, round__number=number)
        .select_related("game", "orange", "blue")
        .order_by("board")
    )


def play_round(tournament: Tournament, number: int, *, commit) -> None:
    """Orange wins every game of the round."""
    for link in round_links(tournament, number):
        if link.game is not None and link.game.is_active:
            finish(link.game, "1-0", commit=commit)


def pairs_of(tournament: Tournament, number: int) -> list[tuple[str, str]]:
    return [(link.orange.name, link.blue.name) for link in round_links(tournament, number)]


def code_of(excinfo) -> str:
    return excinfo.value.code


# --- Settings --------------------------------------------------------------------------------


def test_swiss_settings_are_refused_for_other_formats_and_checked(make_tournament):
    with pytest.raises(DomainError) as refused:
        make_tournament(format="round_robin", half_point_byes_max=1, accelerated=True)
    assert set(refused.value.extra["errors"]) == {"half_point_byes_max", "accelerated"}
    with pytest.raises(DomainError) as refused:
        make_tournament(
            format="swiss",
            rounds_planned=5,
            late_entry_last_round=6,
            late_entry_bye="U",
            half_point_byes_max=6,
            forfeits_to_withdraw=0,
        )
    assert refused.value.extra["errors"] == {
        "late_entry_last_round": "A round from 2 to the number of rounds (5), or empty.",
        "late_entry_bye": "Z (no points) or H (half a point) per missed round.",
        "half_point_byes_max": "At most the number of rounds (5).",
        "forfeits_to_withdraw": "From 1 to 50 forfeits, or empty; not 0.",
    }


# --- Late entries ----------------------------------------------------------------------------


def test_a_late_entrant_gets_the_next_number_and_a_bye_per_missed_round(swiss, commit):
    tournament = swiss(late_entry_last_round=3, late_entry_bye="H")
    play_round(tournament, 1, commit=commit)  # round 2 starts at once
    late = make_user("late")
    entry = services.tournament_register(tournament_id=tournament.pk, user=late)
    entry.refresh_from_db()
    assert (entry.status, entry.seed, entry.joined_round) == ("active", 7, 3)
    assert list(entry.byes.values_list("round__number", "kind")) == [(1, "H"), (2, "H")]
    assert list(tournament.entries.order_by("seed").values_list("seed", flat=True)) == [
        *range(1, 8)
    ]
    play_round(tournament, 2, commit=commit)
    assert "late" in {name for pair in pairs_of(tournament, 3) for name in pair} | {
        bye.entry.name for bye in Bye.objects.filter(round__number=3, kind="U")
    }
    row = next(
        r for r in selectors.tournament_standings(tournament=tournament).rows if r.name == "late"
    )
    assert row.points >= Fraction(1)  # two half-point byes, whatever round 3 brings
    with pytest.raises(DomainError) as refused:
        services.tournament_register(tournament_id=tournament.pk, user=make_user("later"))
    assert code_of(refused) == "late_entry_closed"


def test_late_entries_zero_points_and_only_when_the_organiser_allows(swiss, commit):
    closed = swiss()
    with pytest.raises(DomainError) as refused:
        services.tournament_register(tournament_id=closed.pk, user=make_user("late1"))
    assert code_of(refused) == "registration_closed"
    tournament = swiss(late_entry_last_round=2)
    entry = services.tournament_register(tournament_id=tournament.pk, user=make_user("late2"))
    assert list(entry.byes.values_list("round__number", "kind")) == [(1, "Z")]


def test_a_late_entry_waits_for_approval_in_an_event_with_approval(swiss, organiser):
    tournament = swiss(late_entry_last_round=2, registration_mode="approval")
    entry = services.tournament_register(tournament_id=tournament.pk, user=make_user("late"))
    assert entry.status == "pending" and entry.seed is None
    services.entry_approve(entry_id=entry.pk, actor=organiser)
    entry.refresh_from_db()
    # round 1 is being played: the late entrant misses it and starts in round 2
    assert (entry.status, entry.seed, entry.joined_round) == ("active", 7, 2)
    assert list(entry.byes.values_list("round__number", "kind")) == [(1, "Z")]


# --- Half-point byes and absences ------------------------------------------------------------


def test_a_requested_half_point_bye_keeps_the_player_out_of_the_round(swiss, commit):
    tournament = swiss(half_point_byes_max=1)
    s1 = Entry.objects.get(tournament=tournament, name="s1")
    bye = services.bye_request(tournament_id=tournament.pk, user=s1.player)
    assert (bye.round.number, bye.kind) == (2, "H")
    with pytest.raises(DomainError) as refused:
        services.bye_request(tournament_id=tournament.pk, user=s1.player, round_number=3)
    assert code_of(refused) == "bye_limit_reached"
    with pytest.raises(DomainError) as refused:
        services.bye_request(tournament_id=tournament.pk, user=s1.player, round_number=1)
    assert code_of(refused) == "round_paired"
    assert selectors.tournament_standings(tournament=tournament).rows[0].points == 0
    play_round(tournament, 1, commit=commit)
    paired = {name for pair in pairs_of(tournament, 2) for name in pair}
    assert "s1" not in paired and len(paired) == 4
    assert Bye.objects.get(round__number=2, kind="U").entry.name != "s1"  # five left: a PAB
    points = {r.name: r.points for r in selectors.tournament_standings(tournament=tournament).rows}
    assert points["s1"] == Fraction(3, 2)  # won round 1 with Orange, then the bye


def test_a_withdrawal_drops_the_byes_asked_for_ahead(swiss, commit):
    tournament = swiss(half_point_byes_max=1)
    s2 = Entry.objects.get(tournament=tournament, name="s2")
    services.bye_request(tournament_id=tournament.pk, user=s2.player, round_number=3)
    with commit():
        services.entry_withdraw(tournament_id=tournament.pk, user=s2.player)
    assert not Bye.objects.filter(entry=s2, kind="H").exists()
    with pytest.raises(DomainError) as refused:  # a withdrawn player cannot enter again
        services.tournament_register(tournament_id=tournament.pk, user=s2.player)
    assert code_of(refused) == "already_registered"


def test_a_bye_request_can_be_taken_back_before_the_round_is_paired(swiss):
    tournament = swiss(half_point_byes_max=1)
    player = Entry.objects.get(tournament=tournament, name="s2").player
    services.bye_request(tournament_id=tournament.pk, user=player, round_number=3)
    services.bye_request_cancel(tournament_id=tournament.pk, user=player, round_number=3)
    assert not Bye.objects.filter(round__tournament=tournament).exists()
    with pytest.raises(DomainError) as refused:
        services.bye_request_cancel(tournament_id=tournament.pk, user=player, round_number=3)
    assert code_of(refused) == "no_bye"


def test_byes_are_refused_where_they_make_no_sense(make_tournament, swiss, players, organiser):
    no_byes = swiss()
    player = Entry.objects.get(tournament=no_byes, name="s1").player
    with pytest.raises(DomainError) as refused:
        services.bye_request(tournament_id=no_byes.pk, user=player)
    assert code_of(refused) == "bye_limit_reached"
    with pytest.raises(DomainError) as refused:
        services.bye_request(tournament_id=no_byes.pk, user=players[0])
    assert code_of(refused) == "not_in_tournament"
    robin = make_tournament()
    register_all(robin, players[:4])
    services.tournament_start(tournament_id=robin.pk, actor=organiser)
    with pytest.raises(DomainError) as refused:
        services.bye_request(tournament_id=robin.pk, user=players[0])
    assert code_of(refused) == "byes_swiss_only"


def test_the_organiser_marks_a_player_absent_audited(swiss, organiser, commit):
    tournament = swiss()
    s3 = Entry.objects.get(tournament=tournament, name="s3")
    with pytest.raises(DomainError) as refused:
        services.bye_enter(
            tournament_id=tournament.pk, actor=s3.player, entry_id=s3.pk, kind="Z", reason="x"
        )
    assert code_of(refused) == "not_organiser"
    with pytest.raises(DomainError) as refused:
        services.bye_enter(
            tournament_id=tournament.pk, actor=organiser, entry_id=s3.pk, kind="U", reason="x"
        )
    assert code_of(refused) == "invalid_bye_kind"
    services.bye_enter(
        tournament_id=tournament.pk,
        actor=organiser,
        entry_id=s3.pk,
        kind="Z",
        reason="not answering emails",
    )
    audit = AuditEntry.objects.get(action="tournament_bye")
    assert audit.reason == "not answering emails"
    assert audit.data == {"tournament": tournament.pk, "round": 2, "kind": "Z"}
    play_round(tournament, 1, commit=commit)
    assert "s3" not in {name for pair in pairs_of(tournament, 2) for name in pair}
    s3.refresh_from_db()
    assert s3.status == "active"  # absent for one round, still in the event


def test_a_player_who_loses_by_forfeit_too_often_is_withdrawn(swiss, commit):
    tournament = swiss(size=4, forfeits_to_withdraw=1, rounds_planned=3)
    link = round_links(tournament, 1)[0]
    with commit():  # Orange resigns before making a move: a forfeit
        game_services.game_resign(game_id=link.game.pk, user=link.orange.player)
    link.orange.refresh_from_db()
    assert link.orange.status == "withdrawn" and link.orange.withdrawn_after_round == 1
    play_round(tournament, 1, commit=commit)
    assert link.orange.name not in {name for pair in pairs_of(tournament, 2) for name in pair}


# --- The number of rounds against the players who came ---------------------------------------


def test_a_swiss_with_as_many_rounds_as_players_does_not_start(make_tournament, organiser):
    tournament = make_tournament(format="swiss", rounds_planned=3)
    register_all(tournament, [make_user(f"s{i}") for i in range(1, 4)])

    with pytest.raises(DomainError) as refused:
        services.tournament_start(tournament_id=tournament.pk, actor=organiser)

    assert code_of(refused) == "invalid_settings"
    assert refused.value.extra["errors"] == {
        "rounds_planned": "A Swiss of 3 players can have at most 2 rounds, not 3; "
        "lower the number of rounds."
    }
    assert Tournament.objects.get(pk=tournament.pk).status == "registration"
    assert not Round.objects.filter(tournament=tournament).exists()


def test_an_automatic_start_with_as_many_rounds_as_players_cancels_the_event(
    make_tournament, commit
):
    starts_at = T0 + timedelta(days=1)
    tournament = make_tournament(
        format="swiss", rounds_planned=3, start_mode="at_date", starts_at=starts_at
    )
    register_all(tournament, [make_user(f"s{i}") for i in range(1, 4)])

    with commit():
        services.tournaments_advance(now=starts_at)

    tournament.refresh_from_db()
    assert tournament.status == "cancelled"
    assert tournament.status_note == (
        f"{tournament.name} cannot start: A Swiss of 3 players can have at most 2 rounds, "
        "not 3; lower the number of rounds."
    )
    assert not Round.objects.filter(tournament=tournament).exists()


# --- Forbidden pairs and acceleration --------------------------------------------------------


def test_forbidden_pairs_are_checked_and_honoured(make_tournament, organiser, players, commit):
    tournament = make_tournament(format="swiss", rounds_planned=3)
    register_all(tournament, players[:4])
    e1, _, e3, _ = tournament.entries.order_by("registered_at")
    with pytest.raises(DomainError) as refused:
        services.forbidden_pairs_set(
            tournament_id=tournament.pk, actor=organiser, pairs=[(e1.pk, 999999)]
        )
    assert code_of(refused) == "unknown_entry"
    with pytest.raises(DomainError) as refused:
        services.forbidden_pairs_set(
            tournament_id=tournament.pk, actor=organiser, pairs=[(e1.pk, e1.pk)]
        )
    assert code_of(refused) == "forbidden_pair_invalid"
    services.forbidden_pairs_set(
        tournament_id=tournament.pk, actor=organiser, pairs=[(e3.pk, e1.pk)]
    )
    # stored as one sorted pair, whichever order it was given in
    assert Tournament.objects.get(pk=tournament.pk).forbidden_pairs == [sorted([e1.pk, e3.pk])]
    with commit():
        services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    # Without the forbidden pair round 1 would be p1-p3, p4-p2 (S1 against S2).
    assert pairs_of(tournament, 1) == [("p1", "p4"), ("p3", "p2")]
    with pytest.raises(DomainError) as refused:  # once running, a change needs a reason
        services.forbidden_pairs_set(tournament_id=tournament.pk, actor=organiser, pairs=[])
    assert code_of(refused) == "reason_required"


def test_baku_acceleration_pairs_group_a_among_itself_in_round_one(swiss):
    plain = swiss(size=8, rounds_planned=7, name="Plain")
    accelerated = swiss(size=8, rounds_planned=7, name="Baku", accelerated=True)
    assert pairs_of(plain, 1) == [("s1", "s5"), ("s6", "s2"), ("s3", "s7"), ("s8", "s4")]
    # Group A (s1-s4) has a virtual point: two brackets of four.
    assert pairs_of(accelerated, 1) == [("s1", "s3"), ("s4", "s2"), ("s5", "s7"), ("s8", "s6")]


# --- Pairing by hand -------------------------------------------------------------------------


def test_a_swiss_round_paired_by_hand_leaves_out_the_players_with_byes(swiss, organiser, commit):
    tournament = swiss(
        size=5, half_point_byes_max=1, round_start_mode="on_dates", round_interval_days=7
    )
    e = {entry.name: entry.pk for entry in tournament.entries.all()}
    services.bye_request(tournament_id=tournament.pk, user=make_user_of(tournament, "s5"))
    play_round(tournament, 1, commit=commit)
    assert Round.objects.get(tournament=tournament, number=2).status == "planned"  # its date

    def pair(pairs):
        return services.round_pair_manually(
            tournament_id=tournament.pk, actor=organiser, pairs=pairs, reason="club night"
        )

    with pytest.raises(DomainError) as refused:
        pair([(e["s1"], e["s2"]), (e["s3"], e["s4"]), (e["s5"], e["s1"])])
    assert "with a bye already entered for this round: s5" in refused.value.detail
    with commit():
        pair([(e["s1"], e["s2"]), (e["s3"], e["s4"])])
    assert pairs_of(tournament, 2) == [("s1", "s2"), ("s3", "s4")]
    assert list(Bye.objects.filter(round__number=2).values_list("entry__name", "kind")) == [
        ("s5", "H")
    ]
    assert AuditEntry.objects.get(action="tournament_pairing").data["round"] == 2


def make_user_of(tournament: Tournament, name: str):
    return Entry.objects.get(tournament=tournament, name=name).player
