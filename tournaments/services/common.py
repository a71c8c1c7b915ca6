"""What every tournament service shares: loading an event with its row locked, and the
checks of status, permission and reason that refuse a write before it starts."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from tournaments import errors, selectors
from tournaments.models import Entry, Tournament, TournamentGame

User = AbstractBaseUser
Result = TournamentGame.Result

ORGANISE_PERMISSION = selectors.ORGANISE
ADJUDICATE_PERMISSION = selectors.ADJUDICATE
MANAGE_ENTRIES_PERMISSION = selectors.MANAGE_ENTRIES


def _tournament_locked(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise errors.TournamentNotFound(f"There is no tournament #{tournament_id}.") from None


#: How a sentence says an event is in each status ("Samhain Open is ...").
STATUS_PHRASES = {
    Tournament.Status.DRAFT: "a draft",
    Tournament.Status.REGISTRATION: "open for registration",
    Tournament.Status.RUNNING: "under way",
    Tournament.Status.FINISHED: "over",
    Tournament.Status.CANCELLED: "cancelled",
}


def _require_status(tournament: Tournament, *allowed: str, doing: str) -> None:
    """WrongStatus unless the event is in one of the ``allowed`` statuses; the message says
    what it is and when ``doing`` is possible, e.g. "Samhain Open is over: you can change it
    only while it is a draft or open for registration." """
    if tournament.status not in allowed:
        when = " or ".join(STATUS_PHRASES[Tournament.Status(s)] for s in allowed)
        raise errors.WrongStatus(
            f"{tournament.name} is {STATUS_PHRASES[Tournament.Status(tournament.status)]}: "
            f"you can {doing} only while it is {when}."
        )


def _require_manager(tournament: Tournament, actor: User, *, permission: str) -> None:
    """The event's organiser while they hold the organiser permission, a superuser, or staff
    holding ``permission`` (the entries or adjudicate one) for every event: the rule of
    ``selectors.tournament_can_manage``, which the API and pages apply too."""
    selectors.tournament_manager_require(tournament=tournament, user=actor, permission=permission)


def _require_reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise errors.InvalidSettings(
            "A reason is required: say why, for the players and the audit log.",
            code="reason_required",
        )
    return reason


def _entry_with_tournament_locked(entry_id: int) -> Entry:
    tournament_id = Entry.objects.filter(pk=entry_id).values_list("tournament_id", flat=True)
    first = tournament_id.first()
    if first is None:
        raise errors.EntryNotFound(f"There is no entry #{entry_id}.")
    tournament = _tournament_locked(first)
    entry = Entry.objects.select_related("player").get(pk=entry_id)
    entry.tournament = tournament
    return entry


def _link_locked(tournament_game_id: int) -> tuple[Tournament, TournamentGame]:
    tournament_id = (
        TournamentGame.objects.filter(pk=tournament_game_id)
        .values_list("tournament_id", flat=True)
        .first()
    )
    if tournament_id is None:
        raise errors.TournamentGameNotFound(f"There is no tournament game #{tournament_game_id}.")
    tournament = _tournament_locked(tournament_id)
    link = (
        TournamentGame.objects.select_for_update(of=("self",))
        .select_related("game", "round", "match")
        .get(pk=tournament_game_id)
    )
    return tournament, link
