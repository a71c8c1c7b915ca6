"""A running Swiss exported to TRF between rounds carries what the next pairing needs
(initial colour, forbidden pairs, acceleration, byes entered ahead, withdrawals), and the
Dutch system pairing the file gives the round the event then pairs."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine

from tests.accounts.factories import make_user
from tests.tournaments.conftest import T0, finish, register_all
from tournaments import selectors, services
from tournaments.management.commands.tournament_pair import pair_file
from tournaments.models import Entry, Tournament, TournamentGame
from tournaments.pairing.base import Pair, RoundPairing
from tournaments.services import tournaments_advance
from tournaments.trf import format_trf

pytestmark = pytest.mark.django_db


def test_the_export_pairs_the_next_round_as_the_event_does(
    make_tournament, organiser, commit, tmp_path
):
    with time_machine.travel(T0, tick=False):
        tournament = make_tournament(
            name="Birch Swiss",
            format="swiss",
            rounds_planned=5,
            round_start_mode="on_dates",
            round_interval_days=7,
            accelerated=True,
            half_point_byes_max=1,
        )
        users = [make_user(f"b{i}") for i in range(1, 10)]
        register_all(tournament, users)
        entry = {e.player.username: e.pk for e in tournament.entries.all()}
        services.forbidden_pairs_set(
            tournament_id=tournament.pk,
            actor=organiser,
            pairs=[(entry["b1"], entry["b4"])],
        )
        with commit():
            services.tournament_start(tournament_id=tournament.pk, actor=organiser)
        services.bye_request(tournament_id=tournament.pk, user=users[1], round_number=2)
        with commit():
            services.entry_withdraw(tournament_id=tournament.pk, user=users[7])
        for link in TournamentGame.objects.filter(tournament=tournament).select_related("game"):
            if link.game.is_active:
                finish(link.game, "1-0", commit=commit)

        tournament = Tournament.objects.get(pk=tournament.pk)
        text = format_trf(selectors.tournament_trf(tournament=tournament))
        lines = text.splitlines()
        assert "XXC white1" in lines
        assert "XXP 1 4" in lines
        assert [line for line in lines if line.startswith("XXA")] == [
            f"XXA {n:>4}  1.0  1.0  0.5"  # 3 accelerated rounds of 5, 2 at a full point
            for n in range(1, 7)  # group A: 2 x ceil(9 / 4) players
        ]
        assert "240 H   2    2" in lines
        assert "240 Z   2    8" in lines  # b8 withdrew in round 1
        path = tmp_path / "birch.trf"
        path.write_text(text, encoding="utf-8")
        from_file = pair_file(path)

    with time_machine.travel(T0 + timedelta(days=7), tick=False), commit():
        tournaments_advance(now=T0 + timedelta(days=7), ids=[tournament.pk])
    seeds = dict(Entry.objects.filter(tournament=tournament).values_list("pk", "seed"))
    second = TournamentGame.objects.filter(tournament=tournament, round__number=2)
    paired = RoundPairing(
        pairs=tuple(Pair(seeds[g.orange_id], seeds[g.blue_id]) for g in second.order_by("board")),
        byes=tuple(
            tournament.rounds.get(number=2)
            .byes.filter(kind="U")
            .values_list("entry__seed", flat=True)
        ),
    )
    assert paired == from_file
    assert len(paired.pairs) == 3 and len(paired.byes) == 1  # nine, less b2 and b8
    assert {2, 8}.isdisjoint({n for p in paired.pairs for n in (p.orange, p.blue)})
