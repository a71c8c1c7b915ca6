"""The knockout (single elimination): a bracket per round, matches of pairs of games, and a
withdrawal that sends the opponent through."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q

from tournaments.models import Bye, Entry, KnockoutMatch, Round, Tournament, TournamentGame
from tournaments.pairing.base import RoundPairing
from tournaments.pairing.knockout import knockout_rounds
from tournaments.records import SectionField
from tournaments.services.formats.base import SectionRound, TournamentFormat
from tournaments.services.knockout import (
    _knockout_bracket,
    _knockout_match_settle,
    _knockout_matches_create,
    _knockout_pairing,
)


class Knockout(TournamentFormat):
    code = Tournament.Format.KNOCKOUT
    bye_kind = Bye.Kind.PAIRING  # a bye goes through to the next round
    pairs_by_hand = False
    # Players rank by the round they went out in, and the final has one winner.
    default_tiebreaks = ()

    def pairing_installed(self) -> bool:
        """The bracket is built in here: nothing to install."""
        return True

    def rounds_total(self, tournament: Tournament) -> int:
        return knockout_rounds(tournament.entries.filter(seed__isnull=False).count())

    def rounds_for(self, tournament: Tournament, *, players: int) -> int:
        return knockout_rounds(players)

    def round_pair(
        self,
        tournament: Tournament,
        rnd: Round,
        field: SectionField,
        *,
        given: RoundPairing | None,
    ) -> SectionRound:
        """The bracket of the round and the first pair of games of each match (a knockout
        is never paired by hand, so ``given`` is not used)."""
        bracket = _knockout_bracket(tournament, rnd, field)
        return SectionRound(field=field, pairing=_knockout_pairing(bracket), bracket=bracket)

    def round_games_created(self, tournament: Tournament, rnd: Round, plan: SectionRound) -> None:
        _knockout_matches_create(tournament, rnd, plan.field, plan.bracket)

    def round_complete(self, rnd: Round) -> bool:
        """Every game decided and every match won."""
        return super().round_complete(rnd) and not rnd.matches.filter(winner__isnull=True).exists()

    def game_recorded(self, tournament: Tournament, link: TournamentGame, *, now: datetime) -> None:
        """A game of a match ended: the match may be decided, or need its next pair."""
        if link.match_id is not None:
            _knockout_match_settle(tournament, link.match, now=now)

    def entry_withdrawn(self, tournament: Tournament, entry: Entry, *, now: datetime) -> None:
        """Their opponent goes through: each match of theirs still open is settled."""
        for match in KnockoutMatch.objects.filter(
            Q(higher=entry) | Q(lower=entry), winner__isnull=True, round__tournament=tournament
        ):
            _knockout_match_settle(tournament, match, now=now)
