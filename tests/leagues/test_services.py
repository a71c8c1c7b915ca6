"""League services: the refusals, each with its code, and the cases the long run skips
(a season too small to play, a withdrawal, a percentage of movers, the beat run twice)."""

from __future__ import annotations

import pytest

from leagues import errors, services
from leagues.models import Membership, Season
from notifications.models import OutboxEmail
from tests.accounts.factories import make_superuser, make_user
from tests.leagues.conftest import DAY, T0, grant, play_division
from tournaments import services as tournament_services
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def code_of(call, **kwargs) -> str:
    with pytest.raises(Exception) as refused:
        call(**kwargs)
    return refused.value.code  # type: ignore[attr-defined]


def league(organiser, **rules):
    rules.setdefault("name", "Test League")
    return services.league_create(organiser=organiser, first_registration_opens_at=T0, **rules)


def test_only_organisers_create_leagues(db):
    plain = make_user("plain")
    assert (
        code_of(services.league_create, organiser=plain, name="X", first_registration_opens_at=T0)
        == "organiser_permission_required"
    )


def test_bad_rules_are_named_together(organiser):
    with pytest.raises(Exception) as refused:
        league(
            organiser,
            division_size=4,
            division_min_size=5,
            relegation_count=None,
            relegation_percent=60,
            tiebreaks=["sb", "nope"],
            season_days=3,
        )
    assert refused.value.code == "invalid_settings"
    assert refused.value.extra["errors"] == {
        "division_size": "At least the smallest division (5 players), not 4.",
        "relegation_percent": "From 0 to 49 percent of the division, not 60.",
        "tiebreaks": "Unknown tie-break(s): nope.",
        "season_days": "From 7 to 365 days, not 3.",
    }
    assert code_of(league, organiser=organiser, colour="red") == "unknown_setting"


def test_registration_refusals(organiser, clock):
    lg = services.league_create(
        organiser=organiser, name="Later", first_registration_opens_at=T0 + 3 * DAY
    )
    season = lg.seasons.get()
    player = make_user("pl")
    assert season.status == "planned"
    with pytest.raises(errors.WrongSeasonStatus) as refused:
        services.season_register(season_id=season.pk, user=player)
    assert refused.value.detail == (
        "You cannot register now: Later season 1 is not open for registration yet. "
        "That is possible only while the season is open for registration."
    )
    assert code_of(services.season_register, season_id=999, user=player) == "season_not_found"
    clock(T0 + 3 * DAY)
    services.leagues_advance(now=T0 + 3 * DAY)
    services.season_register(season_id=season.pk, user=player)
    assert (
        code_of(services.season_register, season_id=season.pk, user=player) == "already_registered"
    )
    services.season_registration_cancel(season_id=season.pk, user=player)
    assert (
        code_of(services.season_registration_cancel, season_id=season.pk, user=player)
        == "not_in_season"
    )
    again = services.season_register(season_id=season.pk, user=player, this_season_only=True)
    assert (again.status, again.this_season_only) == ("registered", True)
    assert Membership.objects.count() == 1


def test_moves_need_the_organiser_a_reason_and_a_season_not_started(organiser, clock):
    lg = league(organiser)
    season = lg.seasons.get()
    player, other = make_user("pl"), make_user("ot")
    services.season_register(season_id=season.pk, user=player)
    move = {"season_id": season.pk, "player_id": player.pk, "tier": 1}
    assert code_of(services.season_player_move, actor=other, reason="r", **move) == "not_organiser"
    assert (
        code_of(services.season_player_move, actor=organiser, reason="  ", **move)
        == "reason_required"
    )
    with pytest.raises(errors.InvalidLeagueSettings) as refused:
        services.season_player_move(actor=organiser, reason="r", **{**move, "tier": 40000})
    assert refused.value.detail == "The division must be from 1 (the top one) to 100, not 40000."
    services.season_player_move(actor=organiser, reason="strong", **move)
    Season.objects.filter(pk=season.pk).update(status="running")
    assert (
        code_of(services.season_player_move, actor=organiser, reason="r", **move) == "wrong_status"
    )


def test_a_season_too_small_is_cancelled_and_the_next_opens_with_its_players(organiser, clock):
    lg = league(organiser)
    season = lg.seasons.get()
    services.season_register(season_id=season.pk, user=make_user("alone"))
    start = season.starts_at
    assert services.leagues_advance(now=start) == {season.pk: {"started": False}}
    season.refresh_from_db()
    assert (season.status, season.status_note) == (
        "cancelled",
        "Too few players registered (1) to make a division.",
    )
    following = lg.seasons.get(number=2)
    assert (following.status, following.registration_opens_at) == ("registration", start)
    assert list(following.memberships.values_list("player__username", "carried_over")) == [
        ("alone", True)
    ]
    assert services.leagues_advance(now=start + DAY) == {}  # nothing more until its start


def test_a_season_nobody_registered_for_leaves_the_league_resting(organiser, clock):
    lg = league(organiser, name="Quiet League")
    season = lg.seasons.get()
    services.leagues_advance(now=season.starts_at)
    assert list(lg.seasons.values_list("number", "status")) == [(1, "cancelled")]


def test_a_withdrawal_follows_the_tournaments_policy_and_the_leaver_is_not_carried(
    organiser, clock, beat, commit
):
    lg = league(
        organiser,
        division_size=4,
        division_min_size=3,
        promotion_percent=25,
        promotion_count=None,
        relegation_count=1,
    )
    season = lg.seasons.get()
    users = [make_user(f"w{i}") for i in range(1, 9)]
    for user in users:
        services.season_register(season_id=season.pk, user=user)
    clock(season.starts_at)
    beat()
    beat()  # the second run starts nothing twice
    season.refresh_from_db()
    assert season.divisions.count() == 2
    top, bottom = season.divisions.order_by("tier")
    # w2 leaves Division 1 before playing: under the half rule all their results are cancelled
    with commit():
        tournament_services.entry_withdraw(tournament_id=top.tournament_id, user=users[1])
    entry = Entry.objects.get(tournament=top.tournament, player=users[1])
    assert (entry.status, entry.results_cancelled) == ("withdrawn", True)
    clock(season.starts_at + DAY)
    play_division(top, [users[0], users[2], users[3]], commit=commit)
    play_division(bottom, users[4:], commit=commit)
    beat()
    season.refresh_from_db()
    assert season.status == "finished"
    result = {
        m.player.username: (m.final_place, m.outcome, m.next_tier)
        for m in season.memberships.select_related("player")
    }
    assert result == {
        "w1": (1, "stayed", 1),
        "w3": (2, "stayed", 1),
        "w4": (3, "stayed", 1),
        "w2": (4, "relegated", 2),  # withdrawn: last
        "w5": (1, "promoted", 1),  # 25 % of 4 is one player
        "w6": (2, "stayed", 2),
        "w7": (3, "stayed", 2),
        "w8": (4, "stayed", 2),
    }
    following = lg.seasons.get(number=2)
    assert sorted(following.memberships.values_list("player__username", flat=True)) == [
        "w1", "w3", "w4", "w5", "w6", "w7", "w8",
    ]  # fmt: skip


def test_league_emails_follow_each_players_settings(organiser, clock, beat, commit):
    season = league(
        organiser, division_size=3, division_min_size=3, promotion_count=1, relegation_count=1
    ).seasons.get()
    quiet, keen, third = make_user("quiet"), make_user("keen"), make_user("third")
    quiet.profile.notify_challenge = False
    quiet.profile.notify_game_end = False
    quiet.profile.save()
    for user in (quiet, keen, third):
        services.season_register(season_id=season.pk, user=user)
    clock(season.starts_at)
    beat()
    division = Season.objects.get(pk=season.pk).divisions.get()
    sent = OutboxEmail.objects.filter(event="league_division")
    assert sorted(sent.values_list("recipient__username", flat=True)) == ["keen", "third"]
    clock(season.starts_at + DAY)
    play_division(division, [keen, third, quiet], commit=commit)
    beat()
    ends = OutboxEmail.objects.filter(event="league_season_end")
    assert sorted(ends.values_list("recipient__username", flat=True)) == ["keen", "third"]
    keen_email = ends.get(recipient=keen).body_text
    assert "You finished in place 1 of Division 1: you stay in division 1" in keen_email


def test_only_its_organiser_or_a_superuser_changes_a_league(organiser, clock):
    """The organiser permission lets a user organise their own leagues, not another's."""
    lg = league(organiser)
    rival = grant(make_user("rival"), "organise_league")
    assert (
        code_of(services.league_update, league_id=lg.pk, actor=rival, name="Mine")
        == "not_organiser"
    )
    services.league_update(league_id=lg.pk, actor=make_superuser(), name="Renamed")
    services.league_update(league_id=lg.pk, actor=organiser, name="Renamed again")
    lg.refresh_from_db()
    assert lg.name == "Renamed again"
    stripped = make_user("stripped")
    lg.organiser = stripped  # an organiser whose permission was taken away
    lg.save(update_fields=["organiser"])
    assert (
        code_of(services.league_update, league_id=lg.pk, actor=stripped, name="Mine")
        == "not_organiser"
    )


def test_staff_with_the_move_permission_move_players_in_any_league(organiser, clock):
    lg = league(organiser)
    season = lg.seasons.get()
    player = make_user("pl")
    services.season_register(season_id=season.pk, user=player)
    move = {"season_id": season.pk, "player_id": player.pk, "tier": 1, "reason": "r"}
    mover = grant(make_user("mover"), "manage_league_players")
    assert code_of(services.season_player_move, actor=mover, **move) == "not_organiser"
    mover.is_staff = True
    mover.save(update_fields=["is_staff"])
    services.season_player_move(actor=mover, **move)
    assert Membership.objects.get(season=season, player=player).tier_requested == 1
