"""From rows to the pure records: what pairing systems, standings and TRF files read.

A section's players are numbered 1 to n by seed (the Berger seats of a round robin; the
starting numbers of a single-section event). Only decided games and byes make round records;
a cancelled game (a withdrawal under the half rule) counts as not played.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from tournaments.models import Bye, Entry, Round, Tournament, TournamentGame
from tournaments.standings.records import Colour, Outcome, PlayerRecord, RoundRecord

Result = TournamentGame.Result

# (Orange's outcome, Blue's outcome) for each decided result that counts.
OUTCOMES: dict[str, tuple[Outcome, Outcome]] = {
    Result.ORANGE_WINS: (Outcome.WIN, Outcome.LOSS),
    Result.BLUE_WINS: (Outcome.LOSS, Outcome.WIN),
    Result.DRAW: (Outcome.DRAW, Outcome.DRAW),
    Result.ORANGE_FORFEIT_WIN: (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS),
    Result.BLUE_FORFEIT_WIN: (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN),
    Result.DOUBLE_FORFEIT: (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_LOSS),
    Result.UNRATED_ORANGE_WINS: (Outcome.UNRATED_WIN, Outcome.UNRATED_LOSS),
    Result.UNRATED_BLUE_WINS: (Outcome.UNRATED_LOSS, Outcome.UNRATED_WIN),
    Result.UNRATED_DRAW: (Outcome.UNRATED_DRAW, Outcome.UNRATED_DRAW),
}

# The tournament result of a pair of outcomes, the other way round (TRF import).
RESULT_OF_OUTCOMES: dict[tuple[Outcome, Outcome], str] = {v: k for k, v in OUTCOMES.items()}

BYE_OUTCOMES: dict[str, Outcome] = {
    Bye.Kind.PAIRING: Outcome.PAIRING_BYE,
    Bye.Kind.FULL: Outcome.FULL_BYE,
    Bye.Kind.HALF: Outcome.HALF_BYE,
    Bye.Kind.ZERO: Outcome.ZERO_BYE,
}


@dataclass(frozen=True)
class SectionField:
    """One section: its entries in seat order (entry ``i`` is player number ``i + 1``) and
    their records so far."""

    section: int
    entries: tuple[Entry, ...]
    records: tuple[PlayerRecord, ...]

    def entry(self, number: int) -> Entry:
        return self.entries[number - 1]

    def number_of(self, entry_id: int) -> int:
        for index, entry in enumerate(self.entries):
            if entry.pk == entry_id:
                return index + 1
        raise KeyError(entry_id)

    @property
    def absent(self) -> frozenset[int]:
        """Players no longer in the event (withdrawn or removed)."""
        gone = (Entry.Status.WITHDRAWN, Entry.Status.REMOVED)
        return frozenset(i + 1 for i, e in enumerate(self.entries) if e.status in gone)


def seated_entries(tournament: Tournament) -> list[Entry]:
    """The entries that started the event (they have a seed), in seed order."""
    return list(
        tournament.entries.filter(seed__isnull=False).select_related("player").order_by("seed")
    )


def section_fields(tournament: Tournament) -> list[SectionField]:
    """Every section of a started tournament with its players' records (three queries)."""
    by_section: dict[int, list[Entry]] = defaultdict(list)
    for entry in seated_entries(tournament):
        by_section[entry.section].append(entry)
    games = TournamentGame.objects.filter(tournament=tournament).select_related("round")
    # A bye entered ahead for a round not yet paired counts once the round starts.
    byes = (
        Bye.objects.filter(round__tournament=tournament)
        .exclude(round__status=Round.Status.PLANNED)
        .select_related("round")
    )
    rounds = _round_records(games, byes)
    fields = []
    for section, entries in sorted(by_section.items()):
        numbers = {entry.pk: index + 1 for index, entry in enumerate(entries)}
        records = tuple(
            PlayerRecord(
                number=numbers[entry.pk],
                name=entry.name,
                rating=entry.rating_at_start,
                rounds=tuple(
                    RoundRecord(
                        round=r.round,
                        outcome=r.outcome,
                        opponent=None if r.opponent is None else numbers.get(r.opponent),
                        colour=r.colour,
                    )
                    for r in sorted(rounds.get(entry.pk, []), key=lambda r: r.round)
                ),
                withdrawn_after=entry.withdrawn_after_round,
                extra={"entry": str(entry.pk), **{k: str(v) for k, v in entry.extra.items()}},
            )
            for entry in entries
        )
        fields.append(SectionField(section=section, entries=tuple(entries), records=records))
    return fields


def _round_records(
    games: Iterable[TournamentGame], byes: Iterable[Bye]
) -> dict[int, list[RoundRecord]]:
    """Round records keyed by entry id; opponents are entry ids here (renumbered later)."""
    rounds: dict[int, list[RoundRecord]] = defaultdict(list)
    for game in games:
        outcomes = OUTCOMES.get(game.result)
        if outcomes is None:  # pending or cancelled
            continue
        number = game.round.number
        orange, blue = (None, None) if game.colours_unknown else (Colour.ORANGE, Colour.BLUE)
        rounds[game.orange_id].append(
            RoundRecord(number, outcomes[0], opponent=game.blue_id, colour=orange)
        )
        rounds[game.blue_id].append(
            RoundRecord(number, outcomes[1], opponent=game.orange_id, colour=blue)
        )
    for bye in byes:
        rounds[bye.entry_id].append(RoundRecord(bye.round.number, BYE_OUTCOMES[bye.kind]))
    return rounds
