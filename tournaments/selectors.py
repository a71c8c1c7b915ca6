"""Tournament reads: lists, entries, rounds, standings, crosstables, possible places.

Standings and places are computed by the pure functions of ``tournaments.standings`` from
the records ``tournaments.records`` builds, never stored while an event runs (the final
rank and points are stored on each entry when it finishes).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import datetime
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import F, Prefetch, Q, QuerySet
from django.utils import timezone

from accounts.selectors import profile_get
from games.kinds import DEFAULT_KIND
from games.models import Game
from moderation.roles import organiser_or_staff_may
from rankings.models import PlayerRating
from tournaments import errors, standings_memo
from tournaments.models import (
    Bye,
    Entry,
    KnockoutMatch,
    Round,
    Tournament,
    TournamentGame,
    winners_of,
)
from tournaments.pairing.dutch.simulation import baku_acceleration
from tournaments.pairing.knockout import knockout_places, knockout_round_name
from tournaments.pairing.round_robin import round_robin_round
from tournaments.records import OUTCOMES, SectionField, section_fields
from tournaments.standings import (
    TIEBREAKS,
    Outcome,
    PlaceRange,
    PointSystem,
    TiebreakValue,
    outcome_mark,
)
from tournaments.trf import TrfTournament

AnyUser = AbstractBaseUser | AnonymousUser


# --- Players (the registration rules read these) -----------------------------------------------


def player_name(*, user: AbstractBaseUser) -> str:
    """The name a player shows: their display name, else the username."""
    return profile_get(user=user).name


def player_rating(*, user: AbstractBaseUser, kind: str = DEFAULT_KIND) -> int:
    """The player's rating in ``kind``, rounded; the starting rating if they have none yet."""
    rating = PlayerRating.objects.filter(player__user=user, kind=kind).first()
    return round(rating.shown if rating is not None else settings.RATING_ELO_START)


def player_ratings(*, users: list[Any], kind: str = DEFAULT_KIND) -> dict[int, int]:
    """Ratings in ``kind`` (rounded) by user id, for the players that have one (one query)."""
    rows = PlayerRating.objects.filter(player__user__in=users, kind=kind).select_related("player")
    return {rating.player.user_id: round(rating.shown) for rating in rows}


def _games_of(user: AbstractBaseUser) -> QuerySet[Game]:
    return Game.objects.played_by(user)


def player_finished_game_count(*, user: AbstractBaseUser) -> int:
    return _games_of(user).filter(status=Game.Status.FINISHED).count()


def player_running_game_count(*, user: AbstractBaseUser) -> int:
    return _games_of(user).filter(status=Game.Status.ACTIVE).count()


def tiebreak_codes_unknown(*, codes: list[str]) -> list[str]:
    """The codes in ``codes`` that ``tournaments.standings`` does not know."""
    return [code for code in codes if code not in TIEBREAKS]


def tiebreak_codes_problem(*, codes: object) -> str | None:
    """What is wrong with a list of tie-break codes, or None: each must be a known code, at
    most once (so the list is no longer than the known tie-breaks)."""
    if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
        return "A list of tie-break codes, e.g. ['sb', 'de']."
    unknown = tiebreak_codes_unknown(codes=codes)
    if unknown:
        return f"Unknown tie-break(s): {', '.join(unknown)}."
    repeated = sorted({code for code in codes if codes.count(code) > 1})
    if repeated:
        return f"Each tie-break at most once; repeated: {', '.join(repeated)}."
    return None


# --- Lists ------------------------------------------------------------------------------------


def tournament_sees_every_event(*, user: AnyUser | None) -> bool:
    """Superusers, and active staff holding the adjudicate or entries permission: those who
    may act on any event (``tournament_can_manage``) see every one, private or draft."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return user.is_staff and (user.has_perm(ADJUDICATE) or user.has_perm(MANAGE_ENTRIES))


WITH_DIVISION = "league_division__season__league"
"""The league division a round robin is played as, its season and league
(``Tournament.division``): one join, so a list costs no query per row."""

WITH_WINNERS = Prefetch(
    "entries", queryset=winners_of(Entry.objects.all()), to_attr="winner_entries"
)
"""Who finished first (``Tournament.winners``): one query for a whole list."""


def tournament_list(
    *,
    user: AnyUser | None = None,
    status: str | None = None,
    league_division: bool | None = None,
) -> QuerySet[Tournament]:
    """Tournaments ``user`` may see, newest first: public events that are not drafts, the
    private ones they organise or play in, their own drafts; every event for those
    ``tournament_sees_every_event`` names. ``league_division``: True keeps only the round
    robins played as league divisions, False only the events of their own; None both."""
    rows = Tournament.objects.select_related(
        "organiser__profile", "winner__profile", WITH_DIVISION
    ).prefetch_related(WITH_WINNERS)
    if user is None or not user.is_authenticated:
        rows = rows.filter(public=True).exclude(status=Tournament.Status.DRAFT)
    elif not tournament_sees_every_event(user=user):
        rows = rows.filter(Q(public=True) | Q(organiser=user) | Q(entries__player=user))
        rows = rows.exclude(~Q(organiser=user), status=Tournament.Status.DRAFT)
    if status is not None:
        rows = rows.filter(status=status)
    if league_division is not None:
        rows = rows.filter(league_division__isnull=not league_division)
    return rows.distinct()


def tournament_list_open(
    *,
    user: AnyUser | None = None,
    now: datetime | None = None,
    league_division: bool | None = None,
) -> QuerySet[Tournament]:
    """Events taking registrations now, the soonest to close first."""
    now = now or timezone.now()
    return (
        tournament_list(
            user=user, status=Tournament.Status.REGISTRATION, league_division=league_division
        )
        .filter(Q(registration_closes_at__isnull=True) | Q(registration_closes_at__gt=now))
        .order_by(
            F("registration_closes_at").asc(nulls_last=True),
            F("starts_at").asc(nulls_last=True),
            "pk",
        )
    )


def tournament_list_running(
    *, user: AnyUser | None = None, league_division: bool | None = None
) -> QuerySet[Tournament]:
    return tournament_list(
        user=user, status=Tournament.Status.RUNNING, league_division=league_division
    ).order_by("-started_at")


def tournament_list_finished(
    *, user: AnyUser | None = None, league_division: bool | None = None
) -> QuerySet[Tournament]:
    return tournament_list(
        user=user, status=Tournament.Status.FINISHED, league_division=league_division
    ).order_by("-finished_at")


def tournament_get_visible(*, tournament_id: int, user: AnyUser | None = None) -> Tournament:
    """The tournament if ``user`` may see it, else ``TournamentNotFound``."""
    tournament = tournament_list(user=user).filter(pk=tournament_id).first()
    if tournament is None:
        raise errors.TournamentNotFound(f"There is no tournament #{tournament_id}.")
    return tournament


def player_tournament_list(*, user: AbstractBaseUser) -> QuerySet[Tournament]:
    """The events ``user`` entered (any entry status), newest first, their league divisions
    included (the player's record of events)."""
    return (
        Tournament.objects.filter(entries__player=user)
        .select_related("organiser__profile", "winner__profile", WITH_DIVISION)
        .prefetch_related(WITH_WINNERS)
        .distinct()
        .order_by("-created_at")
    )


def tournament_entries(*, tournament: Tournament) -> QuerySet[Entry]:
    """Every entry: seeded players in seed order, then the rest by registration."""
    return tournament.entries.select_related("player__profile").order_by(
        "seed", "registered_at", "pk"
    )


def tournament_rounds(*, tournament: Tournament) -> QuerySet[Round]:
    """The rounds with their games (and each game's row), byes and knockout matches."""
    games = TournamentGame.objects.select_related(
        "game", "orange__player", "blue__player"
    ).order_by("section", "board")
    return tournament.rounds.prefetch_related(
        Prefetch("games", queryset=games),
        Prefetch("byes", queryset=Bye.objects.select_related("entry")),
        Prefetch(
            "matches",
            queryset=KnockoutMatch.objects.select_related("higher", "lower", "winner"),
        ),
    ).order_by("number")


def tournament_games_to_adjudicate(*, tournament: Tournament) -> QuerySet[TournamentGame]:
    """Games past a deadline that wait for the organiser's decision."""
    return tournament.games.filter(
        needs_adjudication=True, result=TournamentGame.Result.PENDING
    ).select_related("game", "orange", "blue", "round")


def tournament_for_game(*, game_id: int) -> TournamentGame | None:
    """The tournament place of a game (round, board), or None for a casual game."""
    return (
        TournamentGame.objects.select_related("tournament", "round").filter(game_id=game_id).first()
    )


# --- Standings --------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingsRow:
    """One line of a section's standings. ``number`` is the player's number in the section."""

    section: int
    rank: int
    entry_id: int
    number: int
    name: str
    player: Any
    points: Fraction
    tiebreaks: dict[str, TiebreakValue]
    withdrawn: bool
    rank_last: int | None = None  # a knockout's shared places: rank..rank_last
    stage: str = ""  # a knockout: the stage the player reached

    @property
    def place(self) -> str:
        """The rank, or the places shared in a knockout ("3\u20134", an en dash)."""
        if self.rank_last is None or self.rank_last == self.rank:
            return str(self.rank)
        return f"{self.rank}\u2013{self.rank_last}"


@dataclass(frozen=True)
class Standings:
    """Standings section by section (rows best first within each section)."""

    tiebreaks: tuple[str, ...]
    edition: str
    rows: list[StandingsRow] = field(default_factory=list)

    def section(self, number: int) -> list[StandingsRow]:
        return [row for row in self.rows if row.section == number]


def tournament_standings(
    *, tournament: Tournament, sections: list[SectionField] | None = None
) -> Standings:
    """Points and the event's tie-breaks (FIDE C.07, its chosen edition) per section.

    A knockout ranks by the round a player went out in (the winner first, the finalist
    second, the semi-finalists third equal, ...), points being the games won in matches.
    ``sections`` saves reading the records again.
    """
    codes = tuple(tournament.tiebreaks)
    standings = Standings(tiebreaks=codes, edition=tournament.tiebreak_edition)
    if tournament.is_knockout:
        standings.rows.extend(_knockout_rows(tournament))
        return standings
    for section in sections if sections is not None else section_fields(tournament):
        rows = standings_memo.compute_standings(
            section,
            tiebreaks=codes,
            edition=tournament.tiebreak_edition,
            rounds=tournament_rounds_total(tournament=tournament) or None,
            round_robin=tournament.is_round_robin,
        )
        for row in rows:
            entry = section.entry(row.number)
            standings.rows.append(
                StandingsRow(
                    section=section.section,
                    rank=row.place,
                    entry_id=entry.pk,
                    number=row.number,
                    name=row.name,
                    player=entry.player,
                    points=row.points,
                    tiebreaks=row.tiebreaks,
                    withdrawn=entry.status in (Entry.Status.WITHDRAWN, Entry.Status.REMOVED),
                )
            )
    return standings


def _knockout_rows(tournament: Tournament) -> list[StandingsRow]:
    """Places by the round a player went out in (``knockout_places``), never by points;
    players who went out in the same round share the places, listed by seed."""
    entries = {
        e.pk: e for e in tournament.entries.filter(seed__isnull=False).select_related("player")
    }
    exits: dict[int, int | None] = dict.fromkeys(entries)
    for match in KnockoutMatch.objects.filter(round__tournament=tournament).select_related("round"):
        if match.winner_id is not None and match.lower_id is not None:
            loser = match.lower_id if match.winner_id == match.higher_id else match.higher_id
            exits[loser] = match.round.number
    places = knockout_places(exits)
    points: dict[int, Fraction] = defaultdict(Fraction)
    for link in tournament.games.all():
        orange, blue = game_points(result=link.result)
        points[link.orange_id] += orange
        points[link.blue_id] += blue
    order = sorted(entries.values(), key=lambda e: (places[e.pk].first, e.seed))
    return [
        StandingsRow(
            section=1,
            rank=places[entry.pk].first,
            entry_id=entry.pk,
            number=entry.seed or 0,
            name=entry.name,
            player=entry.player,
            points=points[entry.pk],
            tiebreaks={},
            withdrawn=entry.status in (Entry.Status.WITHDRAWN, Entry.Status.REMOVED),
            rank_last=places[entry.pk].last,
            stage=_knockout_stage(tournament, places[entry.pk].out_in),
        )
        for entry in order
    ]


def _knockout_stage(tournament: Tournament, out_in: int | None) -> str:
    """The stage a knockout player reached: the round they went out in (Final, Semi-finals,
    ...), Winner, or Still in while the event runs."""
    if out_in is None:
        return "Winner" if tournament.status == Tournament.Status.FINISHED else "Still in"
    return knockout_round_name(out_in, max(tournament.rounds_planned or 0, out_in))


def game_points(*, result: str) -> tuple[Fraction, Fraction]:
    """Orange's and Blue's points for a game's result; 0-0 while it runs or if cancelled."""
    outcomes = OUTCOMES.get(result)
    if outcomes is None:
        return Fraction(0), Fraction(0)
    scores = {
        Outcome.WIN: Fraction(1),
        Outcome.FORFEIT_WIN: Fraction(1),
        Outcome.DRAW: Fraction(1, 2),
    }
    return scores.get(outcomes[0], Fraction(0)), scores.get(outcomes[1], Fraction(0))


# --- Crosstable -------------------------------------------------------------------------------


@dataclass(frozen=True)
class CrosstableRow:
    number: int
    name: str
    entry_id: int
    cells: list[str]  # one per opponent number 1..n; a double round robin shows both results
    points: Fraction
    byes: list[str] = field(default_factory=list)  # rounds without an opponent, in order


@dataclass(frozen=True)
class Crosstable:
    section: int
    rows: list[CrosstableRow]


def tournament_crosstables(*, tournament: Tournament) -> list[Crosstable]:
    """One crosstable per section: each player's results against each opponent, in seat
    order, and the rounds without one (``tournaments.standings.MARKS``: "1", "½", "0", "+",
    "-"; byes "+B", "1B", "½B", "0B"; "x" on the diagonal; results in round order), so a
    row's marks add up to its points."""
    tables = []
    for section in section_fields(tournament):
        size = len(section.entries)
        rows = []
        for record in section.records:
            cells: list[list[str]] = [[] for _ in range(size)]
            byes: list[str] = []
            points = Fraction(0)
            for r in record.rounds:
                points += _POINTS.points(r.outcome)
                if r.opponent is not None and r.outcome.has_opponent:
                    cells[r.opponent - 1].append(outcome_mark(r.outcome))
                elif outcome_mark(r.outcome):
                    byes.append(outcome_mark(r.outcome))
            cells[record.number - 1] = ["x"]
            rows.append(
                CrosstableRow(
                    number=record.number,
                    name=record.name,
                    entry_id=section.entry(record.number).pk,
                    cells=[" ".join(c) for c in cells],
                    points=points,
                    byes=byes,
                )
            )
        tables.append(Crosstable(section=section.section, rows=rows))
    return tables


# --- TRF export -------------------------------------------------------------------------------

TRF_NAME_LENGTH = 33
TRF_TYPES = {
    Tournament.Format.ROUND_ROBIN: "Round robin (Berger)",
    Tournament.Format.SWISS: "Swiss (Dutch)",
}


def tournament_trf(*, tournament: Tournament) -> TrfTournament:
    """The event as a FIDE Tournament Report File (``tournaments.trf.format_trf`` writes it).

    Players are numbered by seed across sections; each round's game, forfeit or bye is in
    the player's round columns. An imported event gives back the tournament records and
    other lines of its file, so export after import keeps the file. A knockout cannot be
    written (TRF holds one game per player and round) and raises ``WrongStatus``.
    """
    if tournament.is_knockout:
        raise errors.WrongStatus(
            "A knockout cannot be exported to TRF: its matches have several games per round.",
            code="trf_knockout",
        )
    if tournament.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        raise errors.WrongStatus(
            f"{tournament} has not started: there is nothing to report yet.", code="trf_not_started"
        )
    players = []
    for section in section_fields(tournament):
        seed_of = {entry.pk: entry.seed or 0 for entry in section.entries}
        for record in section.records:
            entry = section.entry(record.number)
            extra = {k: v for k, v in entry.extra.items() if isinstance(v, str)}
            if not tournament.imported and entry.final_rank is not None:
                extra.setdefault("rank", str(entry.final_rank))
            players.append(
                replace(
                    record,
                    number=seed_of[entry.pk],
                    name=record.name[:TRF_NAME_LENGTH],
                    rounds=tuple(
                        replace(
                            r,
                            opponent=None
                            if r.opponent is None
                            else seed_of[section.entry(r.opponent).pk],
                        )
                        for r in record.rounds
                    ),
                    extra=extra,
                )
            )
    players.sort(key=lambda p: p.number)
    if tournament.imported and tournament.trf:
        header = tuple((code, text) for code, text in tournament.trf.get("header", []))
        extra_lines = tuple(tournament.trf.get("extra_lines", []))
    else:
        header = _trf_header(tournament, len(players))
        extra_lines = _trf_swiss_lines(tournament) if not tournament.is_round_robin else ()
    return TrfTournament(header=header, players=tuple(players), extra_lines=extra_lines)


def _trf_swiss_lines(tournament: Tournament) -> tuple[str, ...]:
    """What pairing the next round needs beyond the results, as the Dutch system's TRF
    reader reads it (``tournaments.pairing.dutch.from_trf``): the initial colour
    (``XXC white1``), forbidden pairs (``XXP a b``), Baku acceleration (``XXA n p1 p2 ...``)
    and, for the next round, the byes entered ahead and the withdrawn players, who are not
    to be paired (``240 H|F|Z round players``)."""
    (section,) = section_fields(tournament) or (None,)
    if section is None:
        return ()
    seed = {entry.pk: entry.seed or 0 for entry in section.entries}
    total = tournament_rounds_total(tournament=tournament)
    options = swiss_pairing_options(tournament=tournament, section=section, total_rounds=total)
    lines = ["XXC white1"]
    number_seed = {index + 1: seed[entry.pk] for index, entry in enumerate(section.entries)}
    for pair in sorted(
        tuple(sorted(number_seed[n] for n in p)) for p in options["forbidden_pairs"]
    ):
        lines.append(f"XXP {pair[0]} {pair[1]}")
    for number, points in sorted(options["acceleration"].items()):
        lines.append(
            f"XXA {number_seed[number]:>4} " + " ".join(f"{float(p):4.1f}" for p in points)
        )
    upcoming = (  # the round being paired, else the first to come (made or not yet)
        tournament.rounds.filter(status=Round.Status.PAIRING).values_list("number", flat=True)
    ).first() or next(iter(tournament_rounds_to_come(tournament=tournament)), None)
    if upcoming is not None:
        by_kind: dict[str, list[int]] = defaultdict(list)
        for bye in Bye.objects.filter(round__tournament=tournament, round__number=upcoming):
            by_kind[bye.kind].append(seed[bye.entry_id])
        by_kind[Bye.Kind.ZERO].extend(number_seed[n] for n in section.absent)  # withdrawn
        for kind, seeds in sorted(by_kind.items()):
            if seeds:
                numbers = " ".join(f"{n:>4}" for n in sorted(set(seeds)))
                lines.append(f"240 {kind} {upcoming:>3} {numbers}")
    return tuple(lines)


def _trf_header(tournament: Tournament, player_count: int) -> tuple[tuple[str, str], ...]:
    def day(moment: datetime | None) -> str:
        return f"{moment:%Y/%m/%d}" if moment else ""

    return (
        ("012", tournament.name),
        ("022", "Online (correspondence)"),
        ("042", day(tournament.started_at)),
        ("052", day(tournament.finished_at)),
        ("062", str(player_count)),
        ("092", TRF_TYPES.get(tournament.format, tournament.get_format_display())),
        ("102", tournament.organiser.get_username()),
        ("142", str(tournament_rounds_total(tournament=tournament))),
    )


# --- Possible places --------------------------------------------------------------------------


def tournament_possible_places(
    *, tournament: Tournament, sections: list[SectionField] | None = None
) -> dict[int, PlaceRange]:
    """Best and worst final place each player can still reach, by entry id.

    Exact in a round robin (the games still to play are known: pending games and the
    Berger pairings of rounds not started, leaving out withdrawn players) while the search
    is cheap, bounds past its budget (``tournaments.standings.places.EXACT_WORK``); bounds
    in a Swiss (from the rounds left). A finished event has the places of its final scores
    (exact). Empty for a knockout. ``sections`` saves reading the records again.
    """
    if tournament.is_knockout:
        return {}
    places: dict[int, PlaceRange] = {}
    finished = tournament.status == Tournament.Status.FINISHED
    for section in sections if sections is not None else section_fields(tournament):
        if finished:
            result = standings_memo.possible_places(section, rounds_left=0)
        elif tournament.is_round_robin:
            result = standings_memo.possible_places(
                section, remaining_games=tuple(_remaining_games(tournament, section))
            )
        else:
            complete = tournament.rounds.filter(status=Round.Status.COMPLETE).count()
            left = tournament_rounds_total(tournament=tournament) - complete
            result = standings_memo.possible_places(section, rounds_left=left)
        for number, place in result.items():
            places[section.entry(number).pk] = place
    return places


def _remaining_games(tournament: Tournament, section: SectionField) -> list[tuple[int, int]]:
    absent = section.absent
    remaining = []
    pending = tournament.games.filter(
        section=section.section, result=TournamentGame.Result.PENDING
    ).values_list("orange_id", "blue_id")
    for orange_id, blue_id in pending:
        remaining.append((section.number_of(orange_id), section.number_of(blue_id)))
    size = len(section.entries)
    planned = tournament.rounds.filter(
        status__in=[Round.Status.PLANNED, Round.Status.PAIRING]
    ).values_list("number", flat=True)
    for number in planned:
        if number > (size - 1 + size % 2) * tournament.cycles:
            continue
        pairing = round_robin_round(size, number, cycles=tournament.cycles)
        remaining.extend((p.orange, p.blue) for p in pairing.pairs)
    return [(a, b) for a, b in remaining if a not in absent and b not in absent]


_POINTS = PointSystem()


# --- For the API and pages (t3b) --------------------------------------------------------------

# The permissions that run events (``services.ORGANISE_PERMISSION`` etc. are these).
ORGANISE = "tournaments.organise_tournament"
ADJUDICATE = "tournaments.adjudicate_tournament_game"
MANAGE_ENTRIES = "tournaments.manage_tournament_entries"


def tournament_can_manage(
    *, tournament: Tournament, user: AnyUser | None, permission: str = ORGANISE
) -> bool:
    """Whether ``user`` may run this event (``organiser_or_staff_may`` with the tournament
    organiser permission): its organiser, a superuser, or staff holding ``permission`` for
    the entries and results of every event."""
    return organiser_or_staff_may(
        user=user, organiser_id=tournament.organiser_id, organise=ORGANISE, permission=permission
    )


@dataclass(frozen=True)
class ManagerRights:
    """What ``user`` may do to one event, each by ``tournament_can_manage``: run it (settings,
    opening, start, cancel), manage its entries (invite, approve, remove, byes, pairings),
    adjudicate its games. True if any: the manage page opens, showing those actions only."""

    organise: bool
    manage_entries: bool
    adjudicate: bool

    def __bool__(self) -> bool:
        return self.organise or self.manage_entries or self.adjudicate


def tournament_manager_rights(*, tournament: Tournament, user: AnyUser | None) -> ManagerRights:
    def may(permission: str) -> bool:
        return tournament_can_manage(tournament=tournament, user=user, permission=permission)

    return ManagerRights(
        organise=may(ORGANISE), manage_entries=may(MANAGE_ENTRIES), adjudicate=may(ADJUDICATE)
    )


def tournament_get_managed(
    *, tournament_id: int, user: AnyUser | None, permission: str = ORGANISE
) -> Tournament:
    """The tournament if ``user`` may see it (else ``TournamentNotFound``) and run it
    (``tournament_can_manage`` with ``permission``, else ``NotOrganiser``)."""
    tournament = tournament_get_visible(tournament_id=tournament_id, user=user)
    tournament_manager_require(tournament=tournament, user=user, permission=permission)
    return tournament


def tournament_manager_require(
    *, tournament: Tournament, user: AnyUser | None, permission: str = ORGANISE
) -> None:
    """``NotOrganiser`` unless ``tournament_can_manage``: the one rule the services, the API
    and the pages apply before running an event."""
    if not tournament_can_manage(tournament=tournament, user=user, permission=permission):
        raise errors.NotOrganiser(
            f"Only the organiser of {tournament.name} (holding the organiser permission) or an "
            "administrator may do this."
        )


@dataclass(frozen=True)
class StandingsLine:
    """A standings row with the places the player can still reach (None for a knockout)."""

    row: StandingsRow
    places: PlaceRange | None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.row, name)


def tournament_standings_with_places(*, tournament: Tournament) -> tuple[Standings, list[Any]]:
    """The standings and, for each row in order, its best/worst possible place."""
    sections = [] if tournament.is_knockout else section_fields(tournament)
    standings = tournament_standings(tournament=tournament, sections=sections)
    places = tournament_possible_places(tournament=tournament, sections=sections)
    return standings, [StandingsLine(row, places.get(row.entry_id)) for row in standings.rows]


def tournament_entry_in(*, tournament: Tournament, entry_id: int) -> Entry:
    """Entry ``entry_id`` of ``tournament``; ``EntryNotFound`` if it belongs to another."""
    entry = tournament.entries.select_related("player").filter(pk=entry_id).first()
    if entry is None:
        raise errors.EntryNotFound(f"{tournament} has no entry #{entry_id}.")
    return entry


def tournament_game_in(*, tournament: Tournament, tournament_game_id: int) -> TournamentGame:
    """Pairing ``tournament_game_id`` of ``tournament``, else ``TournamentGameNotFound``."""
    link = tournament.games.select_related("game").filter(pk=tournament_game_id).first()
    if link is None:
        raise errors.TournamentGameNotFound(
            f"{tournament} has no game #{tournament_game_id} (use the pairing's id)."
        )
    return link


def tournament_match_in(*, tournament: Tournament, match_id: int) -> KnockoutMatch:
    """Knockout match ``match_id`` of ``tournament``, else ``TournamentGameNotFound``."""
    match = KnockoutMatch.objects.filter(pk=match_id, round__tournament=tournament).first()
    if match is None:
        raise errors.TournamentGameNotFound(
            f"{tournament} has no knockout match #{match_id}.", code="match_not_found"
        )
    return match


# --- Swiss: late entries, byes ahead of a round, forbidden pairs -------------------------------


def tournament_rounds_total(*, tournament: Tournament) -> int:
    """How many rounds the event has: the number planned (a Swiss makes each round as it
    comes, not all at the start), else the rounds it has."""
    return tournament.rounds_planned or tournament.rounds.count()


def tournament_late_entry_round(*, tournament: Tournament) -> int | None:
    """The round a late entrant would start in now, or None when the event takes no late
    entries (not a running Swiss, none allowed, or the last round for them is paired)."""
    last = tournament.late_entry_last_round
    if tournament.status != Tournament.Status.RUNNING or last is None:
        return None
    nxt = next(iter(tournament_rounds_to_come(tournament=tournament)), None)
    return nxt if nxt is not None and nxt <= last else None


def tournament_rounds_to_come(*, tournament: Tournament) -> list[int]:
    """Numbers of the rounds not paired yet (a bye can still be entered for them): those
    after the last round started or being paired, whether or not made yet."""
    started = (
        tournament.rounds.exclude(status=Round.Status.PLANNED)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    return list(range((started or 0) + 1, tournament_rounds_total(tournament=tournament) + 1))


def tournament_byes_ahead(*, tournament: Tournament) -> list[Bye]:
    """Byes entered for rounds not paired yet (requested half-point byes, absences)."""
    return list(
        Bye.objects.filter(round__tournament=tournament, round__status=Round.Status.PLANNED)
        .select_related("round", "entry")
        .order_by("round__number", "entry__seed")
    )


def tournament_forbidden_pair_names(*, tournament: Tournament) -> list[tuple[str, str]]:
    """The forbidden pairs by the players' usernames (or names without an account)."""
    label = {
        e.pk: e.player.get_username() if e.player else e.name
        for e in tournament.entries.select_related("player")
    }
    return [
        (label[a], label[b]) for a, b in tournament.forbidden_pairs if a in label and b in label
    ]


def swiss_pairing_options(
    *, tournament: Tournament, section: SectionField, total_rounds: int
) -> dict[str, Any]:
    """The Dutch system's ``forbidden_pairs`` and Baku ``acceleration`` (C.04.5), in the
    section's player numbers: what ``pair_dutch`` is given and the TRF export writes."""
    numbers = {entry.pk: index + 1 for index, entry in enumerate(section.entries)}
    forbidden = tuple(
        frozenset((numbers[a], numbers[b]))
        for a, b in tournament.forbidden_pairs
        if a in numbers and b in numbers
    )
    acceleration: dict[int, tuple[Fraction, ...]] = {}
    if tournament.accelerated:
        # Group A is the top of the starting list: late entrants are never in it.
        at_start = sum(1 for entry in section.entries if entry.joined_round == 1)
        acceleration = baku_acceleration(at_start, total_rounds)
    return {"forbidden_pairs": forbidden, "acceleration": acceleration}


# --- Calendar (a player's private feed reads these) ---------------------------------------------


def player_rounds_dated(*, user: AbstractBaseUser) -> QuerySet[Round]:
    """The rounds, with a planned or actual start, of the events ``user`` plays in (their entry
    registered or playing) that are not over, with their tournament: the dates a player's
    calendar shows."""
    playing = Entry.objects.filter(player=user, status__in=Entry.PLACE_TAKING)
    return (
        Round.objects.filter(tournament__entries__in=playing)
        .exclude(tournament__status=Tournament.Status.FINISHED)
        .filter(Q(starts_at__isnull=False) | Q(started_at__isnull=False))
        .select_related("tournament")
        .order_by("tournament_id", "number")
    )
