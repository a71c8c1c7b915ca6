"""From rows to the pure records: what pairing systems, standings and TRF files read.

A section's players are numbered 1 to n by seed (the Berger seats of a round robin; the
starting numbers of a single-section event). Only decided games and byes make round records;
a cancelled game (a withdrawal under the half rule) counts as not played.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

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


# A game as read: (round number, orange id, blue id, result, colours unknown); a bye:
# (round number, entry id, kind).
GameRow = tuple[int, int, int, str, bool]
ByeRow = tuple[int, int, str]


@dataclass(frozen=True)
class SectionField:
    """One section: its entries in seat order (entry ``i`` is player number ``i + 1``), the
    games and byes that concern them as read from the database, and their records so far
    (built from those when first asked for)."""

    section: int
    entries: tuple[Entry, ...]
    games: tuple[GameRow, ...] = ()
    byes: tuple[ByeRow, ...] = ()

    @cached_property
    def records(self) -> tuple[PlayerRecord, ...]:
        seats = {entry.pk: (self.section, index + 1) for index, entry in enumerate(self.entries)}
        rounds = _round_records(self.games, self.byes, seats)
        return tuple(
            PlayerRecord(
                number=seats[entry.pk][1],
                name=entry.name,
                rating=entry.rating_at_start,
                rounds=tuple(sorted(rounds.get(entry.pk, []), key=lambda r: r.round)),
                withdrawn_after=entry.withdrawn_after_round,
                extra={"entry": str(entry.pk), **{k: str(v) for k, v in entry.extra.items()}},
            )
            for entry in self.entries
        )

    @cached_property
    def key(self) -> tuple[object, ...]:
        """What the records are made of, in plain values (cheap to hash and compare): equal
        keys, equal records (their ``extra`` aside). Games still pending (or cancelled) make
        no record, so pairing a round changes no key."""
        players = tuple(
            (e.pk, e.name, e.rating_at_start, e.withdrawn_after_round) for e in self.entries
        )
        decided = tuple(game for game in self.games if game[3] in OUTCOMES)
        return (players, decided, self.byes)

    @cached_property
    def digest(self) -> str:
        """A digest of :attr:`key` (of its ``repr``, the same in every process): a short name
        for these records, in memory and in a cache that processes share."""
        return hashlib.blake2b(repr(self.key).encode(), digest_size=20).hexdigest()

    def entry(self, number: int) -> Entry:
        return self.entries[number - 1]

    def number_of(self, entry_id: int) -> int:
        """The player number of entry ``entry_id`` (``KeyError`` if not in the section)."""
        return self._numbers[entry_id]

    @cached_property
    def _numbers(self) -> dict[int, int]:
        return {entry.pk: index + 1 for index, entry in enumerate(self.entries)}

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
    """Every section of a started tournament with its players' results (three queries)."""
    by_section: dict[int, list[Entry]] = defaultdict(list)
    for entry in seated_entries(tournament):
        by_section[entry.section].append(entry)
    section_of = {entry.pk: section for section, entries in by_section.items() for entry in entries}
    # Plain tuples rather than model rows: a 5,000-player event has tens of thousands of games.
    games: dict[int, list[GameRow]] = defaultdict(list)
    for row in TournamentGame.objects.filter(tournament=tournament).values_list(
        "round__number", "orange_id", "blue_id", "result", "colours_unknown"
    ):
        for section in {section_of.get(row[1]), section_of.get(row[2])} - {None}:
            games[section].append(row)
    # A bye entered ahead for a round not yet paired counts once the round starts.
    byes: dict[int, list[ByeRow]] = defaultdict(list)
    for row in (
        Bye.objects.filter(round__tournament=tournament)
        .exclude(round__status=Round.Status.PLANNED)
        .values_list("round__number", "entry_id", "kind")
    ):
        if row[1] in section_of:
            byes[section_of[row[1]]].append(row)
    return [
        SectionField(
            section=section,
            entries=tuple(entries),
            games=tuple(games[section]),
            byes=tuple(byes[section]),
        )
        for section, entries in sorted(by_section.items())
    ]


def _round_records(
    games: Iterable[GameRow], byes: Iterable[ByeRow], seats: dict[int, tuple[int, int]]
) -> dict[int, list[RoundRecord]]:
    """Round records keyed by entry id, the opponent by its number in the section (None
    if it sits in another or has no seat).

    ``games`` are (round number, orange id, blue id, result, colours unknown), ``byes``
    (round number, entry id, kind), ``seats`` each entry's (section, number)."""

    rounds: dict[int, list[RoundRecord]] = defaultdict(list)
    for number, orange_id, blue_id, result, colours_unknown in games:
        outcomes = OUTCOMES.get(result)
        if outcomes is None:  # pending or cancelled
            continue
        orange_seat, blue_seat = seats.get(orange_id), seats.get(blue_id)
        together = orange_seat and blue_seat and orange_seat[0] == blue_seat[0]
        orange, blue = (None, None) if colours_unknown else (Colour.ORANGE, Colour.BLUE)
        rounds[orange_id].append(
            RoundRecord(number, outcomes[0], blue_seat[1] if together else None, orange)
        )
        rounds[blue_id].append(
            RoundRecord(number, outcomes[1], orange_seat[1] if together else None, blue)
        )
    for number, entry_id, kind in byes:
        rounds[entry_id].append(RoundRecord(number, BYE_OUTCOMES[kind]))
    return rounds
