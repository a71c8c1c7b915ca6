"""What the services ask of a tournament format, and what most formats answer.

A format object holds no state: every method is given the tournament (and the round, the
section or the entry) it is about. The services never branch on ``Tournament.format``;
they look the format up (``tournaments.plugins.tournament_format_for``) and ask it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

from tournaments.models import Entry, Round, Tournament, TournamentGame
from tournaments.pairing.base import RoundPairing
from tournaments.pairing.knockout import BracketMatch
from tournaments.plugins import pairing_formats
from tournaments.records import SectionField
from tournaments.services.limits import rounds_schedule_problem

# Settings that only a Swiss event uses, with the value every other format keeps.
SWISS_ONLY_DEFAULTS: dict[str, Any] = {
    "rounds_planned": None,  # the other formats' rounds follow from the players
    "late_entry_last_round": None,
    "half_point_byes_max": 0,
    "forfeits_to_withdraw": None,
    "accelerated": False,
}
# Each format's own settings (who uses them, and the value every other format keeps): the
# other formats refuse them changed rather than store and ignore them. The sections of a
# round robin are refused by ``has_sections``.
FORMAT_ONLY_DEFAULTS: dict[str, tuple[str, dict[str, Any]]] = {
    Tournament.Format.ROUND_ROBIN: ("a round robin", {"cycles": 1}),
    Tournament.Format.KNOCKOUT: (
        "a knockout",
        {"knockout_extra_pairs": 1, "knockout_decider": Tournament.KnockoutDecider.HIGHER_SEED},
    ),
    Tournament.Format.SWISS: ("a Swiss event", SWISS_ONLY_DEFAULTS),
}


@dataclass(frozen=True)
class SectionRound:
    """How one section plays a round: its pairing and, in a knockout, the bracket places
    that the pairs of games belong to (in order, byes included)."""

    field: SectionField
    pairing: RoundPairing
    bracket: tuple[BracketMatch, ...] = ()


class TournamentFormat(ABC):
    """One tournament format: the rules of the event that are not the same in every format.

    Flags say what the format allows; methods decide, for one tournament, what the services
    would otherwise decide by comparing the format. The defaults are those of a format whose
    rounds are paired from results, one game per pair, with no byes ahead of a round.
    """

    #: ``Tournament.Format`` value this object is registered for.
    code: ClassVar[str]
    #: What a pairing bye is worth (a ``Bye.Kind``).
    bye_kind: ClassVar[str]
    #: Rounds do not depend on results: all may start at once, and a round starts at its
    #: date even if the one before is not complete.
    independent_rounds: ClassVar[bool] = False
    #: The organiser may pair a round by hand (one-section events).
    pairs_by_hand: ClassVar[bool] = True
    #: Players and the organiser may enter byes ahead of a round not yet paired.
    takes_byes_ahead: ClassVar[bool] = False
    #: The pairing honours the organiser's list of pairs that must never meet.
    avoids_forbidden_pairs: ClassVar[bool] = False
    #: Players may be split into sections (``section_size``).
    has_sections: ClassVar[bool] = False
    #: Every round is made at the start (a schedule known in advance); otherwise each
    #: round is made as it comes (or when a bye or a date is entered for it).
    rounds_made_at_start: ClassVar[bool] = True
    #: The tie-breaks an event gets when the organiser names none (FIDE C.07's
    #: recommendation for the format; docs/TOURNAMENTS.md, "Default tie-breaks").
    default_tiebreaks: ClassVar[tuple[str, ...]] = ()

    def settings_problems(self, tournament: Tournament) -> dict[str, str]:
        """The settings this format refuses, by field (merged into ``_validate``'s)."""
        problems = self.option_problems(tournament)
        if tournament.section_size is not None and not self.has_sections:
            problems["section_size"] = "Only a round robin is split into sections."
        if (
            tournament.round_start_mode == Tournament.RoundStartMode.ALL_AT_ONCE
            and not self.independent_rounds
        ):
            problems["round_start_mode"] = (
                "Only a round robin can start all its games at once: later rounds of a "
                f"{tournament.get_format_display().lower()} depend on earlier results."
            )
        return problems

    def option_problems(self, tournament: Tournament) -> dict[str, str]:
        """The settings of the format's own options; any other format's own settings
        (``FORMAT_ONLY_DEFAULTS``) changed from their default are refused."""
        return {
            field: f"Only {user} uses this setting."
            for code, (user, defaults) in FORMAT_ONLY_DEFAULTS.items()
            if code != self.code
            for field, default in defaults.items()
            if getattr(tournament, field) != default
        }

    def pairing_installed(self) -> bool:
        """Whether rounds of this format can be paired now (its pairing system is in)."""
        return self.code in pairing_formats()

    def start_problem(self, tournament: Tournament, *, players: int) -> str | None:
        """Why the event cannot start with ``players`` players (beyond the minimum), or None."""
        return None

    def start_problems(
        self, tournament: Tournament, *, players: int, now: datetime
    ) -> dict[str, str]:
        """Why the event cannot start at ``now`` with ``players`` players, by setting: the
        rounds must suit the field (``start_problem``) and, on dates, all start before the
        end. The settings were checked at creation; the field was not known then."""
        problem = self.start_problem(tournament, players=players)
        if problem is not None:
            return {"rounds_planned": problem}
        rounds = self.rounds_for(tournament, players=players)
        late = rounds_schedule_problem(tournament, players=players, rounds=rounds, start=now)
        return {"ends_at": late} if late else {}

    @abstractmethod
    def rounds_for(self, tournament: Tournament, *, players: int) -> int:
        """The number of rounds ``players`` players would play (before they are seeded)."""

    @abstractmethod
    def rounds_total(self, tournament: Tournament) -> int:
        """The number of rounds, once the players are seeded."""

    def late_entries_until(self, tournament: Tournament) -> int | None:
        """The last round a late entrant may start in; None: no late entries."""
        return None

    @abstractmethod
    def round_pair(
        self,
        tournament: Tournament,
        rnd: Round,
        field: SectionField,
        *,
        given: RoundPairing | None,
    ) -> SectionRound:
        """How ``field`` plays ``rnd``: the organiser's pairing ``given`` or the system's."""

    def round_games_created(self, tournament: Tournament, rnd: Round, plan: SectionRound) -> None:
        """Called once the games and byes of ``plan`` exist (a knockout makes its matches)."""
        return None  # nothing more to do in most formats

    def round_complete(self, rnd: Round) -> bool:
        """Whether a running round is over: every game decided."""
        return not rnd.games.filter(result=TournamentGame.Result.PENDING).exists()

    def game_recorded(self, tournament: Tournament, link: TournamentGame, *, now: datetime) -> None:
        """Called when a game's result has been recorded in a running event, before its
        round is checked for completion."""
        return None  # nothing more to do in most formats

    def withdrawal_cancels_results(
        self, tournament: Tournament, entry: Entry, links: list[TournamentGame]
    ) -> bool:
        """Whether ``entry``'s withdrawal cancels all their results (``links`` are their
        games); otherwise their games still to play are lost by forfeit."""
        return False

    def entry_withdrawn(self, tournament: Tournament, entry: Entry, *, now: datetime) -> None:
        """Called once ``entry`` has left and their games are settled."""
        return None  # nothing more to do in most formats
