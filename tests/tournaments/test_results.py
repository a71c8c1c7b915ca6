"""How games count in an event: results, forfeits, cancellations, withdrawals, deadlines,
the organiser's adjudications and fixes, and the hook that records them."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth.models import User

from celticsite.errors import DomainError
from games import services as game_services
from games.models import Game
from games.timeouts import game_timeouts_decide
from moderation.models import AuditEntry
from notifications.models import OutboxEmail
from rankings.models import RatedResult
from tests.accounts.factories import make_superuser
from tests.tournaments.conftest import T0, finish, first_move, register_all
from tournaments import selectors, services
from tournaments.models import Entry, Round, Tournament, TournamentGame

pytestmark = pytest.mark.django_db

R = TournamentGame.Result


@pytest.fixture(autouse=True)
def _at_t0():
    """Every clock reads T0 unless a test passes another ``now``."""
    with time_machine.travel(T0, tick=False):
        yield


@pytest.fixture
def arbiter(db) -> User:
    return make_superuser("arbiter")


@pytest.fixture
def four(make_tournament, organiser, players, commit):
    """A running single round robin of p1..p4 (seeded in registration order), started at
    T0 with round 1 on. Clocks are frozen at T0 (``time_machine``) so deadlines hold."""

    def make(**settings):
        tournament = make_tournament(**settings)
        register_all(tournament, players[:4])
        with commit():
            services.tournament_start(tournament_id=tournament.pk, actor=organiser, now=T0)
        return Tournament.objects.get(pk=tournament.pk)

    return make


def links(tournament, number):
    return list(
        TournamentGame.objects.filter(tournament=tournament, round__number=number)
        .select_related("game", "orange", "blue")
        .order_by("board")
    )


def test_results_count_and_the_next_round_starts(four, commit):
    tournament = four()
    first, second = links(tournament, 1)
    finish(first.game, "1-0", commit=commit)
    first.refresh_from_db()
    assert first.result == R.ORANGE_WINS
    assert Round.objects.get(tournament=tournament, number=2).status == "planned"
    finish(second.game, "0-1", commit=commit)
    assert Round.objects.get(tournament=tournament, number=1).status == "complete"
    assert Round.objects.get(tournament=tournament, number=2).status == "running"
    news = OutboxEmail.objects.get(event="tournament_organiser")
    assert "round 1 is complete" in news.subject


def test_recording_twice_changes_nothing(four, commit):
    tournament = four()
    first, second = links(tournament, 1)
    finish(first.game, "1-0", commit=commit)
    finish(second.game, "1-0", commit=commit)
    games_before = Game.objects.count()
    for link in (first, second):
        services.tournament_game_ended(game_id=link.game.pk)
    assert services.tournaments_advance(now=T0 + timedelta(hours=1)) == {}
    assert Game.objects.count() == games_before
    assert Round.objects.get(tournament=tournament, number=2).status == "running"


def test_a_lost_hook_is_caught_up_by_the_beat(four):
    tournament = four()
    first, _ = links(tournament, 1)
    # ended without the on-commit hook (as if the broker was down)
    game_services.game_resign(game_id=first_move(first.game).pk, user=first.game.user_at(2))
    assert TournamentGame.objects.get(pk=first.pk).result == R.PENDING
    done = services.tournaments_advance(now=T0 + timedelta(minutes=1))
    assert done == {tournament.pk: {"results_recorded": [first.pk]}}
    assert TournamentGame.objects.get(pk=first.pk).result == R.ORANGE_WINS


def test_timeout_is_a_loss_and_no_move_is_a_forfeit(four, commit):
    tournament = four()
    played, unstarted = links(tournament, 1)
    first_move(played.game, now=T0)
    with commit():
        game_timeouts_decide(now=T0 + timedelta(days=10))
    played.refresh_from_db()
    unstarted.refresh_from_db()
    assert played.game.termination == Game.Termination.TIMEOUT
    assert played.result == R.ORANGE_WINS  # Blue ran out of time: a loss like any other
    assert unstarted.game.status == Game.Status.ANNULLED
    assert unstarted.result == R.BLUE_FORFEIT_WIN  # Orange never moved: a forfeit
    records = {
        row.name: row.points for row in selectors.tournament_standings(tournament=tournament).rows
    }
    assert records[unstarted.blue.name] == 1  # the forfeit win scores a point
    assert records[unstarted.orange.name] == 0
    assert Round.objects.get(tournament=tournament, number=2).status == "running"


def test_a_moderator_annulment_cancels_the_game(four, commit, arbiter):
    tournament = four()
    first, _ = links(tournament, 1)
    with commit():
        game_services.game_annul(game_id=first.game.pk, actor=arbiter, reason="cheating")
    first.refresh_from_db()
    assert first.result == R.CANCELLED


def test_withdrawal_before_half_cancels_every_result(four, commit, players):
    tournament = four(round_start_mode="all_at_once")
    p1_game = next(
        link for link in links(tournament, 1) if link.game.seat_of(players[0]) is not None
    )
    with commit():
        services.entry_withdraw(tournament_id=tournament.pk, user=players[0])
    entry = Entry.objects.get(tournament=tournament, player=players[0])
    assert (entry.status, entry.results_cancelled) == ("withdrawn", True)
    mine = TournamentGame.objects.filter(tournament=tournament).filter(
        orange=entry
    ) | TournamentGame.objects.filter(tournament=tournament, blue=entry)
    assert {link.result for link in mine} == {R.CANCELLED}
    assert mine.count() == 3
    p1_game.game.refresh_from_db()
    assert p1_game.game.termination == Game.Termination.RESIGNATION  # their game was resigned
    assert OutboxEmail.objects.filter(event="tournament_withdrawn", recipient=players[0]).exists()
    error = None
    try:
        services.entry_withdraw(tournament_id=tournament.pk, user=players[0])
    except DomainError as exc:
        error = exc
    assert error is not None and error.code == "not_in_tournament"


def test_withdrawal_after_half_forfeits_the_rest(four, commit, players):
    tournament = four()
    for number in (1, 2):
        for link in links(tournament, number):
            finish(link.game, "1-0", commit=commit)
    assert Round.objects.get(tournament=tournament, number=3).status == "running"
    with commit():
        services.entry_withdraw(tournament_id=tournament.pk, user=players[0])
    entry = Entry.objects.get(tournament=tournament, player=players[0])
    assert (entry.results_cancelled, entry.withdrawn_after_round) == (False, 3)
    last = next(link for link in links(tournament, 3) if entry.pk in (link.orange_id, link.blue_id))
    expected = R.BLUE_FORFEIT_WIN if last.orange_id == entry.pk else R.ORANGE_FORFEIT_WIN
    assert (last.result, last.result_fixed) == (expected, True)
    earlier = TournamentGame.objects.filter(tournament=tournament, round__number__lt=3)
    assert R.CANCELLED not in set(earlier.values_list("result", flat=True))


def test_later_rounds_of_a_withdrawn_player_are_forfeits_without_games(four, commit, players):
    tournament = four(withdrawal_policy="forfeit_rest")
    with commit():
        services.entry_withdraw(tournament_id=tournament.pk, user=players[3])
    for link in links(tournament, 1):
        if link.game.is_active:
            finish(link.game, "1-0", commit=commit)
    round_two = links(tournament, 2)
    absent = next(link for link in round_two if link.game is None)
    assert absent.result in (R.ORANGE_FORFEIT_WIN, R.BLUE_FORFEIT_WIN)
    assert len([link for link in round_two if link.game is not None]) == 1


def test_organiser_removes_a_player_with_a_reason(four, organiser, players, commit):
    tournament = four()
    entry = Entry.objects.get(tournament=tournament, player=players[1])
    with pytest.raises(DomainError) as caught:
        services.entry_remove(entry_id=entry.pk, actor=organiser, reason="  ")
    assert caught.value.code == "reason_required"
    with commit():
        services.entry_remove(entry_id=entry.pk, actor=organiser, reason="never moves")
    entry.refresh_from_db()
    assert entry.status == Entry.Status.REMOVED
    audit = AuditEntry.objects.get(action="tournament_remove")
    assert (audit.reason, audit.actor_id) == ("never moves", organiser.pk)


def test_deadline_sends_games_to_the_organiser_who_adjudicates(four, organiser, commit):
    tournament = four(round_duration_days=5)
    first, second = links(tournament, 1)
    assert Round.objects.get(tournament=tournament, number=1).ends_at == T0 + timedelta(days=5)
    finish(first.game, "1-0", commit=commit)
    assert services.tournaments_advance(now=T0 + timedelta(days=4)) == {}
    done = services.tournaments_advance(now=T0 + timedelta(days=5, minutes=1))
    assert done == {tournament.pk: {"adjudication_needed": [second.pk]}}
    assert services.tournaments_advance(now=T0 + timedelta(days=5, minutes=2)) == {}
    news = OutboxEmail.objects.get(event="tournament_organiser", recipient=organiser)
    assert f"game #{second.game.pk}" in news.body_text
    assert list(selectors.tournament_games_to_adjudicate(tournament=tournament)) == [second]
    with commit():
        services.tournament_game_adjudicate(
            tournament_game_id=second.pk, actor=organiser, result="1/2-1/2", reason="even"
        )
    second.refresh_from_db()
    assert (second.result, second.needs_adjudication) == (R.DRAW, False)
    assert AuditEntry.objects.filter(action="game_adjudicate", actor=organiser).count() == 1
    assert Round.objects.get(tournament=tournament, number=2).status == "running"


def test_only_the_organiser_adjudicates(four, players):
    tournament = four()
    first, _ = links(tournament, 1)
    with pytest.raises(DomainError) as caught:
        services.tournament_game_adjudicate(
            tournament_game_id=first.pk, actor=players[0], result="1-0", reason="I won"
        )
    assert caught.value.code == "not_organiser"


def test_result_fix_is_audited_and_sticks(four, organiser, commit, arbiter):
    tournament = four()
    first, _ = links(tournament, 1)
    finish(first.game, "1-0", commit=commit)
    with pytest.raises(DomainError) as caught:
        services.tournament_result_fix(
            tournament_game_id=first.pk, actor=organiser, result="2-0", reason="x"
        )
    assert caught.value.code == "invalid_result"
    with commit():
        services.tournament_result_fix(
            tournament_game_id=first.pk, actor=organiser, result=R.BLUE_FORFEIT_WIN, reason="late"
        )
    audit = AuditEntry.objects.get(action="tournament_result_fix")
    assert audit.data == {"tournament": tournament.pk, "previous": "1-0", "result": "-/+"}
    # a later change to the game itself does not overwrite the organiser's decision
    with commit():
        game_services.game_adjudicate(
            game_id=first.game.pk, actor=arbiter, result="1-0", reason="again"
        )
    first.refresh_from_db()
    assert first.result == R.BLUE_FORFEIT_WIN


def _pair_by_hand(tournament, organiser, pairs, *, now=None):
    return services.round_pair_manually(
        tournament_id=tournament.pk, actor=organiser, pairs=pairs, reason="test", now=now
    )


def test_manual_pairing_waits_for_the_round_before(four, organiser, commit):
    tournament = four(round_start_mode="on_dates", round_interval_days=7)
    e1, e2, e3, e4 = tournament.entries.order_by("seed")
    with pytest.raises(DomainError) as caught:
        _pair_by_hand(tournament, organiser, [(e1.pk, e2.pk), (e3.pk, e4.pk)])
    assert caught.value.code == "round_not_complete"
    assert "once round 1 is complete" in caught.value.detail
    assert tournament.rounds.get(number=2).status == "planned"
    assert not links(tournament, 2)


def test_manual_pairing(four, organiser, commit):
    tournament = four(round_start_mode="on_dates", round_interval_days=7)
    for link in links(tournament, 1):
        finish(link.game, "1-0", commit=commit, now=T0 + timedelta(days=1))
    # round 1 complete, round 2 waits for its date: pair it by hand instead of the table
    e1, e2, e3, e4 = tournament.entries.order_by("seed")
    with pytest.raises(DomainError) as caught:
        _pair_by_hand(tournament, organiser, [(e1.pk, e2.pk)])
    assert caught.value.code == "manual_pairing_invalid"
    assert "not paired" in caught.value.detail
    with commit():
        rnd = _pair_by_hand(
            tournament, organiser, [(e1.pk, e3.pk), (e4.pk, e2.pk)], now=T0 + timedelta(days=2)
        )
    assert (rnd.number, Round.objects.get(pk=rnd.pk).status) == (2, "running")
    assert [(g.orange.seed, g.blue.seed) for g in links(tournament, 2)] == [(1, 3), (4, 2)]
    # round 2 now runs: round 3 waits for it
    with pytest.raises(DomainError) as caught:
        _pair_by_hand(tournament, organiser, [(e1.pk, e4.pk), (e2.pk, e3.pk)])
    assert caught.value.code == "round_not_complete"


def test_ratings_name_the_tournament_and_unrated_events_are_unrated(
    four, make_tournament, organiser, players, commit
):
    rated = four(name="Rated Cup")
    first, _ = links(rated, 1)
    finish(first.game, "1-0", commit=commit)
    assert first.game.tournament == rated
    assert RatedResult.objects.get(game_id=first.game.pk).tournament_name == "Rated Cup"
    unrated = make_tournament(name="Friendly", rated=False)
    register_all(unrated, players[4:6])
    with commit():
        services.tournament_start(tournament_id=unrated.pk, actor=organiser)
    (only,) = links(unrated, 1)
    assert only.game.rated is False
    finish(only.game, "1-0", commit=commit)
    assert not RatedResult.objects.filter(game_id=only.game.pk).exists()


def test_an_event_that_cannot_be_paired_does_not_hold_up_the_others(
    make_tournament, organiser, players, monkeypatch
):
    from tournaments import plugins
    from tournaments.pairing.base import PairingError

    def no_pairing(*args, **kwargs):
        raise PairingError("every pairing repeats a game")

    broken = make_tournament(
        format="swiss", rounds_planned=2, start_mode="at_date", starts_at=T0 + timedelta(days=1)
    )
    fine = make_tournament(start_mode="at_date", starts_at=T0 + timedelta(days=1))
    register_all(broken, players[:3])
    register_all(fine, players[3:6])
    monkeypatch.setitem(plugins._SYSTEMS, "swiss", no_pairing)
    report = services.tournaments_advance(now=T0 + timedelta(days=1))
    assert report == {broken.pk: {"started": True}, fine.pk: {"started": True}}
    # the start stands; the round waits, the organiser is told once, the beat tries again
    assert Round.objects.get(tournament=broken, number=1).status == "pairing"
    told = OutboxEmail.objects.filter(recipient=organiser, dedupe_key__contains=":pairing_failed:")
    assert [mail.subject for mail in told] == [f"{broken.name}: round 1 cannot be paired"]
    assert "every pairing repeats a game" in told.get().body_text
    later = T0 + timedelta(days=1, minutes=2)
    assert services.tournaments_advance(now=later) == {broken.pk: {"pairing_requeued": [1]}}
    assert told.count() == 1
    assert Round.objects.get(tournament=fine, number=1).status == "running"


def test_the_organiser_sets_round_dates(four, organiser, players, commit):
    tournament = four(round_start_mode="on_dates", round_interval_days=7)
    with pytest.raises(DomainError) as caught:
        services.round_dates_set(
            tournament_id=tournament.pk, actor=players[0], round_number=1, ends_at=T0
        )
    assert caught.value.code == "not_organiser"
    with pytest.raises(DomainError) as caught:
        services.round_dates_set(
            tournament_id=tournament.pk, actor=organiser, round_number=1, ends_at=T0
        )
    assert caught.value.code == "round_ends_before_start"
    with pytest.raises(DomainError) as caught:
        services.round_dates_set(
            tournament_id=tournament.pk, actor=organiser, round_number=1, starts_at=T0
        )
    assert caught.value.code == "round_started"
    with pytest.raises(DomainError) as caught:
        services.round_dates_set(tournament_id=tournament.pk, actor=organiser, round_number=9)
    assert caught.value.code == "no_such_round"
    services.round_dates_set(
        tournament_id=tournament.pk,
        actor=organiser,
        round_number=1,
        ends_at=T0 + timedelta(days=2),
    )
    services.round_dates_set(
        tournament_id=tournament.pk,
        actor=organiser,
        round_number=2,
        starts_at=T0 + timedelta(days=3),
        ends_at=T0 + timedelta(days=4),
    )
    done = services.tournaments_advance(now=T0 + timedelta(days=2, minutes=1))
    assert len(done[tournament.pk]["adjudication_needed"]) == 2
    done = services.tournaments_advance(now=T0 + timedelta(days=3))
    assert done[tournament.pk]["rounds_started"] == [2]
    second = Round.objects.get(tournament=tournament, number=2)
    assert (second.started_at, second.ends_at) == (T0 + timedelta(days=3), T0 + timedelta(days=4))
