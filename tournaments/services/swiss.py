"""What only a Swiss has: byes entered ahead of a round, pairs that must never meet, and
players withdrawn after too many forfeits."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.db import transaction
from django.db.models import Q

from moderation.services import audit_record
from tournaments import audit, errors, selectors
from tournaments.models import Bye, Entry, Round, Tournament, TournamentGame
from tournaments.plugins import tournament_format_for
from tournaments.services.common import (
    MANAGE_ENTRIES_PERMISSION,
    Result,
    User,
    _entry_with_tournament_locked,
    _require_manager,
    _require_reason,
    _require_status,
    _tournament_locked,
)
from tournaments.services.results import _withdraw
from tournaments.services.rounds import _round_made

_FORFEIT_LOSSES = {
    "orange": (Result.BLUE_FORFEIT_WIN, Result.DOUBLE_FORFEIT),
    "blue": (Result.ORANGE_FORFEIT_WIN, Result.DOUBLE_FORFEIT),
}


def _withdraw_forfeiters(tournament: Tournament, link: TournamentGame, *, now: datetime) -> None:
    """A player who has now lost ``forfeits_to_withdraw`` games by forfeit is treated as
    withdrawn (not answering): they are not paired again."""
    limit = tournament.forfeits_to_withdraw
    if limit is None:
        return
    for side in ("orange", "blue"):
        if link.result not in _FORFEIT_LOSSES[side]:
            continue
        entry = Entry.objects.get(pk=getattr(link, f"{side}_id"))
        if entry.status != Entry.Status.ACTIVE:
            continue
        lost = TournamentGame.objects.filter(
            Q(orange=entry, result__in=_FORFEIT_LOSSES["orange"])
            | Q(blue=entry, result__in=_FORFEIT_LOSSES["blue"]),
            tournament=tournament,
        ).count()
        if lost >= limit:
            _withdraw(tournament, entry, status=Entry.Status.WITHDRAWN, now=now)


def _swiss_round_to_come(tournament: Tournament, round_number: int | None) -> Round:
    """A round of a running Swiss not paired yet (the next one when ``round_number`` is
    None); refused otherwise, naming why."""
    _require_status(tournament, Tournament.Status.RUNNING, doing="enter a bye")
    if not tournament_format_for(format=tournament.format).takes_byes_ahead:
        raise errors.WrongStatus(
            "Byes ahead of a round are for Swiss events: other formats are paired in advance.",
            code="byes_swiss_only",
        )
    to_come = selectors.tournament_rounds_to_come(tournament=tournament)
    number = to_come[0] if round_number is None and to_come else round_number
    if number is None or number not in to_come:
        raise errors.WrongStatus(
            f"Round {round_number or 'next'} of {tournament} is not waiting to be paired: "
            "a bye can only be entered before its round is paired.",
            code="round_paired",
        )
    return _round_made(tournament, number)


@transaction.atomic
def bye_request(*, tournament_id: int, user: User, round_number: int | None = None) -> Bye:
    """``user`` asks for a half-point bye in a Swiss round not paired yet (the next one by
    default), within the event's ``half_point_byes_max``; they are not paired that round."""
    tournament = _tournament_locked(tournament_id)
    rnd = _swiss_round_to_come(tournament, round_number)
    entry = tournament.entries.filter(player=user, status=Entry.Status.ACTIVE).first()
    if entry is None:
        raise errors.NotInTournament(f"You are not playing in {tournament}.")
    if rnd.byes.filter(entry=entry).exists():
        raise errors.WrongStatus(
            f"You already have a bye in round {rnd.number}.", code="bye_already_entered"
        )
    taken = entry.byes.filter(kind=Bye.Kind.HALF, round__number__gte=entry.joined_round).count()
    if taken >= tournament.half_point_byes_max:
        raise errors.WrongStatus(
            f"{tournament} allows {tournament.half_point_byes_max} half-point bye(s) per "
            f"player; you have had {taken}.",
            code="bye_limit_reached",
        )
    return Bye.objects.create(round=rnd, entry=entry, kind=Bye.Kind.HALF)


@transaction.atomic
def bye_request_cancel(*, tournament_id: int, user: User, round_number: int) -> None:
    """``user`` takes back their half-point bye for a round not paired yet."""
    tournament = _tournament_locked(tournament_id)
    rnd = _swiss_round_to_come(tournament, round_number)
    deleted, _ = rnd.byes.filter(entry__player=user, kind=Bye.Kind.HALF).delete()
    if not deleted:
        raise errors.NotInTournament(
            f"You have no half-point bye in round {round_number}.", code="no_bye"
        )


@transaction.atomic
def bye_enter(
    *,
    tournament_id: int,
    actor: User,
    entry_id: int,
    kind: str,
    reason: str,
    round_number: int | None = None,
) -> Bye:
    """The organiser enters a bye ahead of a Swiss round not paired yet: ``Z`` (absent, no
    points), ``H`` (half a point, outside the players' limit) or ``F`` (a full point).
    Audited with the reason; the player is not paired that round."""
    entry = _entry_with_tournament_locked(entry_id)
    tournament = entry.tournament
    _require_manager(tournament, actor, permission=MANAGE_ENTRIES_PERMISSION)
    reason = _require_reason(reason)
    rnd = _swiss_round_to_come(tournament, round_number)
    if kind not in (Bye.Kind.ZERO, Bye.Kind.HALF, Bye.Kind.FULL):
        raise errors.InvalidSettings(
            f"kind {kind!r} is not one of Z (absent), H (half point), F (full point).",
            code="invalid_bye_kind",
        )
    if entry.status != Entry.Status.ACTIVE:
        raise errors.WrongStatus(
            f"{entry.name} is {entry.get_status_display().lower()}, not playing.",
            code="entry_not_active",
        )
    bye, _ = Bye.objects.update_or_create(round=rnd, entry=entry, defaults={"kind": kind})
    audit_record(
        actor=actor,
        action=audit.TOURNAMENT_BYE,
        target=entry,
        reason=reason,
        data={"tournament": tournament.pk, "round": rnd.number, "kind": kind},
    )
    return bye


@transaction.atomic
def forbidden_pairs_set(
    *, tournament_id: int, actor: User, pairs: Sequence[tuple[int, int]], reason: str = ""
) -> Tournament:
    """The organiser lists the pairs of entries (by id) who must never meet in a Swiss (same
    club, same family), replacing the previous list; rounds paired later honour it.
    Audited once the event runs."""
    tournament = _tournament_locked(tournament_id)
    _require_manager(tournament, actor, permission=MANAGE_ENTRIES_PERMISSION)
    _require_status(
        tournament,
        Tournament.Status.DRAFT,
        Tournament.Status.REGISTRATION,
        Tournament.Status.RUNNING,
        doing="set forbidden pairs",
    )
    if not tournament_format_for(format=tournament.format).avoids_forbidden_pairs:
        raise errors.InvalidSettings(
            "Forbidden pairs are for Swiss events (other formats do not pair by score).",
            code="forbidden_pairs_swiss_only",
        )
    running = tournament.status == Tournament.Status.RUNNING
    reason = _require_reason(reason) if running else reason.strip()
    known = set(tournament.entries.values_list("pk", flat=True))
    cleaned: set[tuple[int, int]] = set()
    for a, b in pairs:
        if a == b:
            raise errors.InvalidSettings(
                f"Entry #{a} is paired with itself.", code="forbidden_pair_invalid"
            )
        strangers = sorted({a, b} - known)
        if strangers:
            raise errors.InvalidSettings(
                f"Entry #{strangers[0]} is not a player of {tournament}.", code="unknown_entry"
            )
        cleaned.add((min(a, b), max(a, b)))
    tournament.forbidden_pairs = [list(pair) for pair in sorted(cleaned)]
    tournament.save(update_fields=["forbidden_pairs"])
    if running:
        audit_record(
            actor=actor,
            action=audit.TOURNAMENT_FORBIDDEN_PAIRS,
            target=tournament,
            reason=reason,
            data={"pairs": tournament.forbidden_pairs},
        )
    return tournament
