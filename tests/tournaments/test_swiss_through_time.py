"""A 20-player, 7-round Swiss run by the clock, from registration to the final standings.

Rounds start on their dates (a week apart), each once the previous one is complete; every
game is played through the games services (a move and a resignation, or a draw agreed and
adjudicated). On the way: a late entry in round 3 (half a point for each of the two rounds
missed), a half-point bye asked for ahead of round 4, and a withdrawal in round 5. Before
each round the test asks the Dutch engine itself what the round should be, from the
records before it, and checks the event paired exactly that, legally, with no rematch.
"""

from __future__ import annotations

from datetime import timedelta
from fractions import Fraction

import pytest
import time_machine
from django.db.models import Q

from games.tasks import decide_timeouts
from tests.accounts.factories import make_superuser, make_user
from tests.tournaments.conftest import T0, finish
from tournaments import selectors, services
from tournaments.models import Bye, Entry, Round, Tournament, TournamentGame
from tournaments.pairing.base import Pair, RoundPairing
from tournaments.pairing.dutch import pair_dutch
from tournaments.pairing.dutch.checker import pairing_violations
from tournaments.records import section_fields
from tournaments.tasks import advance_tournaments

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)
START = T0 + 7 * DAY
ROUNDS = 7


def result_for(orange_seed: int, blue_seed: int) -> str:
    """A fixed result per pairing: some draws, mostly the better seed, a few upsets."""
    if (orange_seed + blue_seed) % 4 == 0:
        return "1/2-1/2"
    better_wins = (orange_seed * blue_seed) % 3 != 0
    orange_better = orange_seed < blue_seed
    return "1-0" if better_wins == orange_better else "0-1"


def played_pairing(tournament: Tournament, number: int) -> RoundPairing:
    """Round ``number`` as the event paired it, in seed numbers (one section: seat = seed)."""
    links = TournamentGame.objects.filter(tournament=tournament, round__number=number)
    pairs = tuple(
        Pair(link.orange.seed, link.blue.seed)
        for link in links.select_related("orange", "blue").order_by("board")
    )
    byes = tuple(
        Bye.objects.filter(
            round__tournament=tournament, round__number=number, kind="U"
        ).values_list("entry__seed", flat=True)
    )
    return RoundPairing(pairs=pairs, byes=byes)


def engine_pairing(tournament: Tournament, number: int) -> tuple[RoundPairing, list[str]]:
    """What ``pair_dutch`` gives for round ``number`` from the records before it, every
    player passed with the absent ones named; and what the independent checker finds."""
    (field,) = section_fields(tournament)
    before = [
        record.__class__(
            **{**record.__dict__, "rounds": tuple(r for r in record.rounds if r.round < number)}
        )
        for record in field.records
    ]
    entered = set(
        Bye.objects.filter(round__tournament=tournament, round__number=number)
        .exclude(kind="U")
        .values_list("entry__seed", flat=True)
    )
    gone = {
        e.seed
        for e in field.entries
        if e.withdrawn_after_round is not None and e.withdrawn_after_round < number
    }
    absent = frozenset(entered | gone)
    expected = pair_dutch(before, round_number=number, total_rounds=ROUNDS, absent=absent)
    problems = pairing_violations(
        before, expected, round_number=number, total_rounds=ROUNDS, absent=absent
    )
    return expected, problems


def test_a_swiss_runs_itself(organiser, commit):
    arbiter = make_superuser("arbiter")
    field = [make_user(f"w{i:02d}") for i in range(1, 21)]
    late, byer, leaver = make_user("late"), field[4], field[11]  # w05 asks a bye, w12 leaves
    clock = time_machine.travel(T0, tick=False)
    traveller = clock.start()

    def at(moment):
        traveller.move_to(moment)

    def beat():
        with commit():
            decide_timeouts()
            advance_tournaments()

    def play(number, *, skip=()):
        """Finish every running game of round ``number`` a day after it starts."""
        at(START + (number - 1) * 7 * DAY + DAY)
        links = TournamentGame.objects.filter(tournament=tournament, round__number=number)
        for link in links.select_related("game", "orange", "blue"):
            if link.game.is_active and link.orange.player not in skip:
                result = result_for(link.orange.seed, link.blue.seed)
                finish(link.game, result, commit=commit, arbiter=arbiter)

    met: set[frozenset[int]] = set()

    def check_round(number):
        """The round is running and is what the engine pairs, legally, with no rematch."""
        assert Round.objects.get(tournament=tournament, number=number).status == "running"
        actual = played_pairing(tournament, number)
        expected, problems = engine_pairing(tournament, number)
        assert actual == expected
        assert problems == []
        for pair in actual.pairs:
            assert frozenset((pair.orange, pair.blue)) not in met
            met.add(frozenset((pair.orange, pair.blue)))
        return actual

    try:
        # --- registration and the start ----------------------------------------------------
        tournament = services.tournament_create(
            organiser=organiser,
            name="Samhain Swiss",
            format="swiss",
            rounds_planned=ROUNDS,
            start_mode="at_date",
            starts_at=START,
            round_start_mode="on_dates",
            round_interval_days=7,
            late_entry_last_round=3,
            late_entry_bye="H",
            half_point_byes_max=1,
            tiebreaks=["bh_c1", "bh", "sb"],
        )
        services.tournament_registration_open(tournament_id=tournament.pk, actor=organiser)
        for index, user in enumerate(field):
            at(T0 + DAY + index * timedelta(minutes=5))
            services.tournament_register(tournament_id=tournament.pk, user=user)
        at(START)
        beat()
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.RUNNING
        assert check_round(1).pairs[:2] == (Pair(1, 11), Pair(12, 2))  # S1 meets S2
        play(1)
        # round 2 waits for its date: a Swiss makes its round only once it is due
        assert list(tournament.rounds.values_list("number", "status")) == [(1, "complete")]

        # --- round 2 on its date; a late entry while it is played --------------------------
        at(START + 7 * DAY)
        beat()
        check_round(2)
        at(START + 8 * DAY)
        entry = services.tournament_register(tournament_id=tournament.pk, user=late)
        assert (entry.seed, entry.joined_round) == (21, 3)
        play(2)

        # --- round 3: 21 players, a pairing-allocated bye; w05 asks a bye for round 4 -------
        at(START + 14 * DAY)
        beat()
        third = check_round(3)
        assert len(third.pairs) == 10 and len(third.byes) == 1
        assert 21 in {n for p in third.pairs for n in (p.orange, p.blue)} | set(third.byes)
        standing = {
            r.name: r.points for r in selectors.tournament_standings(tournament=tournament).rows
        }
        assert standing["late"] == 1  # half a point for each of rounds 1 and 2
        bye = services.bye_request(tournament_id=tournament.pk, user=byer, round_number=4)
        assert bye.kind == "H"
        play(3)

        # --- round 4: w05 has the half-point bye, so 20 are paired --------------------------
        at(START + 21 * DAY)
        beat()
        fourth = check_round(4)
        assert 5 not in {n for p in fourth.pairs for n in (p.orange, p.blue)}
        assert fourth.byes == ()
        play(4)

        # --- round 5: w12 withdraws with their game running ---------------------------------
        at(START + 28 * DAY)
        beat()
        check_round(5)
        with commit():
            services.entry_withdraw(tournament_id=tournament.pk, user=leaver)
        leaver_link = TournamentGame.objects.get(
            Q(orange__player=leaver) | Q(blue__player=leaver),
            tournament=tournament,
            round__number=5,
        )
        assert leaver_link.result in ("-/+", "+/-")  # their game lost by forfeit
        play(5, skip=(leaver,))

        # --- rounds 6 and 7 without w12 -----------------------------------------------------
        for number in (6, 7):
            at(START + (number - 1) * 7 * DAY)
            beat()
            paired = check_round(number)
            assert 12 not in {n for p in paired.pairs for n in (p.orange, p.blue)} | set(
                paired.byes
            )
            play(number)

        # --- the end ------------------------------------------------------------------------
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.FINISHED
        assert tournament.finished_at == START + 42 * DAY + DAY
        byes = list(
            Bye.objects.filter(round__tournament=tournament)
            .order_by("round__number", "entry__seed")
            .values_list("round__number", "entry__name", "kind")
        )
        assert [b for b in byes if b[2] != "U"] == [
            (1, "late", "H"),
            (2, "late", "H"),
            (4, "w05", "H"),
        ]
        assert [b[0] for b in byes if b[2] == "U"] == [3, 5]  # 21 players in those rounds
        withdrawn = Entry.objects.get(tournament=tournament, player=leaver)
        assert (withdrawn.status, withdrawn.withdrawn_after_round) == ("withdrawn", 5)

        rows = selectors.tournament_standings(tournament=tournament).rows
        points = {row.name: row.points for row in rows}
        games = TournamentGame.objects.filter(tournament=tournament).count()
        pabs = sum(1 for b in byes if b[2] == "U")
        assert games == 10 * ROUNDS
        assert sum(points.values()) == games + pabs + Fraction(3, 2)  # three half-point byes
        assert [row.withdrawn for row in rows].count(True) == 1
        # The late entrant (seed 21, a multiple of 3) wins every game by the results rule:
        # 4½ of 5 over the board plus ½ for each of the two rounds missed.
        assert [(r.rank, r.name, r.points) for r in rows[:3]] == [
            (1, "late", Fraction(11, 2)),
            (2, "w18", Fraction(11, 2)),
            (3, "w01", Fraction(5)),
        ]
        assert rows[0].tiebreaks["bh"] == Fraction(57, 2) > rows[1].tiebreaks["bh"] == 28
        assert [(r.name, r.points) for r in rows[3:]] == [
            ("w04", Fraction(9, 2)),
            ("w07", Fraction(9, 2)),
            ("w15", Fraction(4)),
            ("w02", Fraction(4)),
            ("w08", Fraction(4)),
            ("w10", Fraction(7, 2)),
            ("w09", Fraction(7, 2)),
            ("w13", Fraction(7, 2)),
            ("w05", Fraction(7, 2)),  # the half-point bye included
            ("w14", Fraction(7, 2)),
            ("w17", Fraction(7, 2)),
            ("w11", Fraction(3)),
            ("w19", Fraction(5, 2)),
            ("w16", Fraction(5, 2)),
            ("w20", Fraction(5, 2)),
            ("w06", Fraction(5, 2)),
            ("w12", Fraction(3, 2)),  # withdrawn after round 5
            ("w03", Fraction(1)),
        ]
        assert rows[-2].withdrawn and not any(r.withdrawn for r in rows if r.name != "w12")
        assert tournament.winner == late
        stored = Entry.objects.get(tournament=tournament, player=late)
        assert (stored.final_rank, str(stored.final_points)) == (1, "5.5")
    finally:
        clock.stop()
