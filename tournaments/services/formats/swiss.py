"""The Swiss (FIDE Dutch system): a number of rounds the organiser fixes, late entries,
byes ahead of a round, forbidden pairs, acceleration, and withdrawal after forfeits."""

from __future__ import annotations

from datetime import datetime

from tournaments import selectors
from tournaments.models import Bye, Round, Tournament, TournamentGame
from tournaments.pairing.base import RoundPairing
from tournaments.records import SectionField
from tournaments.services.formats.base import SectionRound, TournamentFormat
from tournaments.services.limits import SWISS_ROUNDS_MAX
from tournaments.services.rounds import _pair_by_system
from tournaments.services.swiss import _withdraw_forfeiters


class Swiss(TournamentFormat):
    code = Tournament.Format.SWISS
    bye_kind = Bye.Kind.PAIRING  # the pairing-allocated bye (C.04.1.c)
    takes_byes_ahead = True
    avoids_forbidden_pairs = True
    rounds_made_at_start = False  # up to SWISS_ROUNDS_MAX rounds, each made as it comes
    # Buchholz Cut-1, Buchholz, then the direct encounter of the players still level.
    default_tiebreaks = ("bh_c1", "bh", "de")

    def option_problems(self, tournament: Tournament) -> dict[str, str]:
        """The rounds, late entries, byes and forfeits (the Swiss-only settings)."""
        t = tournament
        problems = super().option_problems(t)
        if not t.rounds_planned:
            problems["rounds_planned"] = "A Swiss event needs its number of rounds."
        elif t.rounds_planned > SWISS_ROUNDS_MAX:
            problems["rounds_planned"] = f"At most {SWISS_ROUNDS_MAX} rounds in a Swiss event."
        elif t.max_players is not None and t.rounds_planned >= t.max_players:
            problems["rounds_planned"] = (
                f"Fewer rounds than the most players ({t.max_players}): a Swiss of n players "
                "cannot pair n or more rounds."
            )
        last = t.late_entry_last_round
        if last is not None and not (2 <= last <= (t.rounds_planned or 0)):
            problems["late_entry_last_round"] = (
                f"A round from 2 to the number of rounds ({t.rounds_planned}), or empty."
            )
        if t.late_entry_bye not in (Bye.Kind.ZERO, Bye.Kind.HALF):
            problems["late_entry_bye"] = "Z (no points) or H (half a point) per missed round."
        if t.half_point_byes_max > (t.rounds_planned or 0):
            problems["half_point_byes_max"] = f"At most the number of rounds ({t.rounds_planned})."
        if t.forfeits_to_withdraw is not None and t.forfeits_to_withdraw > (t.rounds_planned or 0):
            problems["forfeits_to_withdraw"] = (
                f"At most the number of rounds ({t.rounds_planned}), or empty: a player "
                "cannot lose more games by forfeit than there are rounds."
            )
        return problems

    def start_problem(self, tournament: Tournament, *, players: int) -> str | None:
        """Too many rounds for the players who came: a Swiss of n players has fewer than n."""
        if tournament.rounds_planned and tournament.rounds_planned >= players:
            return (
                f"A Swiss of {players} players can have at most {players - 1} "
                f"rounds, not {tournament.rounds_planned}; lower the number of rounds."
            )
        return None

    def rounds_total(self, tournament: Tournament) -> int:
        """The organiser's number (required to open the event)."""
        assert tournament.rounds_planned
        return tournament.rounds_planned

    def rounds_for(self, tournament: Tournament, *, players: int) -> int:
        """The organiser's number, whatever the field."""
        return tournament.rounds_planned or 0

    def late_entries_until(self, tournament: Tournament) -> int | None:
        return tournament.late_entry_last_round

    def round_pair(
        self,
        tournament: Tournament,
        rnd: Round,
        field: SectionField,
        *,
        given: RoundPairing | None,
    ) -> SectionRound:
        """The organiser's pairing, or the Dutch system's with the event's forbidden pairs
        and acceleration."""
        if given is not None:
            return SectionRound(field=field, pairing=given)
        total = self.rounds_total(tournament)
        options = selectors.swiss_pairing_options(
            tournament=tournament, section=field, total_rounds=total
        )
        pairing = _pair_by_system(tournament, rnd, field, total=total, **options)
        return SectionRound(field=field, pairing=pairing)

    def game_recorded(self, tournament: Tournament, link: TournamentGame, *, now: datetime) -> None:
        """A player who has lost ``forfeits_to_withdraw`` games by forfeit is withdrawn."""
        _withdraw_forfeiters(tournament, link, now=now)
