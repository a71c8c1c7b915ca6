"""Errors the ladder services raise; the API and pages translate them (celticsite.api).

Each refusal has its own ``code``; the message says what was wrong and what is accepted.
A challenge the rules refuse is ``ChallengeRefused`` with the rule's code
(``out_of_range``, ``rematch_too_soon`` …: see ``ladders.rules.challenge_refusal``).
"""

from __future__ import annotations

from celticsite.errors import Conflict, DomainError, NotFound, NotPermitted


class LadderNotFound(NotFound):
    code = "ladder_not_found"


class InvalidLadderSettings(DomainError):
    """One or more limits are invalid; ``errors`` maps each field to what is wrong."""

    code = "invalid_settings"


class NotLadderOrganiser(NotPermitted):
    code = "not_organiser"


class AccountSuspended(NotPermitted):
    code = "inactive_user"


class AlreadyOnLadder(Conflict):
    code = "already_on_ladder"


class NotOnLadder(Conflict):
    code = "not_on_ladder"


class ChallengeInPlay(Conflict):
    """The player has a challenge game being played (leave after it ends)."""

    code = "challenge_in_play"


class ChallengeRefused(Conflict):
    """The ladder's rules do not allow this challenge now; ``code`` names the rule."""

    code = "challenge_refused"


class PlayerNotFound(NotFound):
    code = "player_not_found"
