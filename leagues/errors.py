"""Errors the leagues services raise; the API and pages translate them (celticsite.api).

Each refusal has its own ``code``; the message says what was wrong and what is accepted.
"""

from __future__ import annotations

from celticsite.errors import Conflict, DomainError, NotFound, NotPermitted


class LeagueNotFound(NotFound):
    code = "league_not_found"


class SeasonNotFound(NotFound):
    code = "season_not_found"


class DivisionNotFound(NotFound):
    code = "division_not_found"


class InvalidLeagueSettings(DomainError):
    """One or more rules are invalid; ``errors`` maps each field to what is wrong."""

    code = "invalid_settings"


class NotLeagueOrganiser(NotPermitted):
    code = "not_organiser"


class WrongSeasonStatus(Conflict):
    """The season is not in a state that allows this (e.g. registering once running)."""

    code = "wrong_status"


class AlreadyRegistered(Conflict):
    code = "already_registered"


class NotInSeason(Conflict):
    code = "not_in_season"


class RemovedFromSeason(Conflict):
    """The organiser removed the player from this season; only they may add them again."""

    code = "removed_by_organiser"


class NotInvited(Conflict):
    code = "not_invited"


class UserNotFound(NotFound):
    code = "no_user"
