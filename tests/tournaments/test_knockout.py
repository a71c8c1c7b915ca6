"""Knockout events: the seeded bracket, matches of two games at once, extra pairs after a
tie, the decider, withdrawals, and the final standings."""

from __future__ import annotations

import pytest
import time_machine

from celticsite.errors import DomainError
from moderation.models import AuditEntry
from notifications.models import OutboxEmail
from tests.tournaments.conftest import T0, finish, register_all
from tournaments import selectors, services
from tournaments.models import Entry, KnockoutMatch, Round, Tournament, TournamentGame

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _at_t0():
    with time_machine.travel(T0, tick=False):
        yield


@pytest.fixture
def knockout(make_tournament, organiser, players, commit):
    def make(count: int = 4, **settings):
        tournament = make_tournament(format="knockout", **settings)
        register_all(tournament, players[:count])
        with commit():
            services.tournament_start(tournament_id=tournament.pk, actor=organiser)
        return Tournament.objects.get(pk=tournament.pk)

    return make


def match(tournament, round_number, number) -> KnockoutMatch:
    return KnockoutMatch.objects.select_related("higher", "lower", "winner").get(
        round__tournament=tournament, round__number=round_number, number=number
    )


def games_of(m: KnockoutMatch, pair: int) -> list[TournamentGame]:
    return list(m.games.filter(pair=pair).select_related("game").order_by("board"))


def win_pair(m: KnockoutMatch, pair: int, winner: Entry, commit) -> None:
    """``winner`` wins both games of the pair."""
    for link in games_of(m, pair):
        finish(link.game, "1-0" if link.orange_id == winner.pk else "0-1", commit=commit)


def split_pair(m: KnockoutMatch, pair: int, commit) -> None:
    """Each player wins with Orange."""
    for link in games_of(m, pair):
        finish(link.game, "1-0", commit=commit)


def test_bracket_pairs_and_starts_both_games_at_once(knockout):
    tournament = knockout(4)
    assert tournament.rounds_planned == 2
    first, second = match(tournament, 1, 1), match(tournament, 1, 2)
    assert (first.higher.seed, first.lower.seed) == (1, 4)
    assert (second.higher.seed, second.lower.seed) == (2, 3)
    games = games_of(first, 1)
    assert [(g.orange.seed, g.blue.seed) for g in games] == [(1, 4), (4, 1)]
    assert all(g.game.is_active for g in games)


def test_byes_go_to_the_top_seeds(knockout):
    tournament = knockout(5)
    assert tournament.rounds_planned == 3
    matches = list(KnockoutMatch.objects.filter(round__number=1).order_by("number"))
    assert [(m.higher.seed, m.lower and m.lower.seed, m.decided_by) for m in matches] == [
        (1, None, "bye"),
        (4, 5, ""),
        (2, None, "bye"),
        (3, None, "bye"),
    ]
    assert TournamentGame.objects.filter(tournament=tournament).count() == 2


def test_a_whole_knockout_with_a_tie_decided_by_the_higher_seed(knockout, commit):
    tournament = knockout(4, knockout_extra_pairs=1, knockout_decider="higher_seed")
    top, tied = match(tournament, 1, 1), match(tournament, 1, 2)
    win_pair(top, 1, top.higher, commit)
    assert match(tournament, 1, 1).winner == top.higher
    split_pair(tied, 1, commit)
    tied = match(tournament, 1, 2)
    assert (tied.winner, tied.pairs_started) == (None, 2)
    assert len(games_of(tied, 2)) == 2  # the extra pair started at once
    split_pair(tied, 2, commit)
    tied = match(tournament, 1, 2)
    assert (tied.winner.seed, tied.decided_by) == (2, "higher_seed")
    assert Round.objects.get(tournament=tournament, number=2).status == "running"
    final = match(tournament, 2, 1)
    assert (final.higher.seed, final.lower.seed) == (1, 2)
    win_pair(final, 1, final.lower, commit)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.winner == final.lower.player
    ranks = {
        row.number: row.rank for row in selectors.tournament_standings(tournament=tournament).rows
    }
    assert ranks == {2: 1, 1: 2, 3: 3, 4: 3}


def test_more_games_until_a_pair_is_won(knockout, commit):
    tournament = knockout(2, knockout_extra_pairs=0, knockout_decider="more_games")
    final = match(tournament, 1, 1)
    split_pair(final, 1, commit)
    split_pair(final, 2, commit)
    assert match(tournament, 1, 1).pairs_started == 3
    win_pair(final, 3, final.lower, commit)
    final = match(tournament, 1, 1)
    assert (final.winner.seed, final.decided_by) == (2, "games")


def test_the_organiser_decides_a_tied_match(knockout, organiser, players, commit):
    tournament = knockout(2, knockout_extra_pairs=0, knockout_decider="organiser")
    final = match(tournament, 1, 1)
    split_pair(final, 1, commit)
    news = OutboxEmail.objects.get(event="tournament_organiser", recipient=organiser)
    assert "needs your decision" in news.subject
    with pytest.raises(DomainError) as caught:
        services.knockout_match_decide(
            match_id=final.pk, actor=players[0], winner_entry_id=final.lower_id, reason="x"
        )
    assert caught.value.code == "not_organiser"
    outsider = Entry.objects.create(tournament=tournament, name="x", status="removed")
    with pytest.raises(DomainError) as caught:
        services.knockout_match_decide(
            match_id=final.pk, actor=organiser, winner_entry_id=outsider.pk, reason="coin"
        )
    assert caught.value.code == "winner_not_in_match"
    with commit():
        services.knockout_match_decide(
            match_id=final.pk, actor=organiser, winner_entry_id=final.lower_id, reason="coin"
        )
    tournament.refresh_from_db()
    assert (tournament.status, tournament.winner) == ("finished", final.lower.player)
    assert AuditEntry.objects.get(action="tournament_decide").reason == "coin"


def test_a_withdrawal_sends_the_opponent_through(knockout, players, commit):
    tournament = knockout(4)
    second = match(tournament, 1, 2)
    with commit():
        services.entry_withdraw(tournament_id=tournament.pk, user=second.lower.player)
    second = match(tournament, 1, 2)
    assert (second.winner_id, second.decided_by) == (second.higher_id, "withdrawal")
    results = set(second.games.values_list("result", flat=True))
    assert results == {"+/-", "-/+"}  # both games lost by forfeit by the one who left
    assert Round.objects.get(tournament=tournament, number=1).status == "running"


def test_knockout_validation(make_tournament):
    with pytest.raises(DomainError) as caught:
        make_tournament(format="knockout", round_start_mode="all_at_once")
    assert "round_start_mode" in caught.value.extra["errors"]
