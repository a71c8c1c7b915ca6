"""Knockout matches: the bracket of each round, the matches and their pairs of games, how a
tied match is decided, and the organiser's decision when the rules leave it to them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from fractions import Fraction

from django.db import transaction
from django.utils import timezone

from games import services as game_services
from moderation.services import audit_record
from tournaments import audit, emails, errors
from tournaments.models import Entry, KnockoutMatch, Round, Tournament, TournamentGame
from tournaments.pairing.base import Pair, PairingError, RoundPairing
from tournaments.pairing.knockout import (
    BracketMatch,
    MatchDecision,
    MatchGame,
    MatchPolicy,
    TieDecider,
    decide_match,
    knockout_bracket,
    knockout_next_round,
)
from tournaments.records import SectionField
from tournaments.services.common import (
    ADJUDICATE_PERMISSION,
    Result,
    User,
    _require_manager,
    _require_reason,
    _require_status,
    _tournament_locked,
)
from tournaments.services.rounds import _round_settle


def _knockout_bracket(
    tournament: Tournament, rnd: Round, field: SectionField
) -> tuple[BracketMatch, ...]:
    """Round 1: the seeded bracket (byes to the top seeds). Later rounds: the winners of the
    previous round's matches, in bracket order."""
    try:
        if rnd.number == 1:
            return knockout_bracket(len(field.entries))
        winners = (
            KnockoutMatch.objects.filter(round__tournament=tournament, round__number=rnd.number - 1)
            .order_by("number")
            .values_list("winner_id", flat=True)
        )
        return knockout_next_round([field.number_of(w) for w in winners])
    except PairingError as exc:
        raise errors.PairingFailed(f"Round {rnd.number} cannot be paired: {exc}") from None


def _knockout_pairing(bracket: Sequence[BracketMatch]) -> RoundPairing:
    """The first pair of games of every match (one game with each colour, both at once);
    a bye is the higher seed's."""
    pairs: list[Pair] = []
    byes: list[int] = []
    for match in bracket:
        if match.lower_seed is None:
            byes.append(match.higher_seed)
        else:
            higher, lower = match.higher_seed, match.lower_seed
            pairs.extend([Pair(higher, lower), Pair(lower, higher)])
    return RoundPairing(pairs=tuple(pairs), byes=tuple(byes))


def _knockout_matches_create(
    tournament: Tournament, rnd: Round, field: SectionField, bracket: Sequence[BracketMatch]
) -> None:
    """One match per bracket place, linked to its first pair of games (boards 2m-1, 2m of
    the paired matches in order); a bye is a match won at once."""
    links = list(rnd.games.order_by("board"))
    matches = []
    for number, place in enumerate(bracket, start=1):
        bye = place.lower_seed is None
        matches.append(
            KnockoutMatch(
                round=rnd,
                number=number,
                higher=field.entry(place.higher_seed),
                lower=None if bye else field.entry(place.lower_seed),
                pairs_started=0 if bye else 1,
                winner=field.entry(place.higher_seed) if bye else None,
                decided_by=KnockoutMatch.DecidedBy.BYE if bye else KnockoutMatch.DecidedBy.NONE,
            )
        )
    KnockoutMatch.objects.bulk_create(matches)
    paired = [match for match in matches if match.lower_id is not None]
    for index, match in enumerate(paired):
        for link in links[2 * index : 2 * index + 2]:
            link.match = match
    TournamentGame.objects.bulk_update(links, ["match"])
    for match in paired:
        _knockout_match_settle(tournament, match, now=rnd.started_at or timezone.now())


def _knockout_match_settle(tournament: Tournament, match: KnockoutMatch, *, now: datetime) -> None:
    """Decide ``match`` if it can be (a withdrawal, a pair won, the decider after the extra
    pairs), start its next pair of games if tied, or ask the organiser to decide."""
    match = KnockoutMatch.objects.select_related("round", "higher", "lower").get(pk=match.pk)
    if match.winner_id is not None:
        return
    higher, lower = match.higher, match.lower
    assert lower is not None
    gone = (Entry.Status.WITHDRAWN, Entry.Status.REMOVED)
    if higher.status in gone or lower.status in gone:
        winner = lower if higher.status in gone else higher
        _knockout_match_decided(match, winner, KnockoutMatch.DecidedBy.WITHDRAWAL)
        return
    links = list(match.games.order_by("pair", "board"))
    seed = {higher.pk: 1, lower.pk: 2}
    state = decide_match(
        higher_seed=1,
        lower_seed=2,
        games=[
            MatchGame(seed[link.orange_id], seed[link.blue_id], *_match_points(link.result))
            for link in links
        ],
        policy=MatchPolicy(
            max_extra_pairs=tournament.knockout_extra_pairs,
            decider=TieDecider(tournament.knockout_decider),
        ),
    )
    if state.winner is not None:
        how = (
            KnockoutMatch.DecidedBy.GAMES
            if state.decided_by == MatchDecision.GAMES
            else KnockoutMatch.DecidedBy.HIGHER_SEED
        )
        _knockout_match_decided(match, higher if state.winner == 1 else lower, how)
    elif state.games_to_start:
        _knockout_pair_start(tournament, match, now=now)
    elif state.awaiting_organiser:
        emails.organiser_news(
            tournament=tournament,
            kind=emails.OrganiserNews.DECISION_NEEDED,
            key=f"match:{match.pk}",
            context={"match": match, "higher_name": higher.name, "lower_name": lower.name},
        )


def _match_points(result: str) -> tuple[Fraction | None, Fraction | None]:
    """Each side's points in a match game: None while it runs; a cancelled game scores 0-0."""
    if result == Result.PENDING:
        return None, None
    return {
        Result.ORANGE_WINS: (Fraction(1), Fraction(0)),
        Result.ORANGE_FORFEIT_WIN: (Fraction(1), Fraction(0)),
        Result.BLUE_WINS: (Fraction(0), Fraction(1)),
        Result.BLUE_FORFEIT_WIN: (Fraction(0), Fraction(1)),
        Result.DRAW: (Fraction(1, 2), Fraction(1, 2)),
    }.get(result, (Fraction(0), Fraction(0)))


def _knockout_match_decided(match: KnockoutMatch, winner: Entry, how: str) -> None:
    match.winner, match.decided_by = winner, how
    match.save(update_fields=["winner", "decided_by"])


def _knockout_pair_start(tournament: Tournament, match: KnockoutMatch, *, now: datetime) -> None:
    """Start the next pair of games of a tied match, both at once."""
    rnd = match.round
    board = (rnd.games.order_by("-board").values_list("board", flat=True).first() or 0) + 1
    higher, lower = match.higher, match.lower
    assert lower is not None
    sides = [(higher, lower), (lower, higher)]
    games = game_services.games_start_many(
        pairs=[(orange.player, blue.player) for orange, blue in sides],
        kind=tournament.kind,
        rated=tournament.rated,
        public=tournament.public,
        window_forfeit=tournament.window_forfeit,
        time_control=tournament.time_control,
        now=now,
        announce=True,  # the players hear that the match goes on
    )
    match.pairs_started += 1
    match.save(update_fields=["pairs_started"])
    TournamentGame.objects.bulk_create(
        TournamentGame(
            tournament=tournament,
            round=rnd,
            game=game,
            orange=orange,
            blue=blue,
            board=board + index,
            match=match,
            pair=match.pairs_started,
        )
        for index, (game, (orange, blue)) in enumerate(zip(games, sides, strict=True))
    )


@transaction.atomic
def knockout_match_decide(
    *,
    match_id: int,
    actor: User,
    winner_entry_id: int,
    reason: str,
    now: datetime | None = None,
) -> KnockoutMatch:
    """The organiser decides a tied knockout match (events whose decider is the organiser,
    or any undecided match in an emergency). Audited with the reason."""
    round_tournament = (
        KnockoutMatch.objects.filter(pk=match_id)
        .values_list("round__tournament_id", flat=True)
        .first()
    )
    if round_tournament is None:
        raise errors.TournamentGameNotFound(
            f"There is no knockout match #{match_id}.", code="match_not_found"
        )
    tournament = _tournament_locked(round_tournament)
    _require_manager(tournament, actor, permission=ADJUDICATE_PERMISSION)
    _require_status(tournament, Tournament.Status.RUNNING, doing="decide a match")
    reason = _require_reason(reason)
    match = KnockoutMatch.objects.select_related("round", "higher", "lower").get(pk=match_id)
    if match.winner_id is not None:
        raise errors.WrongStatus(f"{match} is already decided.", code="match_decided")
    if winner_entry_id not in (match.higher_id, match.lower_id):
        raise errors.InvalidSettings(
            f"The winner must be one of the match's players (entries {match.higher_id} and "
            f"{match.lower_id}).",
            code="winner_not_in_match",
        )
    winner = match.higher if winner_entry_id == match.higher_id else match.lower
    assert winner is not None
    audit_record(
        actor=actor,
        action=audit.TOURNAMENT_DECIDE,
        target=match,
        reason=reason,
        data={"tournament": tournament.pk, "winner": winner.pk},
    )
    for link in match.games.filter(result=Result.PENDING).select_related("game"):
        if link.game is not None and link.game.is_active:
            game_services.game_annul(
                game_id=link.game.pk, actor=actor, reason=reason, moderator_check=False
            )
        link.result, link.result_fixed = Result.CANCELLED, True
        link.save(update_fields=["result", "result_fixed"])
    _knockout_match_decided(match, winner, KnockoutMatch.DecidedBy.ORGANISER)
    _round_settle(tournament, match.round, now=now or timezone.now())
    return match
