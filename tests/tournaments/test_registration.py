"""Creating events and registering: every setting checked, every registration rule refused
with its own code."""

from __future__ import annotations

from datetime import timedelta

import pytest

from celticsite.errors import DomainError
from games import services as game_services
from games.clock import ClockKind, TimeControl
from tests.accounts.factories import make_user
from tests.tournaments.conftest import T0, register_all
from tournaments import errors, services
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def refusal(call) -> DomainError:
    with pytest.raises(DomainError) as caught:
        call()
    return caught.value


# --- create / update ----------------------------------------------------------------------


def test_create_needs_the_organiser_permission(players):
    error = refusal(lambda: services.tournament_create(organiser=players[0], name="Mine"))
    assert error.code == "organiser_permission_required"
    assert error.status == 403
    assert not Tournament.objects.exists()


def test_create_stores_settings_and_time_control(organiser):
    tc = TimeControl(kind=ClockKind.FISCHER, bank_days=7, increment_days=1, max_days=14)
    tournament = services.tournament_create(
        organiser=organiser,
        name="  Spring Cup  ",
        time_control=tc,
        rated=False,
        max_players=8,
        tiebreaks=["de", "sb"],
    )
    tournament.refresh_from_db()
    assert tournament.name == "Spring Cup"
    assert tournament.status == Tournament.Status.DRAFT
    assert tournament.time_control == tc
    assert (tournament.rated, tournament.max_players) == (False, 8)
    assert tournament.tiebreaks == ["de", "sb"]


def test_create_reports_every_bad_setting_at_once(organiser):
    error = refusal(
        lambda: services.tournament_create(
            organiser=organiser,
            name="Bad",
            format="swiss",
            min_players=6,
            max_players=4,
            start_mode="at_date",
            round_start_mode="all_at_once",
            tiebreaks=["sb", "nonsense"],
            tiebreak_edition="2019",
        )
    )
    assert error.code == "invalid_settings"
    problems = error.extra["errors"]
    assert set(problems) >= {"max_players", "starts_at", "round_start_mode", "tiebreaks"}
    assert "nonsense" in problems["tiebreaks"]
    assert problems["tiebreak_edition"] == "One of 2026, 2024 (FIDE C.07 editions)."
    assert "rounds_planned" in problems  # a Swiss needs its rounds


def test_create_refuses_unknown_settings_and_duplicate_names(organiser, make_tournament):
    make_tournament(name="Taken")
    error = refusal(lambda: services.tournament_create(organiser=organiser, name="taken"))
    assert "already a tournament" in error.extra["errors"]["name"]
    error = refusal(
        lambda: services.tournament_create(organiser=organiser, name="X", colour="blue")
    )
    assert error.code == "unknown_setting"


def test_update_only_by_the_organiser_and_before_the_start(make_tournament, players, organiser):
    tournament = make_tournament()
    error = refusal(
        lambda: services.tournament_update(
            tournament_id=tournament.pk, actor=players[0], description="hacked"
        )
    )
    assert error.code == "not_organiser"
    services.tournament_update(tournament_id=tournament.pk, actor=organiser, description="Hi")
    assert Tournament.objects.get(pk=tournament.pk).description == "Hi"
    register_all(tournament, players[:2])
    services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    error = refusal(
        lambda: services.tournament_update(
            tournament_id=tournament.pk, actor=organiser, description="late"
        )
    )
    assert error.code == "wrong_status"


# --- registration rules ------------------------------------------------------------------


def test_open_registration_registers_at_once(make_tournament, players):
    tournament = make_tournament()
    entry = services.tournament_register(tournament_id=tournament.pk, user=players[0])
    assert entry.status == Entry.Status.APPROVED
    assert entry.name == "p1"
    error = refusal(
        lambda: services.tournament_register(tournament_id=tournament.pk, user=players[0])
    )
    assert error.code == "already_registered"


def test_draft_and_window(make_tournament, players):
    draft = make_tournament(open_registration=False)
    error = refusal(lambda: services.tournament_register(tournament_id=draft.pk, user=players[0]))
    assert error.code == "registration_not_open"
    windowed = make_tournament(
        registration_opens_at=T0, registration_closes_at=T0 + timedelta(days=7)
    )
    early = refusal(
        lambda: services.tournament_register(
            tournament_id=windowed.pk, user=players[0], now=T0 - timedelta(hours=1)
        )
    )
    assert early.code == "registration_not_open"
    assert "2026-03-02 09:00" in early.detail
    late = refusal(
        lambda: services.tournament_register(
            tournament_id=windowed.pk, user=players[0], now=T0 + timedelta(days=7)
        )
    )
    assert late.code == "registration_closed"
    services.tournament_register(tournament_id=windowed.pk, user=players[0], now=T0)


def test_entry_code(make_tournament, players):
    tournament = make_tournament(entry_code="knot")
    error = refusal(
        lambda: services.tournament_register(
            tournament_id=tournament.pk, user=players[0], entry_code="nope"
        )
    )
    assert error.code == "entry_code_wrong"
    services.tournament_register(tournament_id=tournament.pk, user=players[0], entry_code="knot")


def test_invitation_only(make_tournament, organiser, players):
    tournament = make_tournament(registration_mode="invitation", rating_min=2000)
    error = refusal(
        lambda: services.tournament_register(tournament_id=tournament.pk, user=players[0])
    )
    assert error.code == "invitation_required"
    invited = services.entry_invite(tournament_id=tournament.pk, actor=organiser, user=players[0])
    assert invited.status == Entry.Status.INVITED
    # the organiser chose them: the rating limit does not apply
    entry = services.tournament_register(tournament_id=tournament.pk, user=players[0])
    assert (entry.pk, entry.status) == (invited.pk, Entry.Status.APPROVED)


def test_approval(make_tournament, organiser, players):
    tournament = make_tournament(registration_mode="approval", max_players=2)
    entries = [
        services.tournament_register(tournament_id=tournament.pk, user=user) for user in players[:3]
    ]
    assert {e.status for e in entries} == {Entry.Status.PENDING}
    error = refusal(lambda: services.entry_approve(entry_id=entries[0].pk, actor=players[1]))
    assert error.code == "not_organiser"
    services.entry_approve(entry_id=entries[0].pk, actor=organiser)
    services.entry_approve(entry_id=entries[1].pk, actor=organiser)
    error = refusal(lambda: services.entry_approve(entry_id=entries[2].pk, actor=organiser))
    assert error.code == "tournament_full"
    services.entry_decline(entry_id=entries[2].pk, actor=organiser)
    assert Entry.objects.get(pk=entries[2].pk).status == Entry.Status.DECLINED


def test_rating_limits(make_tournament, players):
    low = make_tournament(rating_min=1600)
    error = refusal(lambda: services.tournament_register(tournament_id=low.pk, user=players[0]))
    assert error.code == "rating_too_low"
    assert "your rating is 1500" in error.detail
    high = make_tournament(rating_max=1400)
    error = refusal(lambda: services.tournament_register(tournament_id=high.pk, user=players[0]))
    assert error.code == "rating_too_high"


def test_minimum_finished_games_and_running_games_cap(make_tournament, players):
    a, b = players[:2]
    needs_games = make_tournament(min_finished_games=1)
    error = refusal(lambda: services.tournament_register(tournament_id=needs_games.pk, user=a))
    assert (error.code, error.detail.endswith("you have 0.")) == ("too_few_finished_games", True)
    game = game_services.game_start(players=[a, b])
    capped = make_tournament(max_running_games=1)
    error = refusal(lambda: services.tournament_register(tournament_id=capped.pk, user=a))
    assert error.code == "too_many_running_games"
    game_services.game_resign(game_id=game.pk, user=b)
    services.tournament_register(tournament_id=needs_games.pk, user=a)
    services.tournament_register(tournament_id=capped.pk, user=a)


def test_full_event(make_tournament, players):
    tournament = make_tournament(max_players=2)
    register_all(tournament, players[:2])
    error = refusal(
        lambda: services.tournament_register(tournament_id=tournament.pk, user=players[2])
    )
    assert error.code == "tournament_full"
    assert error.status == 403


def test_cancel_registration_before_the_start(make_tournament, players):
    tournament = make_tournament()
    register_all(tournament, players[:1])
    services.registration_cancel(tournament_id=tournament.pk, user=players[0])
    assert not tournament.entries.exists()
    error = refusal(
        lambda: services.registration_cancel(tournament_id=tournament.pk, user=players[0])
    )
    assert isinstance(error, errors.NotInTournament)


def test_a_registration_cannot_be_cancelled_once_started_or_over_and_says_so_plainly(
    make_tournament, organiser, players
):
    tournament = make_tournament(name="Samhain Open")
    register_all(tournament, players[:2])
    services.tournament_start(tournament_id=tournament.pk, actor=organiser)

    def cancel() -> None:
        services.registration_cancel(tournament_id=tournament.pk, user=players[0])

    running = refusal(cancel)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    over = refusal(cancel)

    assert running.detail == (
        "Samhain Open has started, so a registration can no longer be cancelled; "
        "withdraw from the event instead."
    )
    assert over.detail == "Samhain Open is over, so there is nothing left to withdraw from."
    assert "(" not in running.detail + over.detail


# --- start ---------------------------------------------------------------------------------


def test_start_by_the_organiser_needs_enough_players(make_tournament, organiser, players):
    tournament = make_tournament(min_players=3)
    register_all(tournament, players[:2])
    error = refusal(lambda: services.tournament_start(tournament_id=tournament.pk, actor=organiser))
    assert error.code == "too_few_players"
    assert "needs at least 3 players to start; 2 registered" in error.detail
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.REGISTRATION


def test_automatic_start_with_too_few_players_cancels(make_tournament, players):
    tournament = make_tournament(start_mode="at_date", starts_at=T0, min_players=3)
    register_all(tournament, players[:2], now=T0 - timedelta(days=1))
    assert services.tournament_advance(tournament_id=tournament.pk, now=T0) == {"started": False}
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert "needs at least 3 players" in tournament.status_note


def test_start_when_full(make_tournament, players):
    tournament = make_tournament(start_mode="when_full", max_players=3)
    register_all(tournament, players[:3])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    seeds = list(tournament.entries.order_by("seed").values_list("seed", "status"))
    assert seeds == [(1, "active"), (2, "active"), (3, "active")]


def test_seeds_follow_ratings(make_tournament, organiser, players):
    from rankings.models import Player, PlayerRating

    for user, elo in zip(players[:3], [1400.0, 1700.0, 1550.0], strict=True):
        player = Player.objects.create(name=user.username, user=user)
        PlayerRating.objects.create(
            player=player, elo=elo, glicko_rating=elo, glicko_rd=350, glicko_volatility=0.06
        )
    tournament = make_tournament()
    register_all(tournament, players[:4])
    services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    order = list(tournament.entries.order_by("seed").values_list("name", "rating_at_start"))
    assert order == [("p2", 1700), ("p3", 1550), ("p1", 1400), ("p4", None)]


def test_sections_split_a_big_round_robin(make_tournament, organiser):
    users = [make_user(f"s{i}") for i in range(1, 8)]
    tournament = make_tournament(section_size=4)
    register_all(tournament, users)
    services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    sizes = sorted(tournament.entries.filter(section=s).count() for s in (1, 2))
    assert sizes == [3, 4]
    tournament.refresh_from_db()
    assert tournament.rounds_planned == 3  # the bigger section's rounds
