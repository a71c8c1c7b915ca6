"""Two full seasons of a league run by the clock, with every table checked.

Rules: divisions of 4 (at least 3), one up and one down between neighbouring tiers, a
rookie division, 7 days of registration, seasons of 28 days.

Season 1 (registration opens T0, starts T0+7, ends T0+35): p1..p8, all unrated, placed by
registration order: Division 1 = p1..p4, Division 2 = p5..p8. The earlier player in each
division wins every game, except p7-p8, still running at the end date and adjudicated
1-0 for p7 by the organiser. p2 plays this season only (the player who leaves).

Season 2 (opens T0+35, starts T0+42): p1, p3, p4, p5, p6, p7, p8 carried over, newcomers
n1..n4. Division 1 = p1, p3 (stayed), p5 (promoted), p6 (an extra promotion for p2's
place); Division 2 = p7, p8, p4 (relegated) and n4, whom the organiser moved there; the
rookies n1, n2, n3 play a division of their own.
"""

from __future__ import annotations

import pytest
from django.core import mail

from leagues import selectors, services
from leagues.audit import LEAGUE_MOVE
from leagues.models import Division, Membership, Season
from moderation.models import AuditEntry
from notifications.models import OutboxEmail
from tests.accounts.factories import make_user
from tests.leagues.conftest import DAY, T0, play_division
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def table(division: Division) -> list[tuple]:
    return [
        (line.place, line.name, line.points, line.zone, line.decided, line.outcome)
        for line in selectors.division_table(division=division).lines
    ]


def divisions_of(season: Season) -> dict[str, list[str]]:
    return {
        d.name: sorted(m.player.username for m in d.memberships.all())
        for d in season.divisions.all()
    }


def test_two_seasons_with_promotions_relegations_a_leaver_a_newcomer_and_rookies(
    organiser, clock, beat, commit
):
    p = {name: make_user(name) for name in ["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"]}
    n = {name: make_user(name) for name in ["n1", "n2", "n3", "n4"]}

    league = services.league_create(
        organiser=organiser,
        name="Tuesday League",
        first_registration_opens_at=T0,
        division_size=4,
        division_min_size=3,
        promotion_count=1,
        relegation_count=1,
        rookie_division=True,
        registration_days=7,
        season_days=28,
        tiebreaks=["de", "sb"],
    )
    season1 = league.seasons.get()
    assert (season1.status, season1.starts_at, season1.ends_at) == (
        "registration",
        T0 + 7 * DAY,
        T0 + 35 * DAY,
    )

    # --- season 1: registration and start --------------------------------------------------
    for hour, name in enumerate(["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"]):
        clock(T0 + DAY + hour * DAY / 24)
        services.season_register(season_id=season1.pk, user=p[name], this_season_only=name == "p2")
    clock(T0 + 7 * DAY - DAY / 24)
    beat()
    assert Season.objects.get(pk=season1.pk).status == "registration"
    clock(T0 + 7 * DAY)
    mail.outbox.clear()
    beat()
    season1.refresh_from_db()
    assert season1.status == "running"
    assert divisions_of(season1) == {
        "Division 1": ["p1", "p2", "p3", "p4"],
        "Division 2": ["p5", "p6", "p7", "p8"],
    }
    division_emails = OutboxEmail.objects.filter(event="league_division")
    assert division_emails.count() == 8
    p1_email = division_emails.get(recipient=p["p1"])
    assert p1_email.subject == "Tuesday League, season 1: you play in Division 1"
    assert "against p4" in p1_email.body_text and p1_email.body_text.count("- ") == 3
    d1, d2 = season1.divisions.order_by("tier")
    assert d1.tournament.status == "running" and d1.tournament.games.count() == 6

    # --- season 1: the games ---------------------------------------------------------------
    clock(T0 + 8 * DAY)
    play_division(d1, [p["p1"], p["p2"], p["p3"], p["p4"]], commit=commit)
    play_division(d2, [p["p5"], p["p6"], p["p7"], p["p8"]], commit=commit, skip=(p["p7"], p["p8"]))
    beat()
    assert table(d1) == [
        (1, "p1", 3, "", "stays", ""),
        (2, "p2", 2, "", "stays", ""),
        (3, "p3", 1, "", "stays", ""),
        (4, "p4", 0, "relegation", "relegated", ""),
    ]
    # p7-p8 still to play: p5 is promoted whatever happens, p6 is sure of second place
    lines = selectors.division_table(division=d2).lines
    assert [(x.place, x.name, x.points, x.best, x.worst, x.zone, x.decided) for x in lines] == [
        (1, "p5", 3, 1, 1, "promotion", "promoted"),
        (2, "p6", 2, 2, 2, "", "stays"),
        (3, "p7", 0, 3, 4, "", "stays"),
        (3, "p8", 0, 3, 4, "", "stays"),
    ]
    assert Season.objects.get(pk=season1.pk).status == "running"

    # the end date passes: the unfinished game goes to the organiser, who adjudicates it
    clock(T0 + 35 * DAY + DAY / 24)
    beat()
    link = d2.tournament.games.get(needs_adjudication=True)
    assert set(link.game.seat_users()) == {p["p7"], p["p8"]}
    assert OutboxEmail.objects.filter(event="tournament_organiser", recipient=organiser).exists()
    winner = "1-0" if link.game.seat_of(p["p7"]) == 1 else "0-1"
    with commit():
        tournament_services.tournament_game_adjudicate(
            tournament_game_id=link.pk, actor=organiser, result=winner, reason="p7 clearly winning"
        )
    beat()

    # --- season 1: end ----------------------------------------------------------------------
    season1.refresh_from_db()
    assert season1.status == "finished"
    assert table(d1) == [
        (1, "p1", 3, "", "stays", "stayed"),
        (2, "p2", 2, "", "stays", "stayed"),
        (3, "p3", 1, "", "stays", "stayed"),
        (4, "p4", 0, "relegation", "relegated", "relegated"),
    ]
    assert table(d2) == [
        (1, "p5", 3, "promotion", "promoted", "promoted"),
        (2, "p6", 2, "", "stays", "stayed"),
        (3, "p7", 1, "", "stays", "stayed"),
        (4, "p8", 0, "", "stays", "stayed"),
    ]
    season2 = league.seasons.get(number=2)
    assert (season2.status, season2.registration_opens_at, season2.starts_at) == (
        "registration",
        T0 + 35 * DAY + DAY / 24,
        T0 + 42 * DAY + DAY / 24,
    )
    carried = sorted(m.player.username for m in season2.memberships.filter(carried_over=True))
    assert carried == ["p1", "p3", "p4", "p5", "p6", "p7", "p8"]  # p2 played one season only
    end_email = OutboxEmail.objects.get(event="league_season_end", recipient=p["p5"])
    assert end_email.subject == "Tuesday League, season 1: promoted!"
    promoted = "You finished in place 1 of Division 2: you are promoted to division 1"
    assert promoted in end_email.body_text
    assert "You are registered for the next season" in end_email.body_text
    p2_email = OutboxEmail.objects.get(event="league_season_end", recipient=p["p2"])
    assert "You are not registered for the next season" in p2_email.body_text
    open_email = OutboxEmail.objects.get(event="league_season_open", recipient=p["p2"])
    assert "You are not registered for it" in open_email.body_text

    # --- season 2: newcomers, the organiser's move, the start ---------------------------------
    clock(T0 + 36 * DAY)
    for name in ["n1", "n2", "n3", "n4"]:
        services.season_register(season_id=season2.pk, user=n[name])
    services.season_player_move(
        season_id=season2.pk,
        actor=organiser,
        player_id=n["n4"].pk,
        tier=2,
        reason="Strong player from the Friday club",
    )
    audit = AuditEntry.objects.get(action=LEAGUE_MOVE)
    assert (audit.actor, audit.reason, audit.data["tier"]) == (
        organiser,
        "Strong player from the Friday club",
        2,
    )
    clock(T0 + 42 * DAY + DAY / 24)
    beat()
    season2.refresh_from_db()
    assert season2.status == "running"
    assert divisions_of(season2) == {
        "Division 1": ["p1", "p3", "p5", "p6"],
        "Division 2": ["n4", "p4", "p7", "p8"],
        "Rookies": ["n1", "n2", "n3"],
    }
    how = dict(
        Membership.objects.filter(season=season2).values_list("player__username", "placed_how")
    )
    assert how == {
        "p1": "returning",
        "p3": "returning",
        "p5": "returning",
        "p6": "extra_promotion",
        "p4": "returning",
        "p7": "returning",
        "p8": "returning",
        "n4": "organiser",
        "n1": "rookie",
        "n2": "rookie",
        "n3": "rookie",
    }
    e1, e2 = season2.divisions.filter(rookie=False).order_by("tier")
    rookies = season2.divisions.get(rookie=True)
    assert (rookies.tier, rookies.tournament.games.count()) == (3, 3)

    # --- season 2: the games and the end -----------------------------------------------------
    clock(T0 + 43 * DAY)
    play_division(e1, [p["p5"], p["p1"], p["p3"], p["p6"]], commit=commit)
    play_division(e2, [p["p4"], n["n4"], p["p7"], p["p8"]], commit=commit)
    play_division(rookies, [n["n1"], n["n2"], n["n3"]], commit=commit)
    beat()
    season2.refresh_from_db()
    assert season2.status == "finished"
    assert table(e1) == [
        (1, "p5", 3, "", "stays", "stayed"),
        (2, "p1", 2, "", "stays", "stayed"),
        (3, "p3", 1, "", "stays", "stayed"),
        (4, "p6", 0, "relegation", "relegated", "relegated"),
    ]
    assert table(e2) == [
        (1, "p4", 3, "promotion", "promoted", "promoted"),
        (2, "n4", 2, "", "stays", "stayed"),
        (3, "p7", 1, "", "stays", "stayed"),
        (4, "p8", 0, "", "stays", "stayed"),
    ]
    assert table(rookies) == [
        (1, "n1", 2, "promotion", "promoted", "promoted"),
        (2, "n2", 1, "", "stays", "stayed"),
        (3, "n3", 0, "", "stays", "stayed"),
    ]
    next_tier = dict(
        Membership.objects.filter(season=season2).values_list("player__username", "next_tier")
    )
    assert next_tier == {
        "p5": 1, "p1": 1, "p3": 1, "p6": 2,
        "p4": 1, "n4": 2, "p7": 2, "p8": 2,
        "n1": 2, "n2": 3, "n3": 3,
    }  # fmt: skip
    season3 = league.seasons.get(number=3)
    assert season3.status == "planned"  # opens on season 2's end date
    assert season3.registration_opens_at == T0 + 70 * DAY + DAY / 24
    assert season3.memberships.count() == 11

    # --- the history -------------------------------------------------------------------------
    winners, paths = selectors.league_history(league=league)
    assert [(w.season.number, [(d, name) for d, name, _ in w.winners]) for w in winners] == [
        (2, [("Division 1", "p5"), ("Division 2", "p4"), ("Rookies", "n1")]),
        (1, [("Division 1", "p1"), ("Division 2", "p5")]),
    ]  # season 3 has no divisions yet
    assert winners[0].winners[0][2] == [p["p5"]]  # the users, for the page's player_link
    path = {
        x.name: [(s.season_number, s.division, s.place, s.outcome) for s in x.steps] for x in paths
    }
    assert path["p4"] == [(1, "Division 1", 4, "relegated"), (2, "Division 2", 1, "promoted")]
    assert path["p5"] == [(1, "Division 2", 1, "promoted"), (2, "Division 1", 1, "stayed")]
    assert path["p2"] == [(1, "Division 1", 2, "stayed")]
    assert path["n1"] == [(2, "Rookies", 1, "promoted")]

    # --- the beat is idempotent ----------------------------------------------------------------
    before = (Season.objects.count(), Membership.objects.count(), OutboxEmail.objects.count())
    beat()
    beat()
    assert (
        Season.objects.count(),
        Membership.objects.count(),
        OutboxEmail.objects.count(),
    ) == before
