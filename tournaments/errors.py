"""Errors the tournaments services raise; the API and pages translate them (celticsite.api).

Each refusal has its own ``code`` so clients can tell them apart; the message says what was
wrong and what would be accepted.
"""

from __future__ import annotations

from celticsite.errors import Conflict, DomainError, NotFound, NotPermitted


class TournamentNotFound(NotFound):
    code = "tournament_not_found"


class EntryNotFound(NotFound):
    code = "entry_not_found"


class TournamentGameNotFound(NotFound):
    code = "tournament_game_not_found"


class InvalidSettings(DomainError):
    """One or more settings are invalid; ``errors`` maps each field to what is wrong."""

    code = "invalid_settings"


class NotOrganiser(NotPermitted):
    code = "not_organiser"


class WrongStatus(Conflict):
    """The tournament is not in a state that allows this (e.g. registering once running)."""

    code = "wrong_status"


class RegistrationRefused(DomainError):
    """A registration rule refused the player; ``code`` names the rule."""

    status = 403
    code = "registration_refused"


class AlreadyRegistered(Conflict):
    code = "already_registered"


class TooFewPlayers(Conflict):
    code = "too_few_players"


class NotInTournament(Conflict):
    code = "not_in_tournament"


class PairingFailed(Conflict):
    code = "pairing_failed"
