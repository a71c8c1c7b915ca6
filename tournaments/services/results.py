"""Results: recording how a tournament game ended, the organiser's adjudications and result
fixes, and withdrawals (a player leaving, or removed by the organiser)."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from celery import signature
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from celticsite.celery import task_delay_on_commit
from games import audit as games_audit
from games import services as game_services
from games.models import Game
from moderation.models import AuditEntry
from moderation.services import audit_record
from tournaments import audit, emails, errors, standings_memo
from tournaments.models import Bye, Entry, Round, Tournament, TournamentGame
from tournaments.plugins import tournament_format_for
from tournaments.services.common import (
    ADJUDICATE_PERMISSION,
    MANAGE_ENTRIES_PERMISSION,
    Result,
    User,
    _entry_with_tournament_locked,
    _link_locked,
    _require_manager,
    _require_reason,
    _require_status,
    _tournament_locked,
)
from tournaments.services.rounds import _final_standings_store, _round_settle

#: The Celery task that ranks an event after a result, queued by name (the tasks call these
#: services).
STANDINGS_WARM_TASK = "tournaments.tasks.standings_warm"


def tournament_game_ended(*, game_id: int, now: datetime | None = None) -> bool:
    """Record how a tournament game ended and move the event on; safe to run twice.

    Called (through a Celery task) after games publish ``game_finished`` or
    ``game_result_changed``. Returns False for a game
    that is not a tournament game.
    """
    tournament_id = (
        TournamentGame.objects.filter(game_id=game_id).values_list("tournament_id", flat=True)
    ).first()
    if tournament_id is None:
        return False
    with transaction.atomic():
        tournament = _tournament_locked(tournament_id)
        link = (
            TournamentGame.objects.select_for_update(of=("self",))
            .select_related("game", "round", "match")
            .get(game_id=game_id)
        )
        _game_result_record(tournament, link, now=now or timezone.now())
    return True


def _game_result_record(tournament: Tournament, link: TournamentGame, *, now: datetime) -> None:
    """Copy the game's end into ``link.result`` (unless fixed), then let the format react (a
    knockout settles the match, a Swiss withdraws a player after too many forfeits) and
    settle the round."""
    assert link.game is not None
    result = result_of_game(game=link.game)
    if not link.result_fixed and result != link.result:
        link.result = result
        link.needs_adjudication = link.needs_adjudication and result == Result.PENDING
        link.save(update_fields=["result", "needs_adjudication"])
        _standings_warm_after_commit(tournament)
    if tournament.status != Tournament.Status.RUNNING:
        return
    tournament_format_for(format=tournament.format).game_recorded(tournament, link, now=now)
    _round_settle(tournament, link.round, now=now)


def _standings_warm_after_commit(tournament: Tournament) -> None:
    """Have the worker rank the event once this commits, storing the standings and places
    every process reads (``tournaments.standings_memo``): the next page need not rank. A
    broker outage is logged; the first page after the result then ranks."""
    transaction.on_commit(partial(_standings_warm_queue, tournament.pk))


def _standings_warm_queue(tournament_id: int) -> None:
    """Queue the ranking unless one is queued already (a burst of results, one ranking)."""
    if standings_memo.warm_claim(tournament_id):
        task_delay_on_commit(
            signature(STANDINGS_WARM_TASK),
            tournament_id,
            on_outage=f"Could not queue ranking tournament {tournament_id} after a result",
        )


def result_of_game(*, game: Game) -> str:
    """The tournament result of a game as it stands.

    The game's seats 1 and 2 are the pairing's Orange and Blue (the order the round started
    them in); their places decide. A timeout is a loss like any other. A game that ended
    with no move made (annulled as unstarted, or lost on time or by resignation at ply 0) is
    a forfeit: the player who did not move loses without the game counting as played. A
    game a moderator annulled is cancelled. An active game is pending.
    """
    if game.status == Game.Status.ACTIVE:
        return Result.PENDING
    if game.status == Game.Status.ANNULLED:
        if _annulled_by_moderator(game):
            return Result.CANCELLED
        return Result.BLUE_FORFEIT_WIN  # unstarted: Orange, to move, never moved
    no_move = game.ply == 0 and game.termination != Game.Termination.ADJUDICATION
    places = tuple(place for _user, place in game.placings())
    if places == (1, 2):
        return Result.ORANGE_FORFEIT_WIN if no_move else Result.ORANGE_WINS
    if places == (2, 1):
        return Result.BLUE_FORFEIT_WIN if no_move else Result.BLUE_WINS
    return Result.DRAW


def _annulled_by_moderator(game: Game) -> bool:
    return AuditEntry.objects.filter(
        action=games_audit.GAME_ANNUL,
        target_content_type__app_label="games",
        target_content_type__model="game",
        target_object_id=str(game.pk),
    ).exists()


@transaction.atomic
def entry_withdraw(*, tournament_id: int, user: User, now: datetime | None = None) -> Entry:
    """``user`` leaves a running tournament (before the start, use ``registration_cancel``).

    Their running games are resigned. Then the event's withdrawal policy applies: under the
    half rule (as in correspondence events) a round robin player who played less than half
    their games has all their results cancelled, otherwise their remaining games are lost by
    forfeit. In a knockout their opponent goes through; in a Swiss they are not paired again
    (the format decides: ``TournamentFormat.withdrawal_cancels_results``, ``entry_withdrawn``).
    """
    tournament = _tournament_locked(tournament_id)
    _require_status(tournament, Tournament.Status.RUNNING, doing="withdraw")
    entry = tournament.entries.filter(player=user, status=Entry.Status.ACTIVE).first()
    if entry is None:
        raise errors.NotInTournament(f"You are not playing in {tournament}.")
    _withdraw(tournament, entry, status=Entry.Status.WITHDRAWN, now=now or timezone.now())
    return entry


@transaction.atomic
def entry_remove(*, entry_id: int, actor: User, reason: str, now: datetime | None = None) -> Entry:
    """The organiser removes a player (audited with the reason).

    Before the start the entry is simply marked removed; once running, it is a withdrawal
    under the event's policy.
    """
    entry = _entry_with_tournament_locked(entry_id)
    tournament = entry.tournament
    _require_manager(tournament, actor, permission=MANAGE_ENTRIES_PERMISSION)
    reason = _require_reason(reason)
    if entry.status in (Entry.Status.WITHDRAWN, Entry.Status.REMOVED):
        raise errors.WrongStatus(
            f"{entry.name} has already left ({entry.get_status_display().lower()}).",
            code="entry_already_left",
        )
    previous = entry.status
    if tournament.status == Tournament.Status.RUNNING and entry.status == Entry.Status.ACTIVE:
        _withdraw(tournament, entry, status=Entry.Status.REMOVED, now=now or timezone.now())
    else:
        _require_status(
            tournament,
            Tournament.Status.DRAFT,
            Tournament.Status.REGISTRATION,
            Tournament.Status.RUNNING,
            doing="remove a player",
        )
        entry.status = Entry.Status.REMOVED
        entry.save(update_fields=["status"])
    audit_record(
        actor=actor,
        action=audit.TOURNAMENT_REMOVE,
        target=entry,
        reason=reason,
        data={"tournament": tournament.pk, "previous_status": previous},
    )
    return entry


def _withdraw(tournament: Tournament, entry: Entry, *, status: str, now: datetime) -> None:
    last_round = (  # a round being paired leaves them out
        tournament.rounds.filter(status__in=[Round.Status.RUNNING, Round.Status.COMPLETE])
        .order_by("-number")
        .first()
    )
    mine = list(
        TournamentGame.objects.select_related("game", "round", "match").filter(
            Q(orange=entry) | Q(blue=entry), tournament=tournament
        )
    )
    fmt = tournament_format_for(format=tournament.format)
    cancel = fmt.withdrawal_cancels_results(tournament, entry, mine)
    entry.status = status
    entry.withdrawn_at = now
    entry.withdrawn_after_round = last_round.number if last_round else 0
    entry.results_cancelled = cancel
    entry.save(
        update_fields=["status", "withdrawn_at", "withdrawn_after_round", "results_cancelled"]
    )
    # Byes entered ahead lapse: a withdrawn player scores nothing more.
    Bye.objects.filter(
        entry=entry, round__status__in=[Round.Status.PLANNED, Round.Status.PAIRING]
    ).delete()
    for link in mine:
        if cancel:
            link.result, link.result_fixed = Result.CANCELLED, True
        elif link.result == Result.PENDING:
            orange_left = link.orange_id == entry.pk
            link.result = Result.BLUE_FORFEIT_WIN if orange_left else Result.ORANGE_FORFEIT_WIN
            link.result_fixed = True
        else:
            continue
        link.save(update_fields=["result", "result_fixed"])
        if link.game is not None and link.game.is_active:
            game_services.game_resign(game_id=link.game.pk, user=entry.player, now=now)
    emails.withdrawn(tournament=tournament, entry=entry, results_cancelled=cancel)
    fmt.entry_withdrawn(tournament, entry, now=now)
    for rnd in tournament.rounds.filter(status=Round.Status.RUNNING):
        _round_settle(tournament, rnd, now=now)
    _standings_warm_after_commit(tournament)


@transaction.atomic
def tournament_game_adjudicate(
    *,
    tournament_game_id: int,
    actor: User,
    result: str,
    reason: str,
    now: datetime | None = None,
) -> TournamentGame:
    """The organiser decides a game (usually one past a deadline): ``result`` is 1-0, 0-1 or
    1/2-1/2. The game ends adjudicated; the audit log records who and why."""
    tournament, link = _link_locked(tournament_game_id)
    _require_manager(tournament, actor, permission=ADJUDICATE_PERMISSION)
    _require_status(tournament, Tournament.Status.RUNNING, doing="adjudicate")
    if link.game is None:
        raise errors.WrongStatus("This pairing has no game to adjudicate; fix its result.")
    game_services.game_adjudicate(
        game_id=link.game.pk, actor=actor, result=result, reason=reason, moderator_check=False
    )
    link.game.refresh_from_db()
    link.result_fixed = False
    link.save(update_fields=["result_fixed"])
    _game_result_record(tournament, link, now=now or timezone.now())
    return link


@transaction.atomic
def tournament_result_fix(
    *,
    tournament_game_id: int,
    actor: User,
    result: str,
    reason: str,
    now: datetime | None = None,
) -> TournamentGame:
    """The organiser sets how a pairing counts in the event (any ``TournamentGame.Result``,
    e.g. a forfeit or a cancellation), whatever its game says. Audited with the reason."""
    tournament, link = _link_locked(tournament_game_id)
    _require_manager(tournament, actor, permission=ADJUDICATE_PERMISSION)
    _require_status(
        tournament, Tournament.Status.RUNNING, Tournament.Status.FINISHED, doing="fix a result"
    )
    reason = _require_reason(reason)
    allowed = [value for value in Result.values if value]
    if result not in allowed:
        raise errors.InvalidSettings(
            f"result {result!r} is not one of {', '.join(allowed)}.", code="invalid_result"
        )
    if link.game is not None and link.game.is_active:
        raise errors.WrongStatus(
            "The game is still being played: adjudicate it instead.", code="game_active"
        )
    audit_record(
        actor=actor,
        action=audit.TOURNAMENT_RESULT_FIX,
        target=link,
        reason=reason,
        data={"tournament": tournament.pk, "previous": link.result, "result": result},
    )
    link.result, link.result_fixed = result, True
    link.save(update_fields=["result", "result_fixed"])
    _standings_warm_after_commit(tournament)
    if tournament.status == Tournament.Status.FINISHED:
        _final_standings_store(tournament)
    else:
        _game_result_record(tournament, link, now=now or timezone.now())
    return link
