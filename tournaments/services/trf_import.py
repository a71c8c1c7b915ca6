"""Importing a finished event from a FIDE Tournament Report File (an event run elsewhere)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from tournaments import errors, selectors
from tournaments.models import Bye, Entry, Round, Tournament, TournamentGame
from tournaments.records import RESULT_OF_OUTCOMES
from tournaments.services.common import User
from tournaments.services.rounds import _final_standings_store
from tournaments.standings.records import Colour, Outcome
from tournaments.trf import TrfTournament

_BYE_KINDS = {
    Outcome.PAIRING_BYE: Bye.Kind.PAIRING,
    Outcome.FULL_BYE: Bye.Kind.FULL,
    Outcome.HALF_BYE: Bye.Kind.HALF,
    Outcome.ZERO_BYE: Bye.Kind.ZERO,
}

NO_PLAYERS = "The TRF file has no player lines (001); is it a TRF file?"


def _name_free_for_import(base: str, *, now: datetime) -> str:
    """``base``, or if taken ``base`` with the import's date, then with a count: the suffix
    always fits in the 200 characters (two imports of one file in the same second, or a
    long name, must not end in a clash)."""
    taken = Tournament.objects.filter(name__istartswith=base[:150])
    names = {n.casefold() for n in taken.values_list("name", flat=True)}
    candidate, count = base, 1
    while candidate.casefold() in names:
        suffix = f" (imported {now:%Y-%m-%d %H:%M:%S}{f', {count}' if count > 1 else ''})"
        candidate = base[: 200 - len(suffix)] + suffix
        count += 1
    return candidate


@transaction.atomic
def tournament_import_trf(
    *,
    trf: TrfTournament,
    organiser: User,
    name: str = "",
    tiebreaks: Sequence[str] = (),
    tiebreak_edition: str = "2026",
    now: datetime | None = None,
) -> Tournament:
    """A finished event from a TRF file (an older event run elsewhere): its players (no
    accounts needed), rounds, results and byes, and its standings.

    The file's tournament records and other lines are kept so that exporting the event
    gives the file back. ``tiebreaks`` (codes of ``tournaments.standings``) order the
    final standings. A name already taken gets the import's date appended. Raises
    ``InvalidSettings`` (code ``trf_invalid``) naming the round and players of a result the
    two player lines disagree on, or a file with no player at all (a blank file would
    otherwise make an empty public event).
    """
    if not trf.players:
        raise errors.InvalidSettings(NO_PLAYERS, code="trf_invalid")
    now = now or timezone.now()
    tiebreaks_problem = selectors.tiebreak_codes_problem(codes=list(tiebreaks))
    if tiebreaks_problem:
        raise errors.InvalidSettings(tiebreaks_problem, code="unknown_tiebreak")
    base = (name or trf.name or "Imported event").strip()[:200]
    unique = _name_free_for_import(base, now=now)
    tournament = Tournament.objects.create(
        organiser=organiser,
        name=unique,
        format=Tournament.Format.ROUND_ROBIN if trf.round_robin else Tournament.Format.SWISS,
        rounds_planned=trf.rounds or None,
        rated=False,
        public=True,
        min_players=2,
        status=Tournament.Status.FINISHED,
        imported=True,
        tiebreaks=list(tiebreaks),
        tiebreak_edition=tiebreak_edition,
        trf={"header": [list(pair) for pair in trf.header], "extra_lines": list(trf.extra_lines)},
        started_at=now,
        finished_at=now,
    )
    entry_of = _trf_entries(trf, tournament)
    rounds = _trf_rounds(trf, tournament, now=now)
    links, byes = _trf_results(trf, tournament, entry_of, rounds)
    TournamentGame.objects.bulk_create(links)
    Bye.objects.bulk_create(byes)
    _final_standings_store(tournament)
    return tournament


def _trf_entries(trf: TrfTournament, tournament: Tournament) -> dict[int, Entry]:
    """The file's players as entries (no accounts), by their number in the file."""
    entries = Entry.objects.bulk_create(
        Entry(
            tournament=tournament,
            name=player.name,
            status=Entry.Status.ACTIVE,
            seed=player.number,
            rating_at_start=player.rating,
            extra=dict(player.extra),
        )
        for player in sorted(trf.players, key=lambda p: p.number)
    )
    return {entry.seed: entry for entry in entries}


def _trf_rounds(trf: TrfTournament, tournament: Tournament, *, now: datetime) -> dict[int, Round]:
    """The file's rounds, complete, by number."""
    return {
        rnd.number: rnd
        for rnd in Round.objects.bulk_create(
            Round(
                tournament=tournament,
                number=number,
                status=Round.Status.COMPLETE,
                started_at=now,
                completed_at=now,
            )
            for number in range(1, trf.rounds + 1)
        )
    }


def _trf_results(
    trf: TrfTournament,
    tournament: Tournament,
    entry_of: dict[int, Entry],
    rounds: dict[int, Round],
) -> tuple[list[TournamentGame], list[Bye]]:
    by_number = {player.number: player for player in trf.players}
    links: list[TournamentGame] = []
    byes: list[Bye] = []
    boards: dict[int, int] = defaultdict(int)
    for player in sorted(trf.players, key=lambda p: p.number):
        for record in player.rounds:
            if record.round not in rounds:
                raise errors.InvalidSettings(
                    f"Player {player.number} has a result in round {record.round}, but the "
                    f"file declares {trf.rounds} rounds.",
                    code="trf_invalid",
                )
            if record.outcome in _BYE_KINDS:
                byes.append(
                    Bye(
                        round=rounds[record.round],
                        entry=entry_of[player.number],
                        kind=_BYE_KINDS[record.outcome],
                    )
                )
            if record.opponent is None or record.opponent < player.number:
                continue  # no game, or written from the other player's line
            other = next(r for r in by_number[record.opponent].rounds if r.round == record.round)
            first_is_orange = record.colour != Colour.BLUE
            pair = (record.outcome, other.outcome)
            outcomes = pair if first_is_orange else pair[::-1]
            result = RESULT_OF_OUTCOMES.get(outcomes)
            if result is None:
                raise errors.InvalidSettings(
                    f"Round {record.round}: players {player.number} ({record.outcome.value}) "
                    f"and {record.opponent} ({other.outcome.value}) have results that do not "
                    "go together.",
                    code="trf_invalid",
                )
            orange, blue = player.number, record.opponent
            if not first_is_orange:
                orange, blue = blue, orange
            boards[record.round] += 1
            links.append(
                TournamentGame(
                    tournament=tournament,
                    round=rounds[record.round],
                    orange=entry_of[orange],
                    blue=entry_of[blue],
                    board=boards[record.round],
                    result=result,
                    result_fixed=True,
                    colours_unknown=record.colour is None,
                )
            )
    return links, byes
