"""The round robin (all-play-all, Berger tables): rounds known in advance, sections, and
the withdrawal policy that may cancel a player's results."""

from __future__ import annotations

from tournaments.models import Bye, Entry, Round, Tournament, TournamentGame
from tournaments.pairing.base import RoundPairing
from tournaments.pairing.sections import section_count
from tournaments.records import SectionField
from tournaments.services.formats.base import SectionRound, TournamentFormat
from tournaments.services.rounds import _pair_by_system

Result = TournamentGame.Result


def _section_rounds(tournament: Tournament, size: int) -> int:
    return (size - 1 if size % 2 == 0 else size) * tournament.cycles


class RoundRobin(TournamentFormat):
    code = Tournament.Format.ROUND_ROBIN
    bye_kind = Bye.Kind.ZERO  # the player left out of an odd round scores nothing
    independent_rounds = True
    has_sections = True
    # Direct encounter, games won, Sonneborn-Berger, then Koya.
    default_tiebreaks = ("de", "win", "sb", "ks")

    def rounds_total(self, tournament: Tournament) -> int:
        """Enough rounds for the largest section to play every cycle."""
        sections = list(
            tournament.entries.filter(seed__isnull=False)
            .values_list("section", flat=True)
            .order_by()
        )
        largest = max(sections.count(section) for section in set(sections))
        return _section_rounds(tournament, largest)

    def rounds_for(self, tournament: Tournament, *, players: int) -> int:
        """The rounds of the largest section (sections differ by one player at most)."""
        size = tournament.section_size
        if size and players > size:
            players = -(-players // section_count(players, section_size=size))
        return _section_rounds(tournament, players)

    def round_pair(
        self,
        tournament: Tournament,
        rnd: Round,
        field: SectionField,
        *,
        given: RoundPairing | None,
    ) -> SectionRound:
        total = _section_rounds(tournament, len(field.entries))
        if given is not None:
            pairing = given
        elif rnd.number > total:  # a smaller section has finished its rounds
            pairing = RoundPairing(pairs=())
        else:
            pairing = _pair_by_system(tournament, rnd, field, total=total)
        return SectionRound(field=field, pairing=pairing)

    def withdrawal_cancels_results(
        self, tournament: Tournament, entry: Entry, links: list[TournamentGame]
    ) -> bool:
        """Under ``cancel_all``, always; under the half rule, when ``entry`` played (over the
        board) less than half their scheduled games."""
        policy = tournament.withdrawal_policy
        if policy == Tournament.WithdrawalPolicy.CANCEL_ALL:
            return True
        if policy != Tournament.WithdrawalPolicy.HALF_RULE:
            return False
        size = tournament.entries.filter(section=entry.section, seed__isnull=False).count()
        scheduled = (size - 1) * tournament.cycles
        played = sum(
            1
            for link in links
            if link.result in (Result.ORANGE_WINS, Result.BLUE_WINS, Result.DRAW)
        )
        return 2 * played < scheduled
