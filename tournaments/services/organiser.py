"""The organiser's hand on a running event: round dates, a round paired by hand, calling the
event off."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games import services as game_services
from games.models import Game
from moderation.services import audit_record
from tournaments import audit, errors, selectors
from tournaments.models import Round, Tournament
from tournaments.pairing.base import Pair, RoundPairing
from tournaments.plugins import tournament_format_for
from tournaments.records import SectionField, section_fields
from tournaments.services.common import (
    MANAGE_ENTRIES_PERMISSION,
    ORGANISE_PERMISSION,
    User,
    _require_manager,
    _require_reason,
    _require_status,
    _tournament_locked,
)
from tournaments.services.rounds import (
    _excused,
    _round_made,
    _round_next_number,
    _round_settle,
    _round_start,
)
from tournaments.services.start import _cancel


@transaction.atomic
def round_dates_set(
    *,
    tournament_id: int,
    actor: User,
    round_number: int,
    starts_at: datetime | None = None,
    ends_at: datetime | None = None,
) -> Round:
    """The organiser moves a planned round's start date (rounds on dates) or sets a round's
    end date, after which its unfinished games go to adjudication. ``None`` keeps a date."""
    tournament = _tournament_locked(tournament_id)
    _require_manager(tournament, actor, permission=ORGANISE_PERMISSION)
    _require_status(tournament, Tournament.Status.RUNNING, doing="change round dates")
    total = selectors.tournament_rounds_total(tournament=tournament)
    if not 1 <= round_number <= total:
        raise errors.InvalidSettings(
            f"{tournament} has rounds 1 to {total}, not {round_number}.", code="no_such_round"
        )
    rnd = _round_made(tournament, round_number)
    if rnd.status == Round.Status.COMPLETE:
        raise errors.WrongStatus(f"Round {round_number} is complete.", code="round_complete")
    if starts_at is not None:
        if rnd.status != Round.Status.PLANNED:
            raise errors.WrongStatus(
                f"Round {round_number} has started already.", code="round_started"
            )
        rnd.starts_at = starts_at
    if ends_at is not None:
        begins = rnd.started_at or rnd.starts_at
        if begins is not None and ends_at <= begins:
            raise errors.InvalidSettings(
                f"Round {round_number} must end after it starts ({begins:%Y-%m-%d %H:%M} UTC).",
                code="round_ends_before_start",
            )
        rnd.ends_at = ends_at
    rnd.save(update_fields=["starts_at", "ends_at"])
    return rnd


@transaction.atomic
def round_pair_manually(
    *,
    tournament_id: int,
    actor: User,
    pairs: Sequence[tuple[int, int]],
    byes: Sequence[int] = (),
    reason: str,
    now: datetime | None = None,
) -> Round:
    """The organiser pairs the next round by hand and starts it (round robin, Swiss): a
    planned one, or one waiting for its pairing task (which then finds it paired).

    Only once every earlier round is complete (``round_not_complete`` before): a round paired
    by hand replaces the system's pairing, which the results of the rounds before decide,
    and no round starts while the one before still runs unless the schedule says so.
    ``pairs`` are ``(orange entry id, blue entry id)``; ``byes`` are entry ids given a
    pairing bye. Every active player of a one-section event must appear exactly once.
    Written to the audit log with the reason.
    """
    now = now or timezone.now()
    tournament = _tournament_locked(tournament_id)
    _require_manager(tournament, actor, permission=MANAGE_ENTRIES_PERMISSION)
    _require_status(tournament, Tournament.Status.RUNNING, doing="pair a round")
    reason = _require_reason(reason)
    fields = section_fields(tournament)
    pairs_by_hand = tournament_format_for(format=tournament.format).pairs_by_hand
    if not pairs_by_hand or len(fields) != 1:
        raise errors.PairingFailed(
            "Manual pairing is for one-section round robin and Swiss events.",
            code="manual_pairing_unsupported",
        )
    number = _round_next_number(tournament)  # a round "pairing" counts as started
    rnd = tournament.rounds.filter(status=Round.Status.PAIRING).first() or (
        _round_made(tournament, number) if number is not None else None
    )
    if rnd is None:
        raise errors.WrongStatus("Every round has been paired already.", code="no_round_left")
    _require_earlier_rounds_complete(tournament, rnd)
    field = fields[0]
    pairing = _manual_pairing(field, pairs=pairs, byes=byes, excused=_excused(rnd, field))
    audit_record(
        actor=actor,
        action=audit.TOURNAMENT_PAIRING,
        target=tournament,
        reason=reason,
        data={"round": rnd.number, "pairs": [list(p) for p in pairs], "byes": list(byes)},
    )
    _round_start(tournament, rnd, now=now, pairings={field.section: pairing})
    _round_settle(tournament, rnd, now=now)
    return rnd


def _require_earlier_rounds_complete(tournament: Tournament, rnd: Round) -> None:
    unfinished = list(
        tournament.rounds.filter(number__lt=rnd.number)
        .exclude(status=Round.Status.COMPLETE)
        .order_by("number")
        .values_list("number", flat=True)
    )
    if unfinished:
        raise errors.WrongStatus(
            f"Round {rnd.number} can be paired by hand once round {unfinished[-1]} is complete "
            "(every game decided or adjudicated).",
            code="round_not_complete",
        )


def _manual_pairing(
    field: SectionField,
    *,
    pairs: Sequence[tuple[int, int]],
    byes: Sequence[int],
    excused: frozenset[int] = frozenset(),
) -> RoundPairing:
    try:
        numbered = [(field.number_of(a), field.number_of(b)) for a, b in pairs]
        bye_numbers = [field.number_of(e) for e in byes]
    except KeyError as exc:
        raise errors.PairingFailed(
            f"Entry #{exc.args[0]} is not a player of this tournament.", code="unknown_entry"
        ) from None
    seen = [n for pair in numbered for n in pair] + bye_numbers
    present = {r.number for r in field.records} - field.absent - excused
    repeated = sorted({field.entry(n).name for n in seen if seen.count(n) > 1})
    missing = sorted(field.entry(n).name for n in present - set(seen))
    gone = sorted(field.entry(n).name for n in set(seen) & field.absent)
    away = sorted(field.entry(n).name for n in set(seen) & excused)
    problems = [
        f"{label}: {', '.join(names)}"
        for label, names in (
            ("paired twice", repeated),
            ("not paired", missing),
            ("withdrawn", gone),
            ("with a bye already entered for this round", away),
        )
        if names
    ]
    if problems:
        raise errors.PairingFailed(
            "Every active player must be paired once; " + "; ".join(problems) + ".",
            code="manual_pairing_invalid",
        )
    return RoundPairing(pairs=tuple(Pair(a, b) for a, b in numbered), byes=tuple(bye_numbers))


@transaction.atomic
def tournament_cancel(*, tournament_id: int, actor: User, reason: str) -> Tournament:
    """The organiser calls off an event that has not finished; running games are annulled."""
    tournament = _tournament_locked(tournament_id)
    _require_manager(tournament, actor, permission=ORGANISE_PERMISSION)
    _require_status(
        tournament,
        Tournament.Status.DRAFT,
        Tournament.Status.REGISTRATION,
        Tournament.Status.RUNNING,
        doing="cancel it",
    )
    reason = _require_reason(reason)
    for link in tournament.games.filter(game__status=Game.Status.ACTIVE).select_related("game"):
        assert link.game is not None
        game_services.game_annul(
            game_id=link.game.pk, actor=actor, reason=reason, moderator_check=False
        )
    _cancel(tournament, note=reason, now=timezone.now())
    return tournament
